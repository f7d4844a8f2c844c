// SPDX-License-Identifier: MIT
#include "generationcost.h"

#include <QStringList>

#include <map>

namespace bullpen {

GenerationCost GenerationCost::of(const QList<AttemptRecord> &attempts)
{
    std::map<QString, double> total, added;
    GenerationCost c;
    for (const AttemptRecord &a : attempts) {
        if (!a.cost) {
            ++c.unknown;
            continue;
        }
        total[a.currency] += *a.cost;
        if (a.role == Role::Fallback)
            added[a.currency] += *a.cost;
    }
    c.total = { total.begin(), total.end() };
    c.fallbackAdded = { added.begin(), added.end() };
    return c;
}

QString GenerationCost::text(const QList<std::pair<QString, double>> &amounts)
{
    QStringList parts;
    for (const auto &[currency, amount] : amounts)
        parts << QStringLiteral("%1 %2").arg(amount, 0, 'f', amount < 1 ? 4 : 2).arg(currency);
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(" + "));
}

} // namespace bullpen
