// SPDX-License-Identifier: MIT
#pragma once

#include "engine/clock.h"

#include <QHash>
#include <QString>

#include <chrono>
#include <optional>

namespace bullpen {

// Each API token's request rate (docs/api.md, "Limits"): a bucket per token name, refilled at `rate`
// requests per second up to `burst`. Time is the monotonic Clock's: a step of the wall clock (NTP, a
// resumed VM) neither refuses nor frees a request.
class RateLimiter final
{
public:
    RateLimiter(const Clock &clock, double rate, double burst);

    // Takes one request from `name`'s bucket: nothing when it may go, else how long until it may
    // (whole seconds, at least one: a Retry-After).
    std::optional<std::chrono::seconds> take(const QString &name);

private:
    struct Bucket
    {
        double tokens = 0;
        Clock::time_point at;
    };
    const Clock &m_clock;
    double m_rate;
    double m_burst;
    QHash<QString, Bucket> m_buckets;
};

} // namespace bullpen
