// SPDX-License-Identifier: MIT
#pragma once

#include "contract/provider.h"

#include <QList>
#include <QString>

#include <functional>

class QComboBox;

namespace bullpen {

// A picker of providers (a filter, a drain's target, a primary or fallback): after its first `fixed`
// items (an "any" or "none" choice, kept as they are) one item per provider, `text` shown and the id as
// data. Filled again when the engine's providers change (an attached engine's configuration arrives
// after the window is shown): the chosen provider stays chosen while it is still listed, and nothing is
// emitted for the refill itself.
void fillProviderPicker(QComboBox *picker, const QList<Provider> &providers, int fixed, const std::function<QString(Provider)> &text);

} // namespace bullpen
