// SPDX-License-Identifier: MIT
#include "units.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bullpen::units {

QString duration(double ms)
{
    const QLocale l;
    if (std::isnan(ms))
        return QStringLiteral("–");
    const bool negative = ms < 0;
    ms = std::abs(ms);
    QString text;
    if (std::round(ms) < 1000) {
        text = QCoreApplication::translate("bullpen::units", "%1 ms").arg(l.toString(std::round(ms), 'f', 0));
    } else if (std::round(ms / 100) < 600) {
        text = QCoreApplication::translate("bullpen::units", "%1 s").arg(l.toString(ms / 1000.0, 'f', 1));
    } else {
        const qint64 seconds = std::llround(ms / 1000.0);
        text = QCoreApplication::translate("bullpen::units", "%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    }
    return negative ? QStringLiteral("−") + text : text;
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
