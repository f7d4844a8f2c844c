// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace bullpen::cli {

// `bullpen-cli generate`: one storyboard generation, printed as text or one JSON object.
// Exit codes: 0 succeeded, 1 failed, 2 usage or configuration error, 3 cancelled.
int runGenerate(const QStringList &arguments);

} // namespace bullpen::cli
