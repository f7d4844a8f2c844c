// SPDX-License-Identifier: MIT
#include "stagebudget.h"

#include <algorithm>

namespace bullpen {

StageBudget::StageBudget(const Clock &clock, std::chrono::milliseconds total)
    : m_clock(&clock)
    , m_start(clock.now())
    , m_total(std::max(total, std::chrono::milliseconds::zero()))
{
}

Clock::duration StageBudget::elapsed() const
{
    return m_clock->now() - m_start;
}

Clock::duration StageBudget::remaining() const
{
    return std::max(end() - m_clock->now(), Clock::duration::zero());
}

Clock::time_point StageBudget::attemptDeadline(std::chrono::milliseconds ownTimeout, Clock::time_point attemptStart) const
{
    return std::min(attemptStart + ownTimeout, end());
}

} // namespace bullpen
