// SPDX-License-Identifier: MIT
#include "statsquery.h"

#include <QList>

#include <utility>

namespace bullpen::StatsQuery {

namespace {

// Every parameter, spelled here only.
const QList<std::pair<StatsParam, QString>> &params()
{
    static const QList<std::pair<StatsParam, QString>> table {
        { StatsParam::FromMs, QStringLiteral("from_ms") },
        { StatsParam::ToMs, QStringLiteral("to_ms") },
        { StatsParam::BucketMs, QStringLiteral("bucket_ms") },
        { StatsParam::Provider, QStringLiteral("provider") },
        { StatsParam::Role, QStringLiteral("role") },
        { StatsParam::Stage, QStringLiteral("stage") },
        { StatsParam::By, QStringLiteral("by") },
        { StatsParam::TodayPrimaryTimeoutMs, QStringLiteral("today_primary_timeout_ms") },
        { StatsParam::FallbackTimeoutMs, QStringLiteral("fallback_timeout_ms") },
        { StatsParam::PrimaryTimeoutsMs, QStringLiteral("primary_timeouts_ms") },
        { StatsParam::FallbackTimeoutsMs, QStringLiteral("fallback_timeouts_ms") },
        { StatsParam::TodayPreset, QStringLiteral("today_preset") },
        { StatsParam::TodayBreaker, QStringLiteral("today_breaker") },
    };
    return table;
}

// The groups of GET /v1/stats/counts, the default first.
const QList<std::pair<HistoryGroup, QString>> &groups()
{
    static const QList<std::pair<HistoryGroup, QString>> table {
        { HistoryGroup::PublicCode, QStringLiteral("public_code") },
        { HistoryGroup::Kind, QStringLiteral("kind") },
        { HistoryGroup::State, QStringLiteral("state") },
    };
    return table;
}

} // namespace

QString name(StatsParam param)
{
    for (const auto &[p, spelled] : params())
        if (p == param)
            return spelled;
    Q_UNREACHABLE();
    return {};
}

void add(QUrlQuery *query, StatsParam param, const QString &value)
{
    query->addQueryItem(name(param), value);
}

void add(QUrlQuery *query, StatsParam param, qint64 value)
{
    add(query, param, QString::number(value));
}

void addRange(QUrlQuery *query, qint64 fromMs, qint64 toMs)
{
    add(query, StatsParam::FromMs, fromMs);
    add(query, StatsParam::ToMs, toMs);
}

QString groupName(HistoryGroup group)
{
    for (const auto &[g, spelled] : groups())
        if (g == group)
            return spelled;
    Q_UNREACHABLE();
    return {};
}

std::optional<HistoryGroup> groupFromName(const QString &name)
{
    for (const auto &[g, spelled] : groups())
        if (spelled == name)
            return g;
    return std::nullopt;
}

QStringList groupNames()
{
    QStringList out;
    for (const auto &[g, spelled] : groups())
        out << spelled;
    return out;
}

} // namespace bullpen::StatsQuery
