// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli audit [--engine URL | --data-dir DIR] [--action A] [--limit N] [--json]`: the audit trail,
// newest first (docs/api.md, GET /v1/audit), from a running engine or read from the store itself. What
// the rows hold (reasons, token names) is printed with its control characters as spaces.
int runAudit(const QStringList &arguments);

} // namespace bullpen::cli
