// SPDX-License-Identifier: MIT
// The engine's endpoints in one table, read by the service (core/service/routes.cpp binds a handler
// to each row), by the remote client (core/remote builds its URLs from it) and by tst_apiroutes, which
// checks it against docs/openapi.yaml both ways.
#include "apiroutes.h"

namespace bullpen::ApiRoutes {

namespace {
using R = ApiRoute;
using A = RouteAccess;
constexpr auto Get = ApiMethod::Get;
constexpr auto Post = ApiMethod::Post;
constexpr auto Delete = ApiMethod::Delete;
} // namespace

const QList<ApiRouteSpec> &all()
{
    static const QList<ApiRouteSpec> table {
        // A supervisor's liveness and readiness: no token.
        { R::Healthz, Get, "/healthz", A::Public },
        { R::Readyz, Get, "/readyz", A::Public },
        { R::Metrics, Get, "/metrics", A::Viewer },

        { R::StartGeneration, Post, "/v1/generations", A::Operator },
        { R::Generation, Get, "/v1/generations/{id}", A::Viewer },
        { R::CancelGeneration, Post, "/v1/generations/{id}/cancel", A::Operator },
        { R::Events, Get, "/v1/events", A::Viewer },

        { R::History, Get, "/v1/history", A::Viewer },
        { R::HistoryEntry, Get, "/v1/history/{id}", A::Viewer },
        { R::HistoryScenario, Get, "/v1/history/{id}/scenario", A::Viewer },
        { R::StatsProviders, Get, "/v1/stats/providers", A::Viewer },
        { R::StatsCount, Get, "/v1/stats/count", A::Viewer },
        { R::StatsCounts, Get, "/v1/stats/counts", A::Viewer },
        { R::StatsOldest, Get, "/v1/stats/oldest", A::Viewer },
        { R::StatsFallbackRate, Get, "/v1/stats/fallback-rate", A::Viewer },
        { R::StatsLatency, Get, "/v1/stats/latency", A::Viewer },
        { R::StatsLatencyHistogram, Get, "/v1/stats/latency-histogram", A::Viewer },
        { R::StatsFallbackWaits, Get, "/v1/stats/fallback-waits", A::Viewer },
        { R::StatsFallbackWaitHistogram, Get, "/v1/stats/fallback-wait-histogram", A::Viewer },
        { R::StatsHealth, Get, "/v1/stats/health", A::Viewer },
        { R::StatsSpend, Get, "/v1/stats/spend", A::Viewer },
        { R::StatsTune, Get, "/v1/stats/tune", A::Viewer },

        { R::StartComparison, Post, "/v1/comparisons", A::Operator },
        { R::Comparisons, Get, "/v1/comparisons", A::Viewer },
        { R::Comparison, Get, "/v1/comparisons/{id}", A::Viewer },
        { R::CancelComparison, Post, "/v1/comparisons/{id}/cancel", A::Operator },

        { R::Image, Get, "/v1/images/{sha256}", A::Viewer },
        { R::Providers, Get, "/v1/providers", A::Viewer },
        { R::DrainProvider, Post, "/v1/providers/{id}/drain", A::Operator },
        { R::RestoreProvider, Post, "/v1/providers/{id}/restore", A::Operator },
        { R::ResetBreaker, Post, "/v1/providers/{id}/reset", A::Operator },
        { R::Alerts, Get, "/v1/alerts", A::Viewer },
        { R::SilenceAlert, Post, "/v1/alerts/{name}/silence", A::Operator },
        { R::EndSilence, Delete, "/v1/alerts/{name}/silence", A::Operator },
        { R::Audit, Get, "/v1/audit", A::Viewer },
        { R::Config, Get, "/v1/config", A::Viewer },
        { R::Instances, Get, "/v1/instances", A::Viewer },
    };
    return table;
}

const ApiRouteSpec &spec(ApiRoute route)
{
    for (const ApiRouteSpec &s : all())
        if (s.route == route)
            return s;
    Q_UNREACHABLE(); // every ApiRoute has its row (tst_apiroutes)
}

QByteArray methodName(ApiMethod method)
{
    switch (method) {
    case ApiMethod::Get:
        return QByteArrayLiteral("GET");
    case ApiMethod::Post:
        return QByteArrayLiteral("POST");
    case ApiMethod::Delete:
        return QByteArrayLiteral("DELETE");
    }
    Q_UNREACHABLE();
}

QString path(ApiRoute route, const QStringList &params)
{
    QStringList segments = QString::fromLatin1(spec(route).path).split(QLatin1Char('/'));
    qsizetype next = 0;
    for (QString &segment : segments) {
        if (!segment.startsWith(QLatin1Char('{')))
            continue;
        Q_ASSERT(next < params.size());
        if (next < params.size())
            segment = params.at(next++);
    }
    return segments.join(QLatin1Char('/'));
}

} // namespace bullpen::ApiRoutes
