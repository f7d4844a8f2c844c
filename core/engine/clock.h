// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace bullpen {

// A pending one-shot callback. Destroying it cancels the callback.
class Timer
{
public:
    virtual ~Timer() = default;
};

// What a timer is for. When several timers are due at once, every Deadline runs before any Work: an
// attempt's abort never waits behind the records, events and fallback starts that other aborts caused
// (docs/contract.md 4.8).
enum class TimerUrgency { Work, Deadline };

// The engine's only source of time: monotonic, never wall-clock (docs/contract.md §4.2). Injected so that tests can
// drive a ManualClock and never sleep.
class Clock
{
public:
    using time_point = std::chrono::steady_clock::time_point;
    using duration = std::chrono::steady_clock::duration;

    virtual ~Clock() = default;
    virtual time_point now() const = 0;

    // Calls `callback` once, at or after `at`, from the event loop of the calling thread; never from
    // inside arm() itself. Keep the returned Timer alive for as long as the callback may run.
    [[nodiscard]] std::unique_ptr<Timer> arm(time_point at, std::function<void()> callback)
    {
        return schedule(at, std::move(callback), TimerUrgency::Work);
    }
    // The same for an attempt's deadline: served ahead of every Work timer due at the same time.
    [[nodiscard]] std::unique_ptr<Timer> armDeadline(time_point at, std::function<void()> callback)
    {
        return schedule(at, std::move(callback), TimerUrgency::Deadline);
    }

protected:
    [[nodiscard]] virtual std::unique_ptr<Timer> schedule(time_point at, std::function<void()> callback, TimerUrgency urgency) = 0;
};

// std::chrono::steady_clock, with every timer of a thread kept in one ordered queue per thread served by
// one Linux timerfd with an absolute expiry, or a Qt::PreciseTimer where there is none (docs/contract.md
// §12.3; a coarse timer may fire 5 % late); a timer already due when armed is a sweep posted to the
// thread's event loop. A sweep runs every due deadline
// first, then due work one item at a time, checking for newly due deadlines before each; after about a
// millisecond of work it hands the thread back to its event loop (sockets, posted events) and
// continues on the next turn.
class SteadyClock final : public Clock
{
public:
    time_point now() const override;
    static SteadyClock &instance();

protected:
    [[nodiscard]] std::unique_ptr<Timer> schedule(time_point at, std::function<void()> callback, TimerUrgency urgency) override;
};

} // namespace bullpen
