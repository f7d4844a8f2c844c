// SPDX-License-Identifier: MIT
#pragma once
// What a stage run holds, each let go of by its own holder: the admission slot of the attempt it runs,
// its place in the admission queue, and a HALF_OPEN breaker's one trial per role. The place in the queue
// belongs to the run's Queued step and goes with it (engine/stageservice.cpp); the slot and the trials
// outlive any one step (a slot is kept across rounds, a trial from its gate to its attempt's record) and
// are the run's RunHolds. A run that ends, by whichever path, leaves its step and then lets go of these
// in one call (StageService::finishRun); a run destroyed without ending lets go on destruction: nothing
// is undone by hand, so nothing leaks (a trial left open would keep its breaker HALF_OPEN with no one to
// close it).

#include "clock.h"
#include "contract/enums.h"
#include "engine/breakerboard.h"

#include <optional>

namespace bullpen {

class Admission;

// An admission slot for one provider, already granted; released once.
class HeldSlot final
{
public:
    HeldSlot() = default;
    HeldSlot(const HeldSlot &) = delete;
    HeldSlot &operator=(const HeldSlot &) = delete;
    ~HeldSlot() { release(); }

    // `admission` may be null (no limits): the slot is then only remembered.
    void hold(Admission *admission, Provider provider);
    void release();
    explicit operator bool() const { return m_provider.has_value(); }
    Provider provider() const { return *m_provider; }

private:
    Admission *m_admission = nullptr;
    std::optional<Provider> m_provider;
};

// A place in the admission queue; withdrawn unless it was granted (spent) first.
class HeldTicket final
{
public:
    HeldTicket() = default;
    HeldTicket(const HeldTicket &) = delete;
    HeldTicket &operator=(const HeldTicket &) = delete;
    ~HeldTicket() { withdraw(); }

    void hold(Admission *admission, quint64 ticket);
    // Granted: the queue has handed the slot over, there is nothing left to withdraw.
    void spend() { m_ticket = 0; }
    void withdraw();
    bool waiting() const { return m_ticket != 0; }

private:
    Admission *m_admission = nullptr;
    quint64 m_ticket = 0;
};

// A HALF_OPEN breaker's one trial, taken for the role's next attempt. The attempt's record carries it
// back (spend); an attempt that never ran gives it back as ignored.
class HeldTrial final
{
public:
    HeldTrial() = default;
    HeldTrial(const HeldTrial &) = delete;
    HeldTrial &operator=(const HeldTrial &) = delete;
    ~HeldTrial() { giveBack(); }

    // `isTrial`: what the breaker's gate said; false holds nothing.
    void take(BreakerBoard *breakers, const Clock &clock, const BreakerKey &key, bool isTrial);
    // The attempt ran: true when it was the trial (its record tells the breaker), and nothing is held after.
    bool spend();
    void giveBack();

private:
    BreakerBoard *m_breakers = nullptr;
    const Clock *m_clock = nullptr;
    std::optional<BreakerKey> m_key;
};

// What a run holds across its steps. Declared so that destruction lets go in the order finishRun does.
struct RunHolds
{
    HeldTrial trial[2]; // [0] primary, [1] fallback
    HeldSlot slot;

    HeldTrial &trialOf(Role role) { return trial[role == Role::Primary ? 0 : 1]; }
    // The slot, then any trial an attempt never ran.
    void releaseAll();
};

} // namespace bullpen
