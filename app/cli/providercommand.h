// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli provider list|drain|restore --engine URL`: a running engine's breakers and drains
// (docs/api.md, "Providers"). Drains live in an engine, so there is no embedded form.
int runProvider(const QStringList &arguments);

} // namespace bullpen::cli
