// SPDX-License-Identifier: MIT
#include "spend.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace bullpen {

QList<std::pair<QString, double>> Spend::totals(bool fallbackOnly) const
{
    std::map<QString, double> byCurrency;
    for (const SpendRow &r : rows) {
        if (r.currency.isEmpty() || (fallbackOnly && r.role != Role::Fallback))
            continue;
        byCurrency[r.currency] += r.cost;
    }
    return { byCurrency.begin(), byCurrency.end() };
}

qint64 Spend::unknownAttempts() const
{
    qint64 n = 0;
    for (const SpendRow &r : rows)
        n += r.unknown;
    return n;
}

QStringList Spend::currencies(Stage stage) const
{
    QStringList out;
    for (const SpendRow &r : rows)
        if (r.stage == stage && !r.currency.isEmpty() && !out.contains(r.currency))
            out << r.currency;
    out.sort();
    return out;
}

qint64 Spend::sliceMs(qint64 fromMs, qint64 toMs, int slices)
{
    const qint64 n = std::max(slices, 1);
    return std::max<qint64>(1, (toMs - fromMs + n - 1) / n);
}

Spend Spend::merged(qint64 fromMs, qint64 toMs, const QList<Spend> &slices)
{
    std::map<std::tuple<QString, QString, QString, QString>, SpendRow> byKey;
    for (const Spend &slice : slices) {
        for (const SpendRow &r : slice.rows) {
            auto [it, added] = byKey.try_emplace({ r.provider, toId(r.stage), toId(r.role), r.currency }, r);
            if (added)
                continue;
            it->second.cost += r.cost;
            it->second.attempts += r.attempts;
            it->second.unknown += r.unknown;
        }
    }
    Spend s { fromMs, toMs, {} };
    for (const auto &[key, row] : byKey)
        s.rows << row;
    return s;
}

namespace {

QJsonArray totalsJson(const QList<std::pair<QString, double>> &totals)
{
    QJsonArray out;
    for (const auto &[currency, cost] : totals)
        out.append(QJsonObject { { QStringLiteral("currency"), currency }, { QStringLiteral("cost"), cost } });
    return out;
}

} // namespace

QJsonObject Spend::toJson() const
{
    QJsonArray list;
    for (const SpendRow &r : rows)
        list.append(QJsonObject { { QStringLiteral("provider"), r.provider },
                                  { QStringLiteral("stage"), toId(r.stage) },
                                  { QStringLiteral("role"), toId(r.role) },
                                  { QStringLiteral("currency"), r.currency.isEmpty() ? QJsonValue() : QJsonValue(r.currency) },
                                  { QStringLiteral("cost"), r.cost },
                                  { QStringLiteral("attempts"), r.attempts },
                                  { QStringLiteral("cost_unknown_attempts"), r.unknown } });
    return QJsonObject { { QStringLiteral("from_ms"), fromMs },
                         { QStringLiteral("to_ms"), toMs },
                         { QStringLiteral("rows"), list },
                         { QStringLiteral("totals"), totalsJson(totals()) },
                         { QStringLiteral("fallback_added"), totalsJson(totals(true)) },
                         { QStringLiteral("cost_unknown_attempts"), unknownAttempts() } };
}

Spend Spend::fromJson(const QJsonObject &json)
{
    Spend s;
    s.fromMs = json.value(QLatin1StringView("from_ms")).toInteger();
    s.toMs = json.value(QLatin1StringView("to_ms")).toInteger();
    for (const QJsonValue &v : json.value(QLatin1StringView("rows")).toArray()) {
        const QJsonObject o = v.toObject();
        SpendRow r;
        r.provider = o.value(QLatin1StringView("provider")).toString();
        r.stage = stageFromId(o.value(QLatin1StringView("stage")).toString()).value_or(Stage::Storyboard);
        r.role = roleFromId(o.value(QLatin1StringView("role")).toString()).value_or(Role::Primary);
        r.currency = o.value(QLatin1StringView("currency")).toString();
        r.cost = o.value(QLatin1StringView("cost")).toDouble();
        r.attempts = o.value(QLatin1StringView("attempts")).toInteger();
        r.unknown = o.value(QLatin1StringView("cost_unknown_attempts")).toInteger();
        s.rows << r;
    }
    return s;
}

} // namespace bullpen
