// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli replay GEN_ID`: a stored generation played again on the built-in simulator, its
// recorded and replayed timelines and a verdict (docs/contract.md §14, docs/cli.md).
int runReplay(const QStringList &arguments);

} // namespace bullpen::cli
