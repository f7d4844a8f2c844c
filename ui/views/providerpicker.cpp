// SPDX-License-Identifier: MIT
#include "providerpicker.h"

#include <QComboBox>
#include <QSignalBlocker>

namespace bullpen {

void fillProviderPicker(QComboBox *picker, const QList<Provider> &providers, int fixed, const std::function<QString(Provider)> &text)
{
    const QSignalBlocker quiet(picker);
    const QVariant chosen = picker->currentData();
    while (picker->count() > fixed)
        picker->removeItem(picker->count() - 1);
    for (const Provider p : providers)
        picker->addItem(text(p), toId(p));
    const int again = picker->findData(chosen);
    picker->setCurrentIndex(again >= 0 ? again : (picker->count() > 0 ? 0 : -1));
}

} // namespace bullpen
