// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli provider list|drain|restore`: list the providers an engine (--engine URL) or the local
// settings know (providerlist.h); drain or restore one in a running engine (docs/api.md, "Providers"),
// which has no embedded form.
int runProvider(const QStringList &arguments);

} // namespace bullpen::cli
