// SPDX-License-Identifier: MIT
#pragma once

#include "engine/stageresult.h"

#include <QList>
#include <QString>

#include <utility>

namespace bullpen {

// A generation's cost (docs/contract.md §16): the sum of all its attempts, failed ones included where
// they were billed, per currency; what its fallback attempts added; and how many cost an unknown amount.
struct GenerationCost
{
    QList<std::pair<QString, double>> total; // per currency
    QList<std::pair<QString, double>> fallbackAdded;
    int unknown = 0; // attempts whose cost nobody reported

    bool known() const { return !total.isEmpty(); }
    static GenerationCost of(const QList<AttemptRecord> &attempts);
    // "0.0042 USD", "0.0042 USD + 0.0100 EUR"; "—" when none is known. Amounts under 1 with 4 decimals.
    static QString text(const QList<std::pair<QString, double>> &amounts);
};

} // namespace bullpen
