// SPDX-License-Identifier: MIT
// docs/contract.md §4.3: cancel handlers run once, in order, before the attempt is marked failed; late deliveries
// reach the runner, which refuses them.
#include "engine/attemptcontext.h"
#include "engine/manualclock.h"

#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

class tst_AttemptContext : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handlersRunOnceInOrder()
    {
        ManualClock clock;
        AttemptContext ctx(1, Provider::Gemini, Role::Primary, clock.now() + 60s);
        QStringList ran;
        ctx.onCancel([&] { ran << QStringLiteral("abort reply"); });
        ctx.onCancel([&] { ran << QStringLiteral("interrupt worker"); });
        QVERIFY(!ctx.isCancelled());
        QVERIFY(ctx.cancel(AbortReason::Deadline));
        QVERIFY(!ctx.cancel(AbortReason::Operator)); // the first reason stands
        QCOMPARE(ran, (QStringList { QStringLiteral("abort reply"), QStringLiteral("interrupt worker") }));
        QCOMPARE(ctx.abortReason(), AbortReason::Deadline);
        QCOMPARE(ctx.cancelHandlersRun(), 2);
    }

    void handlerRegisteredAfterCancelRunsAtOnce()
    {
        ManualClock clock;
        AttemptContext ctx(1, Provider::Qwen, Role::Fallback, clock.now() + 1s);
        ctx.cancel(AbortReason::Operator);
        bool ran = false;
        ctx.onCancel([&] { ran = true; });
        QVERIFY(ran);
    }

    void handlerMayRegisterAnother()
    {
        ManualClock clock;
        AttemptContext ctx(1, Provider::Gemini, Role::Primary, clock.now() + 1s);
        QStringList ran;
        ctx.onCancel([&] {
            ran << QStringLiteral("first");
            ctx.onCancel([&] { ran << QStringLiteral("nested"); });
        });
        ctx.cancel(AbortReason::Shutdown);
        QCOMPARE(ran, (QStringList { QStringLiteral("first"), QStringLiteral("nested") }));
    }

    void deliversOnce()
    {
        ManualClock clock;
        AttemptContext ctx(7, Provider::OpenAI, Role::Primary, clock.now() + 1s);
        QList<int> statuses;
        ctx.setDeliveryHandler([&](ProviderResponse r) { statuses << r.httpStatus.value_or(-1); });
        ctx.noteRequestSent();
        ProviderResponse first;
        first.httpStatus = 200;
        ctx.deliver(first);
        ProviderResponse second;
        second.httpStatus = 500;
        ctx.deliver(second);
        QCOMPARE(statuses, QList<int> { 200 });
        QVERIFY(ctx.delivered());
        QCOMPARE(ctx.requestsSent(), 1);
    }

    void freshContextIsNotCancelled()
    {
        ManualClock clock;
        AttemptContext primary(1, Provider::Gemini, Role::Primary, clock.now() + 1s);
        primary.cancel(AbortReason::Deadline);
        const AttemptContext fallback(2, Provider::Qwen, Role::Fallback, clock.now() + 2s);
        QVERIFY(!fallback.isCancelled());
        QCOMPARE(fallback.abortReason(), AbortReason::None);
    }
};

QTEST_GUILESS_MAIN(tst_AttemptContext)
#include "tst_attemptcontext.moc"
