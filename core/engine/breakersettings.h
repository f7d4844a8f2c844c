// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>

namespace bullpen {

// docs/contract.md §13: what the engine learns across requests (settings `breaker`, `breaker_window`,
// `breaker_min_attempts`, `breaker_failure_ratio`, `breaker_cooldown`; config/settingstable.cpp).
// `enabled = false` is the strict per-request behaviour of §4.1: nothing is ever skipped (drains still are).
struct BreakerSettings
{
    bool enabled = true;
    std::chrono::milliseconds window { 60'000 };
    int minAttempts = 5;
    double failureRatio = 0.5;
    std::chrono::milliseconds cooldown { 30'000 };
    std::chrono::milliseconds maxCooldown { 300'000 }; // the doubling stops here
    // Each OPEN lasts its cooldown less up to this fraction of it, drawn at random, so that engines
    // sharing a store and opened by the same outage do not all half-open at the same instant; never
    // longer than the cooldown (at most maxCooldown, as docs/contract.md §13 says).
    double cooldownJitter = 0.1;
    friend bool operator==(const BreakerSettings &, const BreakerSettings &) = default;
};

} // namespace bullpen
