// SPDX-License-Identifier: MIT
#include "durationtext.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bullpen {

QString durationText(double ms)
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

} // namespace bullpen
