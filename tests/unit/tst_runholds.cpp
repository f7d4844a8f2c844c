// SPDX-License-Identifier: MIT
// What a stage run holds (engine/runholds.h), each let go of by its own holder: an admission slot and a
// place in the queue go back when the holder lets go or is destroyed, a granted (spent) ticket is not
// withdrawn again, and a trial is carried once. StageService's flows over them: tst_generationservice
// (queue, slots) and tst_breakers (trials).
#include "engine/admission.h"
#include "engine/manualclock.h"
#include "engine/runholds.h"

#include <QTest>

using namespace bullpen;

class tst_RunHolds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void slotGoesBackWhenTheHolderEnds()
    {
        ManualClock clock;
        Admission admission(clock);
        QVERIFY(admission.tryAcquire(Provider::Gemini));
        {
            HeldSlot slot;
            slot.hold(&admission, Provider::Gemini);
            QVERIFY(bool(slot));
            QCOMPARE(slot.provider(), Provider::Gemini);
            QCOMPARE(admission.inFlight(Provider::Gemini), 1);
        }
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
    }

    // Holding another slot gives the first back (the fallback's slot replaces the primary's).
    void holdingAnotherSlotReleasesTheFirst()
    {
        ManualClock clock;
        Admission admission(clock);
        QVERIFY(admission.tryAcquire(Provider::Gemini));
        QVERIFY(admission.tryAcquire(Provider::Qwen));
        HeldSlot slot;
        slot.hold(&admission, Provider::Gemini);
        slot.hold(&admission, Provider::Qwen);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
        QCOMPARE(admission.inFlight(Provider::Qwen), 1);
        slot.release();
        slot.release(); // once only
        QCOMPARE(admission.inFlight(Provider::Qwen), 0);
        QVERIFY(!slot);
    }

    void withoutLimitsTheSlotIsOnlyRemembered()
    {
        HeldSlot slot;
        slot.hold(nullptr, Provider::Qwen);
        QVERIFY(bool(slot));
        slot.release();
        QVERIFY(!slot);
    }

    void waitingTicketIsWithdrawnWhenTheHolderEnds()
    {
        ManualClock clock;
        Admission admission(clock);
        admission.setLimits({ 1, 8 });
        QVERIFY(admission.tryAcquire(Provider::Gemini));
        bool admitted = false;
        {
            HeldTicket ticket;
            ticket.hold(&admission, admission.enqueue(Provider::Gemini, [&admitted] { admitted = true; }));
            QVERIFY(ticket.waiting());
            QCOMPARE(admission.waiting(Provider::Gemini), 1);
        }
        QCOMPARE(admission.waiting(Provider::Gemini), 0);
        admission.release(Provider::Gemini);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0); // nobody was given the slot
        QVERIFY(!admitted);
    }

    // Granted: the slot is the run's now, the ticket has nothing left to withdraw.
    void spentTicketIsNotWithdrawn()
    {
        ManualClock clock;
        Admission admission(clock);
        admission.setLimits({ 1, 8 });
        QVERIFY(admission.tryAcquire(Provider::Gemini));
        HeldTicket ticket;
        const quint64 id = admission.enqueue(Provider::Gemini, [] {});
        ticket.hold(&admission, id);
        ticket.spend();
        QVERIFY(!ticket.waiting());
        ticket.withdraw();
        QCOMPARE(admission.waiting(Provider::Gemini), 1); // still in line: the holder let go of nothing
        admission.withdraw(id);
    }

    // The place in the queue is the Queued step's (tst_generationservice: cancelWhileQueuedNeverStarts);
    // what spans the steps, the slot and a trial no attempt spent, goes back in one call.
    void releaseAllLetsGoOfTheSlotAndTheTrials()
    {
        ManualClock clock;
        Admission admission(clock);
        admission.setLimits({ 1, 8 });
        QVERIFY(admission.tryAcquire(Provider::Gemini));
        // A HALF_OPEN breaker whose one trial the run took at its gate.
        BreakerBoard breakers(BreakerSettings {});
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            breakers.record(key, BreakerCount::Blamed, false, clock.now(), FailureKind::TIMEOUT);
        QCOMPARE(breakers.admit(key, clock.now()).verdict, BreakerGate::Skip); // open
        clock.advance(std::chrono::minutes(10)); // past any cooldown
        QCOMPARE(breakers.admit(key, clock.now()).verdict, BreakerGate::Trial);
        QCOMPARE(breakers.admit(key, clock.now()).verdict, BreakerGate::Skip); // its one trial is out
        RunHolds holds;
        holds.slot.hold(&admission, Provider::Gemini);
        holds.trialOf(Role::Primary).take(&breakers, clock, key, true);
        holds.releaseAll();
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
        QVERIFY(!holds.trialOf(Role::Primary).spend());
        QCOMPARE(breakers.admit(key, clock.now()).verdict, BreakerGate::Trial); // given back: the next request tries
    }

    // The attempt that ran carries the trial once; a gate that handed out no trial holds none.
    void trialIsCarriedOnce()
    {
        ManualClock clock;
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        RunHolds holds;
        holds.trialOf(Role::Primary).take(nullptr, clock, key, true);
        QVERIFY(holds.trialOf(Role::Primary).spend());
        QVERIFY(!holds.trialOf(Role::Primary).spend());
        holds.trialOf(Role::Fallback).take(nullptr, clock, key, false);
        QVERIFY(!holds.trialOf(Role::Fallback).spend());
    }
};

QTEST_GUILESS_MAIN(tst_RunHolds)
#include "tst_runholds.moc"
