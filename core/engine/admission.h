// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"
#include "contract/enums.h"

#include <QObject>

#include <deque>
#include <functional>
#include <map>
#include <set>

namespace bullpen {

// Admission before the budget (docs/contract.md, "Admission"): at most `inFlight` attempts per provider
// at once, across every stage that shares this object. A generation that cannot start its first attempt
// waits here, in order, *before* its stage budget starts, so a queue never eats a budget; when its turn
// comes the slot is taken for it and `admitted` runs from the event loop. A queue that is full refuses
// at once: the caller says so instead of waiting without end.
//
// Fallback attempts and further rounds never wait here: their budget is already running, so they either
// take a free slot or are not started (the caller records why).
//
// One thread: the engine's. Counts are exact, never estimates.
class Admission final : public QObject
{
    Q_OBJECT
public:
    struct Limits
    {
        int inFlight = 256; // attempts on the wire per provider
        int queued = 4096; // generations waiting per provider before the next is refused
    };

    explicit Admission(Clock &clock, QObject *parent = nullptr);

    void setLimits(const Limits &limits);
    const Limits &limits() const { return m_limits; }

    // Takes a slot now, if one is free and nobody waits for this provider (newcomers never jump the queue).
    bool tryAcquire(Provider provider);
    // Takes a slot if one is free, even with a queue (an attempt whose budget already runs must not wait).
    bool tryAcquireNow(Provider provider);
    // Joins the queue. Returns a ticket (never 0), or 0 when the queue is full. `admitted` runs later, from
    // the event loop (through the Clock, so tests on a ManualClock stay exact), with the slot already
    // taken for the caller.
    quint64 enqueue(Provider provider, std::function<void()> admitted);
    // Leaves the queue. If the slot was already taken for this ticket but `admitted` has not run yet, the
    // slot is given back and `admitted` never runs.
    void withdraw(quint64 ticket);
    // Gives a slot back; the longest waiter, if any, gets it.
    void release(Provider provider);

    int inFlight(Provider provider) const;
    int waiting(Provider provider) const;

Q_SIGNALS:
    // Every change of a provider's counts, for the console's gauges.
    void changed(bullpen::Provider provider, int inFlight, int waiting);

private:
    struct Waiter
    {
        quint64 ticket = 0;
        std::function<void()> admitted;
    };
    struct Lane
    {
        int inFlight = 0;
        std::deque<Waiter> queue;
    };
    void grantFromQueue(Provider provider);

    Limits m_limits;
    std::map<Provider, Lane> m_lanes;
    struct Grant
    {
        Provider provider;
        std::unique_ptr<Timer> call; // runs `admitted`; destroyed on withdraw
    };
    Clock &m_clock;
    std::map<quint64, Grant> m_granted; // slot taken, `admitted` not run yet
    quint64 m_nextTicket = 0;
};

} // namespace bullpen
