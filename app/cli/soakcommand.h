// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli soak`: N generations against the simulator with a scenario mix, then a summary with
// throughput, latency percentiles per provider and role, the fallback rate, and one PASS/FAIL line per
// invariant of docs/contract.md §11. Exit 0 only when every invariant holds.
int runSoak(const QStringList &arguments);

} // namespace bullpen::cli
