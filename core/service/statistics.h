// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "wire/apiroutes.h"

#include <QJsonObject>
#include <QList>
#include <QUrlQuery>

#include <functional>
#include <variant>

namespace bullpen {

class HistoryReader;

// docs/api.md "History and dashboards": the statistics read from the history, as a table. Each reads
// its query first (a wrong field: the FieldError, answered 400 naming it), then answers on the history
// thread: the body, a FieldError (an answer too large to send), or an unreadable store (*why).
namespace Statistics {

using Body = std::function<std::variant<QJsonObject, FieldError>(HistoryReader &history, QString *why)>;
using Plan = std::variant<Body, FieldError>;

struct Endpoint
{
    ApiRoute route; // GET /v1/stats/<name> (wire/apiroutes.h)
    Plan (*plan)(const QUrlQuery &query, const ProviderTable &providers); // `providers`: the engine's own
};

const QList<Endpoint> &endpoints();

} // namespace Statistics

} // namespace bullpen
