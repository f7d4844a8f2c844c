// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"

#include <chrono>

namespace bullpen {

// One monotonic time budget for a whole stage, primary and fallback together (docs/contract.md §4.2). It starts
// when the stage is requested, so request building, receiving, parsing and validation count. The one
// wait that does not count is admission (Admission): a stage that waits for a slot restarts its budget
// when it gets one, before any attempt exists.
class StageBudget final
{
public:
    StageBudget(const Clock &clock, std::chrono::milliseconds total);

    // Starts the budget again from now (admission only: never once an attempt has started).
    void restart() { m_start = m_clock->now(); }

    Clock::time_point start() const { return m_start; }
    Clock::time_point end() const { return m_start + m_total; }
    std::chrono::milliseconds total() const { return m_total; }
    Clock::duration elapsed() const;
    Clock::duration remaining() const; // never negative
    bool exhausted() const { return remaining() <= Clock::duration::zero(); }

    // min(attempt start + own timeout, end of the budget).
    Clock::time_point attemptDeadline(std::chrono::milliseconds ownTimeout, Clock::time_point attemptStart) const;

private:
    const Clock *m_clock;
    Clock::time_point m_start;
    std::chrono::milliseconds m_total;
};

} // namespace bullpen
