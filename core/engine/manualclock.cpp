// SPDX-License-Identifier: MIT
#include "manualclock.h"

namespace bullpen {

class ManualTimer final : public Timer
{
public:
    ManualTimer(ManualClock *clock, ManualClock::Key key)
        : m_clock(clock)
        , m_key(key)
    {
    }
    ~ManualTimer() override { m_clock->cancel(m_key); }

private:
    ManualClock *m_clock;
    ManualClock::Key m_key;
};

// Starts at an arbitrary non-zero point so that code which mistakes time_point{} for "now" shows up.
ManualClock::ManualClock()
    : m_origin(std::chrono::steady_clock::time_point(std::chrono::hours(1000)))
    , m_now(m_origin)
{
}

ManualClock::~ManualClock() = default;

std::unique_ptr<Timer> ManualClock::schedule(time_point at, std::function<void()> callback, TimerUrgency urgency)
{
    const Key key { at, urgency == TimerUrgency::Deadline ? 0 : 1, m_nextSequence++ };
    m_timers.emplace(key, std::move(callback));
    return std::make_unique<ManualTimer>(this, key);
}

void ManualClock::cancel(const Key &key)
{
    m_timers.erase(key);
}

void ManualClock::advance(duration by)
{
    advanceTo(m_now + by);
}

void ManualClock::advanceTo(time_point to)
{
    while (!m_timers.empty() && std::get<0>(m_timers.begin()->first) <= to) {
        auto node = m_timers.extract(m_timers.begin());
        if (std::get<0>(node.key()) > m_now)
            m_now = std::get<0>(node.key());
        node.mapped()(); // may arm or cancel other timers
    }
    if (to > m_now)
        m_now = to;
}

} // namespace bullpen
