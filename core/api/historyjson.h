// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "history/historyreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrlQuery>

#include <optional>
#include <variant>

namespace bullpen {

// The history on the wire (docs/api.md), both ways: the filters of `GET /v1/history…` and the
// statistics of `/v1/stats/…`, and what RemoteHistory reads back into the same values the console shows.
// A generation's row has one codec of its own (history/generationrowjson.h). Times travel as
// milliseconds since the epoch; users as their display mask and keyed hash, never a raw id.
class HistoryJson final
{
public:
    // A filter as query parameters: from_ms, to_ms, state (comma-separated), code, kind, stage,
    // provider, user, relieved, before_ms, before_id. Values in any case.
    static QUrlQuery filterQuery(const HistoryFilter &filter);
    // Strict: an unknown parameter, or a value not in its list, is refused naming it. `extra` names
    // the other parameters the endpoint takes (limit, instance…), which are left to the caller.
    static std::variant<HistoryFilter, FieldError> filterFromQuery(const QUrlQuery &query, const QStringList &extra = {});

    static QJsonObject comparison(const ComparisonRow &row);
    static ComparisonRow comparisonFromJson(const QJsonObject &json);
    static QJsonArray samples(const QList<LatencySample> &samples);
    static QList<LatencySample> samplesFromJson(const QJsonArray &json);
    // [[start_ms, success, bin, count], …] and [[start_ms, primary, fallback, bin, count], …]
    static QJsonArray durationCells(const QList<DurationCell> &cells);
    static QList<DurationCell> durationCellsFromJson(const QJsonArray &json);
    static QJsonArray fallbackWaitCells(const QList<FallbackWaitCell> &cells);
    static QList<FallbackWaitCell> fallbackWaitCellsFromJson(const QJsonArray &json);
    static QJsonArray rateBuckets(const QList<RateBucket> &buckets);
    static QList<RateBucket> rateBucketsFromJson(const QJsonArray &json);
    static QJsonArray fallbackWaits(const QList<FallbackWait> &waits);
    static QList<FallbackWait> fallbackWaitsFromJson(const QJsonArray &json);
    // [{"provider", "role", "attempts", "failures", "not_provider", "top_kind", "top_kind_count",
    //   "primary_failures", "relieved", "p50_ms", "p90_ms"}…]
    static QJsonArray providerHealth(const QList<ProviderHealth> &health);
    static QList<ProviderHealth> providerHealthFromJson(const QJsonArray &json);
    static QJsonArray counts(const QList<std::pair<QString, qint64>> &counts);
    static QList<std::pair<QString, qint64>> countsFromJson(const QJsonArray &json);

    // A whole number parameter in [min, max]; nothing when absent; an error naming it when not.
    static std::variant<std::optional<qint64>, FieldError> integer(const QUrlQuery &query, const QString &name, qint64 min, qint64 max);
    // An enum parameter by name, any case (e.g. kind=timeout).
    template<typename E> static std::variant<std::optional<E>, FieldError> enumValue(const QUrlQuery &query, const QString &name);
};

} // namespace bullpen
