// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli spend`: what users' attempts cost, by provider, stage and role, and what fallbacks added
// (docs/contract.md §16).
int runSpend(const QStringList &arguments);
// `bullpen-cli tune`: the recorded attempts replayed under candidate timeouts (docs/contract.md §17).
int runTune(const QStringList &arguments);

} // namespace bullpen::cli
