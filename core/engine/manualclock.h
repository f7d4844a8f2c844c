// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"

#include <QtGlobal>

#include <map>
#include <utility>

namespace bullpen {

// A clock that moves only when told to. advance() fires due timers in deadline order (ties in the order
// they were armed), setting now() to each timer's deadline as it fires. For tests and benchmarks of
// pure engine logic: no sleeping, exact times in event logs.
class ManualClock final : public Clock
{
public:
    ManualClock();
    ~ManualClock() override;

    time_point now() const override { return m_now; }
    [[nodiscard]] std::unique_ptr<Timer> arm(time_point at, std::function<void()> callback) override;

    void advance(duration by);
    void advanceTo(time_point to);
    // Time since the clock was made, for readable logs.
    duration elapsed() const { return m_now - m_origin; }
    std::size_t pendingTimers() const { return m_timers.size(); }

private:
    friend class ManualTimer;
    void cancel(std::pair<time_point, quint64> key);

    time_point m_origin;
    time_point m_now;
    quint64 m_nextSequence = 0;
    std::map<std::pair<time_point, quint64>, std::function<void()>> m_timers;
};

} // namespace bullpen
