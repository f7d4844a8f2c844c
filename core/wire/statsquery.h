// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QStringList>
#include <QUrlQuery>

#include <optional>

namespace bullpen {

// The query parameters of the statistics (`GET /v1/stats/…`, docs/api.md "History and dashboards"),
// by name: the service reads them and the remote client writes them through this one table
// (statsquery.cpp), so a parameter is spelled once for both sides. A statistic that takes a history
// filter (count, counts, fallback-rate) takes its fields too (api/historyjson.h).
enum class StatsParam {
    FromMs,
    ToMs,
    BucketMs,
    Provider,
    Role,
    Stage,
    By,
    TodayPrimaryTimeoutMs,
    FallbackTimeoutMs,
    PrimaryTimeoutsMs,
    FallbackTimeoutsMs,
    TodayPreset,
    TodayBreaker,
};

namespace StatsQuery {

QString name(StatsParam param); // "from_ms"
void add(QUrlQuery *query, StatsParam param, const QString &value);
void add(QUrlQuery *query, StatsParam param, qint64 value);
// from_ms and to_ms.
void addRange(QUrlQuery *query, qint64 fromMs, qint64 toMs);

// GET /v1/stats/counts' `by`: "public_code", "kind" or "state".
QString groupName(HistoryGroup group);
std::optional<HistoryGroup> groupFromName(const QString &name);
QStringList groupNames();

} // namespace StatsQuery

} // namespace bullpen
