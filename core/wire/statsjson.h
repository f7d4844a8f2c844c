// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"
#include "history/providerwindow.h"
#include "wire/fielderror.h"

#include <QJsonObject>
#include <QList>

#include <optional>
#include <utility>
#include <variant>

namespace bullpen {

// The statistics' answers (`GET /v1/stats/…`, docs/api.md "History and dashboards"; docs/openapi.yaml),
// both ways: the service writes each with its writer here and the remote client reads it back with
// its reader, so the envelope (the object around the rows) and the rows' fields are spelled once
// (statsjson.cpp). A reader refuses an answer whose envelope field is missing or of the wrong type,
// naming it; a row's own fields are read as before (an older engine may leave one out). Spend and the
// tune report have codecs of their own (cost/spend.h, tuning/tuner.h); the query: wire/statsquery.h.
class StatsJson final
{
public:
    using Counts = QList<std::pair<QString, qint64>>;

    // GET /v1/stats/count: {"count"}
    static QJsonObject count(qint64 count);
    static std::variant<qint64, FieldError> countFromJson(const QJsonObject &o);
    // GET /v1/stats/counts: {"by", "counts": [{"key", "count"}…]}
    static QJsonObject counts(HistoryGroup by, const Counts &counts);
    static std::variant<Counts, FieldError> countsFromJson(const QJsonObject &o);
    // GET /v1/stats/oldest: {"oldest_ms": number or null}
    static QJsonObject oldest(std::optional<qint64> oldestMs);
    static std::variant<std::optional<qint64>, FieldError> oldestFromJson(const QJsonObject &o);
    // GET /v1/stats/fallback-rate: {"buckets": [{"start_ms", "generations", "fallbacks"}…]}
    static QJsonObject fallbackRate(const QList<RateBucket> &buckets);
    static std::variant<QList<RateBucket>, FieldError> fallbackRateFromJson(const QJsonObject &o);
    // GET /v1/stats/latency: {"samples": [[at_ms, duration_ms, success]…]} (compact: tens of thousands)
    static QJsonObject latency(const QList<LatencySample> &samples);
    static std::variant<QList<LatencySample>, FieldError> latencyFromJson(const QJsonObject &o);
    // GET /v1/stats/latency-histogram: {"cells": [[start_ms, success, bin, count]…]}
    static QJsonObject latencyHistogram(const QList<DurationCell> &cells);
    static std::variant<QList<DurationCell>, FieldError> latencyHistogramFromJson(const QJsonObject &o);
    // GET /v1/stats/fallback-waits: {"waits": [{"at_ms", "primary_provider", "fallback_provider",
    // "primary_ms", "fallback_ms", "fallback_succeeded"}…]}
    static QJsonObject fallbackWaits(const QList<FallbackWait> &waits);
    static std::variant<QList<FallbackWait>, FieldError> fallbackWaitsFromJson(const QJsonObject &o);
    // GET /v1/stats/fallback-wait-histogram: {"cells": [[start_ms, primary, fallback, bin, count]…]}
    static QJsonObject fallbackWaitHistogram(const QList<FallbackWaitCell> &cells);
    static std::variant<QList<FallbackWaitCell>, FieldError> fallbackWaitHistogramFromJson(const QJsonObject &o);
    // GET /v1/stats/health: {"providers": [{"provider", "role", "stage", "attempts", "failures",
    // "not_provider", "top_kind", "top_kind_count", "primary_failures", "relieved", "p50_ms", "p90_ms",
    // "last_probe"}…]}; a row of a provider, role or stage this side does not know is left out.
    static QJsonObject health(const QList<ProviderHealth> &health);
    static std::variant<QList<ProviderHealth>, FieldError> healthFromJson(const QJsonObject &o);
    // GET /v1/stats/providers: {"instance", "at_ms", "last_5m": {id: {"attempts", "error_percent",
    // "top_kind", "relief_percent", "p50_ms", "p90_ms"}…}, "last_15m": {…}}. Unlike the rows above, a
    // window's row is refused too when a field is missing or of the wrong type, named by its path
    // ("last_5m.gemini.attempts"): every engine that answers this route writes all six.
    static QJsonObject providerWindows(const ProviderWindows &windows);
    static std::variant<ProviderWindows, FieldError> providerWindowsFromJson(const QJsonObject &o);
    // One provider's window row alone (also inside `bullpen-cli provider list --json`); a refusal is
    // named below `path`.
    static QJsonObject providerWindowRow(const ProviderWindow &window);
    static std::variant<ProviderWindow, FieldError> providerWindowRowFromJson(const QString &provider, const QJsonValue &v,
                                                                              const QString &path);
};

} // namespace bullpen
