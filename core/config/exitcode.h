// SPDX-License-Identifier: MIT
#pragma once

namespace bullpen {

// How every Bullpen program ends (docs/cli.md, "Exit codes"): one meaning per number, in every command
// of bullpen-cli and in bullpen, bullpen-engine and bullpen-sim.
enum ExitCode : int {
    kExitOk = 0,
    kExitFailed = 1, // the work ran and did not succeed: a generation, a comparison side, a soak invariant
    kExitUsage = 2, // usage, configuration or a refused request: nothing was done; the message says what to change
    kExitCancelled = 3, // SIGINT or SIGTERM cancelled what was running
    kExitNotDurable = 4, // the result was produced, but its records did not all commit
    kExitUnreachable = 5, // the engine could not be reached, or failed (a 5xx)
};

} // namespace bullpen
