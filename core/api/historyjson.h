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
// comparisons, and what RemoteHistory reads back into the same values the console shows. The statistics
// of `/v1/stats/…` have their codec in wire/statsjson.h, their query parameters in wire/statsquery.h.
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
    // `providers`: the engine's own table, whose ids a refused provider is told to choose from.
    static std::variant<HistoryFilter, FieldError> filterFromQuery(const QUrlQuery &query, const QStringList &extra = {},
                                                                   const ProviderTable &providers = ProviderTable());

    static QJsonObject comparison(const ComparisonRow &row);
    static ComparisonRow comparisonFromJson(const QJsonObject &json);

    // A whole number parameter in [min, max]; nothing when absent; an error naming it when not.
    static std::variant<std::optional<qint64>, FieldError> integer(const QUrlQuery &query, const QString &name, qint64 min, qint64 max);
    // An enum parameter by name, any case (e.g. kind=timeout).
    template<typename E> static std::variant<std::optional<E>, FieldError> enumValue(const QUrlQuery &query, const QString &name);
    // A provider parameter: any provider the process knows (the history may name one the settings
    // since removed); a refusal names the ones `providers` (the engine's own table) lists.
    static std::variant<std::optional<Provider>, FieldError> providerValue(const QUrlQuery &query, const QString &name,
                                                                           const ProviderTable &providers);
};

} // namespace bullpen
