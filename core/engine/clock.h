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

// The engine's only source of time: monotonic, never wall-clock (SPEC 4.2). Injected so that tests can
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
    [[nodiscard]] virtual std::unique_ptr<Timer> arm(time_point at, std::function<void()> callback) = 0;
};

// std::chrono::steady_clock plus Qt::PreciseTimer single shots (a coarse timer may fire 5 % late).
class SteadyClock final : public Clock
{
public:
    time_point now() const override;
    [[nodiscard]] std::unique_ptr<Timer> arm(time_point at, std::function<void()> callback) override;

    static SteadyClock &instance();
};

} // namespace bullpen
