// SPDX-License-Identifier: MIT
#include "ratelimiter.h"

#include <algorithm>
#include <cmath>

namespace bullpen {

using namespace std::chrono;

RateLimiter::RateLimiter(const Clock &clock, double rate, double burst)
    : m_clock(clock)
    , m_rate(rate)
    , m_burst(burst)
{
}

std::optional<seconds> RateLimiter::take(const QString &name)
{
    const Clock::time_point now = m_clock.now();
    auto it = m_buckets.find(name);
    if (it == m_buckets.end())
        it = m_buckets.insert(name, Bucket { m_burst, now });
    Bucket &b = *it;
    const double elapsed = duration<double>(now - b.at).count();
    b.tokens = std::min(m_burst, b.tokens + elapsed * m_rate);
    b.at = now;
    if (b.tokens >= 1) {
        b.tokens -= 1;
        return std::nullopt;
    }
    return seconds(std::max(1, static_cast<int>(std::ceil((1 - b.tokens) / m_rate))));
}

} // namespace bullpen
