// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli compare`: the console's Compare, headless (docs/contract.md §10). One story on two providers at once,
// each alone (no fallback), both recorded like any generation; prints both sides and their word diff.
// Exit codes: 0 both succeeded, 1 at least one side failed, 2 usage or configuration, 3 cancelled.
int runCompare(const QStringList &arguments);

} // namespace bullpen::cli
