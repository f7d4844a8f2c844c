// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace bullpen {

// Who may call a route (docs/api.md "Tokens"): anyone (a supervisor's liveness check), any valid token
// (a viewer reads), or an operator's token (start, cancel, compare, drain, restore).
enum class RouteAccess { Public, Viewer, Operator };

enum class ApiMethod { Get, Post, Delete };

// Every endpoint of the engine's API (docs/api.md, docs/openapi.yaml), by name.
enum class ApiRoute {
    Healthz,
    Readyz,
    Metrics,
    StartGeneration,
    Generation,
    CancelGeneration,
    Events,
    History,
    HistoryEntry,
    HistoryScenario,
    StatsProviders,
    StatsCount,
    StatsCounts,
    StatsOldest,
    StatsFallbackRate,
    StatsLatency,
    StatsLatencyHistogram,
    StatsFallbackWaits,
    StatsFallbackWaitHistogram,
    StatsHealth,
    StatsSpend,
    StatsTune,
    StartComparison,
    Comparisons,
    Comparison,
    CancelComparison,
    Image,
    Providers,
    DrainProvider,
    RestoreProvider,
    ResetBreaker,
    Alerts,
    SilenceAlert,
    EndSilence,
    Audit,
    Config,
    Instances,
};

// One row of the route table: the method, the path template (segments are literals or `{name}`) and
// who may call it. The service registers a handler for each row; a client builds its URLs from the
// same row, so a path is spelled once for both sides.
struct ApiRouteSpec
{
    ApiRoute route;
    ApiMethod method;
    const char *path; // "/v1/generations/{id}/cancel"
    RouteAccess access;
};

namespace ApiRoutes {

// The whole table, in the order the service registers it.
const QList<ApiRouteSpec> &all();
const ApiRouteSpec &spec(ApiRoute route);
QByteArray methodName(ApiMethod method); // "GET", "POST", "DELETE"
// The route's path with its `{name}` segments replaced, in order, by `params`, decoded: the client sets
// it with QUrl::setPath, which encodes. A missing parameter is a programming error (Q_ASSERT).
QString path(ApiRoute route, const QStringList &params = {});

} // namespace ApiRoutes

} // namespace bullpen
