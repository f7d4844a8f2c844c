// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"

#include <QtGlobal>

#include <map>
#include <tuple>
#include <utility>

namespace bullpen {

// A clock that moves only when told to. advance() fires due timers in time order, setting now() to each
// timer's time as it fires; at one instant every deadline timer fires before any work timer (as in
// SteadyClock's queue), ties within each in the order they were armed. For tests and benchmarks of pure
// engine logic: no sleeping, exact times in event logs.
class ManualClock final : public Clock
{
public:
    ManualClock();
    ~ManualClock() override;

    time_point now() const override { return m_now; }

    void advance(duration by);
    void advanceTo(time_point to);
    // Time since the clock was made, for readable logs.
    duration elapsed() const { return m_now - m_origin; }
    std::size_t pendingTimers() const { return m_timers.size(); }

protected:
    [[nodiscard]] std::unique_ptr<Timer> schedule(time_point at, std::function<void()> callback, TimerUrgency urgency) override;

private:
    friend class ManualTimer;
    // (time, work before deadline?, sequence): deadlines sort first at one instant.
    using Key = std::tuple<time_point, int, quint64>;
    void cancel(const Key &key);

    time_point m_origin;
    time_point m_now;
    quint64 m_nextSequence = 0;
    std::map<Key, std::function<void()>> m_timers;
};

} // namespace bullpen
