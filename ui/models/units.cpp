// SPDX-License-Identifier: MIT
#include "units.h"

#include "contract/durationtext.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bullpen::units {

QString duration(double ms)
{
    return durationText(ms);
}

QString onAxis(double ms, double maxMs, double stepMs)
{
    const QLocale l;
    if (maxMs < 1000)
        return QCoreApplication::translate("bullpen::units", "%1 ms").arg(l.toString(std::round(ms), 'f', 0));
    if (maxMs < 120'000) {
        const int decimals = stepMs >= 1000 ? 0 : stepMs >= 100 ? 1 : 2;
        return QCoreApplication::translate("bullpen::units", "%1 s").arg(l.toString(ms / 1000.0, 'f', decimals));
    }
    const int decimals = stepMs >= 60'000 ? 0 : 1;
    return QCoreApplication::translate("bullpen::units", "%1 min").arg(l.toString(ms / 60'000.0, 'f', decimals));
}

QString field(std::chrono::milliseconds d)
{
    const qint64 ms = d.count();
    if (ms <= 0)
        return {};
    if (ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    if (ms >= 1000 && ms % 100 == 0)
        return QStringLiteral("%1.%2 s").arg(ms / 1000).arg((ms % 1000) / 100);
    return QStringLiteral("%1 ms").arg(ms);
}

} // namespace bullpen::units
