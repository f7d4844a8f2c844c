// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli history`: generations from the store, newest first, ids and users masked.
int runHistory(const QStringList &arguments);
// `bullpen-cli export`: generations, attempts or events as JSON Lines or CSV, masked as on screen.
int runExport(const QStringList &arguments);
// `bullpen-cli purge`: removes what the retention no longer keeps (or --older-than), in small steps.
int runPurge(const QStringList &arguments);

} // namespace bullpen::cli
