// SPDX-License-Identifier: MIT
// The same engine on the real steady clock and Qt::PreciseTimer, with short budgets: a deadline is
// never early, the hanging primary is cancelled, and the fallback request follows the cancel at once.
// Bounds here are generous on purpose: precision figures belong to the benchmarks, not to tests.
#include "engine/stageservice.h"
#include "scriptedgenerator.h"

#include <QSignalSpy>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono;
using namespace std::chrono_literals;

class tst_RealtimeDeadline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hangingPrimaryIsCancelledAtItsDeadline()
    {
        SteadyClock &clock = SteadyClock::instance();
        QStringList calls;
        ScriptedGenerator gemini(clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), &calls);
        ScriptedGenerator qwen(clock, Provider::Qwen, QStringLiteral("qwen-plus"), &calls);
        gemini.script({ Step::hang() });
        qwen.script({ Step::ok(20ms) });
        StageService service(clock);
        service.addGenerator(&gemini);
        service.addGenerator(&qwen);
        QSignalSpy finished(&service, &StageService::finished);

        StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        policy.primaryTimeout = 150ms;
        policy.fallbackTimeout = 2s;
        service.start(StageRequest::forStory(QStringLiteral("story")), policy);
        QVERIFY(finished.wait(10'000));

        const StageResult r = finished.first().first().value<StageResult>();
        QCOMPARE(r.state, FinalState::Succeeded);
        QCOMPARE(r.attempts.size(), 2);
        const AttemptRecord &primary = r.attempts.at(0);
        QCOMPARE(primary.failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(primary.abortedBy, AbortReason::Deadline);
        QCOMPARE(gemini.cancelHandlerRuns(), 1);
        // Never early; and not absurdly late even on a loaded 2-core machine.
        QVERIFY2(primary.duration >= 150ms, qPrintable(QString::number(primary.duration.count())));
        QVERIFY2(primary.duration < 1500ms, qPrintable(QString::number(primary.duration.count())));
        // The fallback request went out after the cancel handlers, in the same turn of the event loop.
        QVERIFY(primary.cancelledAt);
        const auto handoff = r.attempts.at(1).startedAt - *primary.cancelledAt;
        QVERIFY(handoff >= 0us);
        QVERIFY2(handoff < 500ms, qPrintable(QString::number(handoff.count())));
        QVERIFY(calls.indexOf(QStringLiteral("gemini: cancel handler ran (deadline)"))
                < calls.indexOf(QStringLiteral("qwen: request sent")));
    }

    // A timer armed for a time already past (a run's first step is armed for now) runs from the event
    // loop's posted events, never inside arm(); one destroyed before then never runs; due deadlines go
    // before due work; and the queue still fires a later timer, never early, afterwards.
    void timersAlreadyDueRunFromTheLoopInOrder()
    {
        SteadyClock &clock = SteadyClock::instance();
        QStringList ran;
        auto work = clock.arm(clock.now() - 1ms, [&] { ran << QStringLiteral("work"); });
        auto deadline = clock.armDeadline(clock.now(), [&] { ran << QStringLiteral("deadline"); });
        auto dropped = clock.arm(clock.now(), [&] { ran << QStringLiteral("dropped"); });
        QVERIFY(ran.isEmpty()); // not inside arm()
        dropped.reset();
        // A posted sweep: posted events alone run them, no timer has to fire (a timerfd set to a time
        // already past costs tens of microseconds inside the system call under a hypervisor).
        QCoreApplication::sendPostedEvents();
        QCOMPARE(ran, (QStringList { QStringLiteral("deadline"), QStringLiteral("work") }));

        const auto at = clock.now() + 30ms;
        Clock::time_point firedAt {};
        auto later = clock.arm(at, [&] { firedAt = clock.now(); });
        QTRY_VERIFY_WITH_TIMEOUT(firedAt != Clock::time_point {}, 5'000);
        QVERIFY(firedAt >= at); // never early
        QCoreApplication::processEvents();
        QCOMPARE(ran.size(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_RealtimeDeadline)
#include "tst_realtimedeadline.moc"
