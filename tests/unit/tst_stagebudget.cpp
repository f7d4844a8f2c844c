// SPDX-License-Identifier: MIT
// docs/contract.md §4.2: one monotonic budget; attempt deadline = min(now + own timeout, end of budget).
#include "engine/manualclock.h"
#include "engine/stagebudget.h"
#include "engine/stagepolicy.h"

#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

class tst_StageBudget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deadlineIsMinOfTimeoutAndRemaining_data()
    {
        QTest::addColumn<qint64>("totalMs");
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<qint64>("timeoutMs");
        QTest::addColumn<qint64>("deadlineMs");
        QTest::newRow("fresh budget, own timeout shorter") << qint64(120'000) << qint64(0) << qint64(60'000) << qint64(60'000);
        QTest::newRow("primary failed at 5 s") << qint64(120'000) << qint64(5'000) << qint64(60'000) << qint64(65'000);
        QTest::newRow("primary used 60 s of 100 s") << qint64(100'000) << qint64(60'000) << qint64(60'000) << qint64(100'000);
        QTest::newRow("budget gone") << qint64(60'000) << qint64(60'000) << qint64(60'000) << qint64(60'000);
        QTest::newRow("past the budget") << qint64(60'000) << qint64(70'000) << qint64(60'000) << qint64(60'000);
    }

    void deadlineIsMinOfTimeoutAndRemaining()
    {
        QFETCH(qint64, totalMs);
        QFETCH(qint64, elapsedMs);
        QFETCH(qint64, timeoutMs);
        QFETCH(qint64, deadlineMs);
        ManualClock clock;
        const StageBudget budget(clock, std::chrono::milliseconds(totalMs));
        clock.advance(std::chrono::milliseconds(elapsedMs));
        const auto deadline = budget.attemptDeadline(std::chrono::milliseconds(timeoutMs), clock.now());
        QCOMPARE(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - budget.start()).count(), deadlineMs);
        QCOMPARE(budget.exhausted(), elapsedMs >= totalMs);
        QVERIFY(budget.remaining() >= Clock::duration::zero());
    }

    void startsWhenRequested()
    {
        ManualClock clock;
        clock.advance(3s); // whatever happened before the stage was requested does not count
        const StageBudget budget(clock, 10s);
        QCOMPARE(budget.elapsed(), Clock::duration::zero());
        clock.advance(4s); // queueing and request building count
        QCOMPARE(budget.remaining(), Clock::duration(6s));
    }

    void policyBudgets_data()
    {
        QTest::addColumn<StagePolicy>("policy");
        QTest::addColumn<qint64>("budgetMs");
        QTest::newRow("relief with fallback: 60 + 60") << StagePolicy::relief(Provider::Gemini, Provider::Qwen) << qint64(120'000);
        QTest::newRow("relief without fallback: primary alone") << StagePolicy::relief(Provider::Gemini, std::nullopt) << qint64(60'000);
        StagePolicy custom = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        custom.primaryTimeout = 20s;
        custom.fallbackTimeout = 45s;
        QTest::newRow("custom timeouts") << custom << qint64(65'000);
        custom.totalBudget = 30s;
        QTest::newRow("explicit budget wins") << custom << qint64(30'000);
        QTest::newRow("rounds: 2 × 60 + 4 s pause") << StagePolicy::sameProviderRounds(Provider::Gemini) << qint64(124'000);
        QTest::newRow("image: 3 × 90 + 2 × 8 s longest backoff") << StagePolicy::imageStage(Provider::Gemini) << qint64(286'000);
        QTest::newRow("image: 1 retry of 20 s") << StagePolicy::imageStage(Provider::Gemini, 20s, 1) << qint64(48'000);
    }

    void policyBudgets()
    {
        QFETCH(StagePolicy, policy);
        QFETCH(qint64, budgetMs);
        QCOMPARE(policy.effectiveBudget().count(), budgetMs);
    }

    void presetsAreData()
    {
        const StagePolicy preset = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        QCOMPARE(preset.fallbackOn.names(),
                 (QStringList { QStringLiteral("TIMEOUT"), QStringLiteral("RATE_LIMITED"), QStringLiteral("QUOTA_EXHAUSTED"),
                                QStringLiteral("OUTPUT_TRUNCATED"), QStringLiteral("OUTPUT_INVALID"), QStringLiteral("NETWORK"),
                                QStringLiteral("TRANSIENT_SERVER") }));
        QCOMPARE(preset.rounds, 1);
        // One struct for the configured and the running policy: a changed preset re-applies its routing
        // and keeps the configured limits.
        StagePolicy configured = preset;
        configured.primaryTimeout = 7s;
        configured.totalBudget = 20s;
        configured.preset = QStringLiteral("capacity");
        const std::optional<StagePolicy> routed = configured.routed();
        QVERIFY(routed);
        QCOMPARE(routed->fallbackOn.names(), QStringList { QStringLiteral("TRANSIENT_SERVER") });
        QVERIFY(routed->fallbackNeedsCapacityMarker);
        QCOMPARE(routed->primaryTimeout, 7s);
        QCOMPARE(routed->totalBudget, std::optional<std::chrono::milliseconds>(20s));
        configured.preset = QStringLiteral("no-such-preset");
        QVERIFY(!configured.routed());
        const StagePolicy capacity = StagePolicy::capacity(Provider::Gemini, Provider::OpenAI);
        QCOMPARE(capacity.fallbackOn.names(), QStringList { QStringLiteral("TRANSIENT_SERVER") });
        QVERIFY(capacity.fallbackNeedsCapacityMarker);
        QVERIFY(capacity.fallbackNeedsDistinctModel);
        const StagePolicy rounds = StagePolicy::sameProviderRounds(Provider::Anthropic);
        QVERIFY(!rounds.fallback);
        QCOMPARE(rounds.rounds, 2);
        QCOMPARE(rounds.roundPause, std::chrono::milliseconds(4s));
        QVERIFY(!StagePolicy::fromPreset(u"aggressive", Provider::Gemini, std::nullopt));
    }

    void manualClockFiresInOrder()
    {
        ManualClock clock;
        QStringList fired;
        auto a = clock.arm(clock.now() + 2s, [&] { fired << QStringLiteral("a"); });
        auto b = clock.arm(clock.now() + 1s, [&] { fired << QStringLiteral("b"); });
        auto c = clock.arm(clock.now() + 1s, [&] { fired << QStringLiteral("c"); });
        auto d = clock.arm(clock.now() + 3s, [&] { fired << QStringLiteral("d"); });
        d.reset(); // cancelled
        clock.advance(10s);
        QCOMPARE(fired, (QStringList { QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("a") }));
        QCOMPARE(clock.pendingTimers(), std::size_t(0));
    }

    // docs/contract.md 4.8: at one instant every deadline fires before any work, whatever the order armed.
    void manualClockServesDeadlinesFirst()
    {
        ManualClock clock;
        QStringList fired;
        const auto at = clock.now() + 1s;
        auto w1 = clock.arm(at, [&] { fired << QStringLiteral("work1"); });
        auto d1 = clock.armDeadline(at, [&] { fired << QStringLiteral("deadline1"); });
        auto w2 = clock.arm(clock.now() + 500ms, [&] { fired << QStringLiteral("earlier work"); });
        auto d2 = clock.armDeadline(at, [&] { fired << QStringLiteral("deadline2"); });
        clock.advance(2s);
        QCOMPARE(fired,
                 (QStringList { QStringLiteral("earlier work"), QStringLiteral("deadline1"), QStringLiteral("deadline2"),
                                QStringLiteral("work1") }));
    }

    // The same on the real clock's per-thread queue: work that is due and was armed first still waits for
    // every due deadline, including one that fell due while earlier work ran.
    void steadyClockServesDeadlinesFirst()
    {
        SteadyClock &clock = SteadyClock::instance();
        QStringList fired;
        const auto at = clock.now() + 20ms;
        std::unique_ptr<Timer> late;
        auto w1 = clock.arm(at, [&] {
            fired << QStringLiteral("work1");
            // While this runs, another deadline falls due: it goes before work2.
            late = clock.armDeadline(clock.now(), [&] { fired << QStringLiteral("deadline during work"); });
        });
        auto w2 = clock.arm(at, [&] { fired << QStringLiteral("work2"); });
        auto d1 = clock.armDeadline(at, [&] { fired << QStringLiteral("deadline1"); });
        auto cancelled = clock.armDeadline(at, [&] { fired << QStringLiteral("cancelled"); });
        auto d2 = clock.armDeadline(at + 1ms, [&] { fired << QStringLiteral("deadline2"); });
        cancelled.reset();
        QTRY_COMPARE_WITH_TIMEOUT(fired.size(), 5, 5000);
        // work1 was armed first, yet the deadline due with it runs first. deadline2 (1 ms later) may
        // already be due too when the sweep starts on a busy machine, so it may come before or after work1;
        // a deadline that fell due while work1 ran never waits behind work2.
        QCOMPARE(fired.first(), QStringLiteral("deadline1"));
        const qsizetype work1 = fired.indexOf(QStringLiteral("work1"));
        const qsizetype work2 = fired.indexOf(QStringLiteral("work2"));
        QVERIFY(work1 < work2);
        QVERIFY(fired.indexOf(QStringLiteral("deadline2")) > 0);
        QVERIFY(fired.indexOf(QStringLiteral("deadline during work")) < work2);
        QVERIFY(!fired.contains(QStringLiteral("cancelled")));
    }

    // It fires on time to well under a millisecond (a QTimer counts whole milliseconds, ~1 ms late on
    // average); checked loosely here, measured by bench_engine.
    void steadyClockNeverFiresEarly()
    {
        SteadyClock &clock = SteadyClock::instance();
        const auto at = clock.now() + 3ms + 300us;
        std::optional<Clock::time_point> firedAt;
        auto t = clock.armDeadline(at, [&] { firedAt = clock.now(); });
        QTRY_VERIFY_WITH_TIMEOUT(firedAt.has_value(), 5000);
        QVERIFY(*firedAt >= at);
    }
};

QTEST_GUILESS_MAIN(tst_StageBudget)
#include "tst_stagebudget.moc"
