// SPDX-License-Identifier: MIT
// HistoryQueries' spend reads (docs/contract.md §16): the Spend panel's week and its slices, GET
// /v1/stats/spend and `bullpen-cli spend`. Whole hours come from the hourly spend (`agg_spend`, schema 17,
// aggregates.h), the rest from the attempt rows through `attempts_spend` (schema 15).
#include "aggregates.h"
#include "historyqueries.h"
#include "storedatabase.h"

#include <QSqlQuery>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace bullpen {

namespace {

// One slice's rows by provider, stage, role and currency: Spend::merged's order.
using SliceRows = std::map<std::tuple<QString, QString, QString, QString>, SpendRow>;

// Adds a read's rows (slice, provider, stage, role, currency, cost, attempts, unknown) to their slices;
// `sliceOf` turns the first column into a slice (-1: not this read's).
void collect(QSqlQuery &q, std::vector<SliceRows> &slices, const std::function<qint64(qint64)> &sliceOf = {})
{
    while (q.next()) {
        const qint64 slice = sliceOf ? sliceOf(q.value(0).toLongLong()) : q.value(0).toLongLong();
        const auto stage = stageFromId(q.value(2).toString());
        const auto role = roleFromId(q.value(3).toString());
        if (!stage || !role || slice < 0 || slice >= static_cast<qint64>(slices.size()))
            continue; // written by a newer Bullpen
        const QString currency = q.value(4).toString(); // NULL (rows) and '' (agg_spend) alike: cost unknown
        auto [it, added] = slices[static_cast<std::size_t>(slice)].try_emplace(
            { q.value(1).toString(), toId(*stage), toId(*role), currency }, SpendRow { q.value(1).toString(), *stage, *role, currency });
        it->second.cost += q.value(5).toDouble();
        it->second.attempts += q.value(6).toLongLong();
        it->second.unknown += q.value(7).toLongLong();
    }
}

QList<Spend> emptySlices(qint64 fromMs, qint64 toMs, qint64 stepMs)
{
    QList<Spend> out;
    for (qint64 at = fromMs; at < toMs; at += stepMs)
        out << Spend { at, std::min(toMs, at + stepMs), {} };
    return out;
}

QList<Spend> filled(QList<Spend> out, const std::vector<SliceRows> &slices)
{
    for (std::size_t i = 0; i < slices.size(); ++i)
        for (const auto &[key, row] : slices[i])
            out[static_cast<qsizetype>(i)].rows << row;
    return out;
}

} // namespace

std::optional<Spend> HistoryQueries::spend(qint64 fromMs, qint64 toMs, QString *error)
{
    const std::optional<QList<Spend>> one = spendSlices(fromMs, toMs, 1, error);
    if (!one)
        return std::nullopt;
    return one->isEmpty() ? Spend { fromMs, toMs, {} } : one->constFirst();
}

std::optional<QList<Spend>> HistoryQueries::spendSlices(qint64 fromMs, qint64 toMs, int slices, QString *error)
{
    constexpr qint64 kHourMs = AggregateDeltas::kHourMs;
    const qint64 step = Spend::sliceMs(fromMs, toMs, slices);
    const QList<Spend> out = emptySlices(fromMs, toMs, step);
    if (out.isEmpty())
        return out;
    // A store opened read-only at an older schema has no hourly spend: the rows alone, as before.
    if (!m_db.readConnection(error).tables().contains(QStringLiteral("agg_spend")))
        return spendSlicesFromAttempts(fromMs, toMs, slices, error);
    // Each hour of the range inside one slice is read from `agg_spend`; the partial hours at the range's
    // ends, and the hours a slice's end cuts, from the rows (with the rows' slice arithmetic).
    std::set<qint64> cut;
    std::vector<std::pair<qint64, qint64>> fromRows;
    qint64 firstWhole = toMs, endWhole = fromMs;
    for (qint64 h = AggregateDeltas::hourOf(fromMs); h < toMs; h += kHourMs) {
        const qint64 a = std::max(h, fromMs), b = std::min(h + kHourMs, toMs);
        if (a == h && b == h + kHourMs && (a - fromMs) / step == (b - 1 - fromMs) / step) {
            firstWhole = std::min(firstWhole, h);
            endWhole = b;
            continue;
        }
        cut.insert(h);
        if (!fromRows.empty() && fromRows.back().second == a)
            fromRows.back().second = b;
        else
            fromRows.emplace_back(a, b);
    }
    std::vector<SliceRows> rows(static_cast<std::size_t>(out.size()));
    QSqlQuery q;
    for (const auto &[a, b] : fromRows) {
        if (!m_db.read(q, spendReadSql(), { fromMs, step, a, b }, error))
            return std::nullopt;
        collect(q, rows);
    }
    if (firstWhole < endWhole) {
        if (!m_db.read(q,
                       QStringLiteral("SELECT hour_ms, provider, stage, role, currency, cost, attempts, unknown_cost FROM agg_spend "
                                      "WHERE hour_ms >= ? AND hour_ms < ?"),
                       { firstWhole, endWhole }, error))
            return std::nullopt;
        collect(q, rows, [&](qint64 hour) { return cut.count(hour) ? -1 : (hour - fromMs) / step; });
    }
    return filled(out, rows);
}

std::optional<QList<Spend>> HistoryQueries::spendSlicesFromAttempts(qint64 fromMs, qint64 toMs, int slices, QString *error)
{
    const qint64 step = Spend::sliceMs(fromMs, toMs, slices);
    const QList<Spend> out = emptySlices(fromMs, toMs, step);
    std::vector<SliceRows> rows(static_cast<std::size_t>(out.size()));
    QSqlQuery q;
    if (!m_db.read(q, spendReadSql(), { fromMs, step, fromMs, toMs }, error))
        return std::nullopt;
    collect(q, rows);
    return filled(out, rows);
}

QString HistoryQueries::spendReadSql()
{
    // `+synthetic`: not an index term, so that SQLite reads `attempts_spend` (every column, no row
    // lookup) rather than `attempts_synthetic` (synthetic, at_ms) and a row lookup per attempt.
    return QStringLiteral("SELECT (at_ms - ?) / ?, provider, stage, role, currency, SUM(cost), COUNT(*), "
                          "SUM(CASE WHEN cost IS NULL THEN 1 ELSE 0 END) FROM attempts WHERE at_ms >= ? AND at_ms < ? AND +synthetic = 0 "
                          "GROUP BY 1, provider, stage, role, currency ORDER BY 1, provider, stage, role, currency");
}

} // namespace bullpen
