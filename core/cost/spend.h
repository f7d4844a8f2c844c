// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace bullpen {

// What one provider, in one role, cost for one stage in a time range, in one currency (docs/contract.md
// §16). Attempts whose cost is unknown (no tokens reported, or no price) are counted, never priced at 0.
struct SpendRow
{
    QString provider;
    Stage stage = Stage::Storyboard;
    Role role = Role::Primary;
    QString currency; // empty: the row of attempts whose cost is unknown
    double cost = 0;
    qint64 attempts = 0;
    qint64 unknown = 0; // of `attempts`: cost unknown

    friend bool operator==(const SpendRow &, const SpendRow &) = default;
};

// The spend of a time range: its rows, and what they add up to.
struct Spend
{
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QList<SpendRow> rows;

    // currency → total, and the part of it that fallback attempts added (they ran only because the
    // primary failed: without the fallback they would not have been paid for).
    QList<std::pair<QString, double>> totals(bool fallbackOnly = false) const;
    qint64 unknownAttempts() const;
    // The currencies the known costs of `stage` are in, sorted: more than one, and a sum of those costs
    // adds up amounts in different currencies (the Tune panel says so on its cost axis).
    QStringList currencies(Stage stage) const;

    // [fromMs, toMs) cut into `slices` equal slices (the last one shorter): each slice's length.
    static qint64 sliceMs(qint64 fromMs, qint64 toMs, int slices);
    // The spend of [fromMs, toMs) from the spends of its slices: rows of one provider, stage, role and
    // currency added up, in that order.
    static Spend merged(qint64 fromMs, qint64 toMs, const QList<Spend> &slices);

    // GET /v1/stats/spend and `bullpen-cli spend --json`, both ways (docs/openapi.yaml, Spend).
    QJsonObject toJson() const;
    static Spend fromJson(const QJsonObject &json);
};

} // namespace bullpen
