// SPDX-License-Identifier: MIT
// docs/api.md, "Limits": each token's request rate, a bucket refilled on the monotonic clock only. On
// the wall clock, a step back of T seconds (NTP, a resumed VM) refused every token for about T seconds.
#include "engine/manualclock.h"
#include "service/ratelimiter.h"

#include <QTest>

using namespace bullpen;
using namespace std::chrono;

class tst_RateLimiter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The burst, then one request per 1/rate of monotonic time: whatever the wall clock does meanwhile
    // (this clock is the only time the limiter reads).
    void refillsOnTheMonotonicClockOnly()
    {
        ManualClock clock;
        RateLimiter limiter(clock, /*rate=*/2, /*burst=*/4);
        for (int i = 0; i < 4; ++i)
            QVERIFY2(!limiter.take(QStringLiteral("ops")), qPrintable(QString::number(i)));
        const std::optional<seconds> wait = limiter.take(QStringLiteral("ops"));
        QVERIFY(wait);
        QCOMPARE(wait->count(), 1); // half a second to the next token, said as whole seconds
        QVERIFY(!limiter.take(QStringLiteral("watcher"))); // another token has its own bucket

        clock.advance(milliseconds(499));
        QVERIFY(limiter.take(QStringLiteral("ops")));
        clock.advance(milliseconds(1)); // 500 ms in all since the burst ran out: one token
        QVERIFY(!limiter.take(QStringLiteral("ops")));
        QVERIFY(limiter.take(QStringLiteral("ops")));

        clock.advance(hours(1)); // never more than the burst
        for (int i = 0; i < 4; ++i)
            QVERIFY(!limiter.take(QStringLiteral("ops")));
        QVERIFY(limiter.take(QStringLiteral("ops")));
    }

    // How long a refused client is told to wait: until one whole token is back, rounded up.
    void retryAfterCountsTheMissingToken()
    {
        ManualClock clock;
        RateLimiter limiter(clock, /*rate=*/0.25, /*burst=*/1);
        QVERIFY(!limiter.take(QStringLiteral("slow")));
        QCOMPARE(limiter.take(QStringLiteral("slow")).value_or(seconds(0)).count(), 4);
        clock.advance(seconds(3));
        QCOMPARE(limiter.take(QStringLiteral("slow")).value_or(seconds(0)).count(), 1);
        clock.advance(seconds(1));
        QVERIFY(!limiter.take(QStringLiteral("slow")));
    }
};

QTEST_GUILESS_MAIN(tst_RateLimiter)
#include "tst_ratelimiter.moc"
