// SPDX-License-Identifier: MIT
// The service's endpoints, in one table (docs/api.md): method, path, who may call it, and its handler.
// Authentication, rate limits, 403/404/405 and the request log are applied around every handler, once,
// by EngineService::handleRequest. Each handler is a function of the object that owns its resource's
// state (GenerationHandlers, ComparisonHandlers, HistoryHandlers, ProviderHandlers, AlertHandlers), or
// of AdminHandlers for the engine's own endpoints (configuration, instances, readiness, metrics, audit).
#include "engineservice.h"
#include "sim/cappedtcpserver.h"
#include "sim/httpserving.h"
#include "store/apitokens.h"
#include "wire/apiroutes.h"

#include <QUrlQuery>

namespace bullpen {

namespace {
using Method = QHttpServerRequest::Method;

Method httpMethod(ApiMethod method)
{
    switch (method) {
    case ApiMethod::Get:
        return Method::Get;
    case ApiMethod::Post:
        return Method::Post;
    case ApiMethod::Delete:
        return Method::Delete;
    }
    Q_UNREACHABLE();
}
} // namespace

void EngineService::buildRoutes()
{
    // Handlers answer at once (a Reply) or later, on the socket (nothing).
    const auto now = [](auto f) {
        return Handler(f);
    };
    const auto later = [](auto f) {
        return Handler([f](const Call &c) -> std::optional<Reply> {
            f(c);
            return std::nullopt;
        });
    };
    // Each row of the shared route table (wire/apiroutes.h) gets its handler here; tst_apiroutes checks
    // that every row is served.
    const auto serve = [this](ApiRoute route, Handler handler) {
        const ApiRouteSpec &spec = ApiRoutes::spec(route);
        m_routes.add(httpMethod(spec.method), QString::fromLatin1(spec.path), spec.access, std::move(handler));
    };
    // A supervisor's liveness and readiness: no token.
    serve(ApiRoute::Healthz, now([](const Call &) -> std::optional<Reply> {
              return ApiReply::json(200, QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } });
          }));
    serve(ApiRoute::Readyz, now([this](const Call &) -> std::optional<Reply> { return m_admin.readiness(); }));
    serve(ApiRoute::Metrics, now([this](const Call &) -> std::optional<Reply> { return m_admin.metrics(); }));

    serve(ApiRoute::StartGeneration,
          now([this](const Call &c) -> std::optional<Reply> { return m_generations.start(c.request, *c.token); }));
    serve(ApiRoute::Generation, later([this](const Call &c) { m_generations.result(c.param(0), c.socket); }));
    serve(ApiRoute::CancelGeneration, later([this](const Call &c) { m_generations.cancel(c.param(0), *c.token, c.socket); }));
    serve(ApiRoute::Events, now([this](const Call &c) { return subscribeEvents(c); }));

    serve(ApiRoute::History, later([this](const Call &c) { m_history.list(c.request, c.socket); }));
    serve(ApiRoute::HistoryEntry, later([this](const Call &c) { m_history.entry(c.param(0), c.socket); }));
    serve(ApiRoute::HistoryScenario, later([this](const Call &c) { m_history.scenario(c.param(0), c.socket); }));
    serve(ApiRoute::StatsProviders, now([this](const Call &) -> std::optional<Reply> { return m_history.statsProviders(); }));
    for (const Statistics::Endpoint &e : Statistics::endpoints())
        serve(e.route, later([this, plan = e.plan](const Call &c) { m_history.stats(c.request, c.socket, plan); }));

    serve(ApiRoute::StartComparison,
          now([this](const Call &c) -> std::optional<Reply> { return m_comparisons.start(c.request, *c.token); }));
    serve(ApiRoute::Comparisons, later([this](const Call &c) { m_comparisons.list(c.request, c.socket); }));
    serve(ApiRoute::Comparison, later([this](const Call &c) { m_comparisons.entry(c.param(0), c.socket); }));
    serve(ApiRoute::CancelComparison,
          now([this](const Call &c) -> std::optional<Reply> { return m_comparisons.cancel(c.param(0), *c.token); }));

    serve(ApiRoute::Image, later([this](const Call &c) { m_history.image(c.param(0), c.socket); }));
    serve(ApiRoute::Providers, now([this](const Call &) -> std::optional<Reply> { return m_providers.providers(); }));
    serve(ApiRoute::DrainProvider,
          now([this](const Call &c) -> std::optional<Reply> { return m_providers.drain(c.request, c.param(0), *c.token); }));
    serve(ApiRoute::RestoreProvider,
          now([this](const Call &c) -> std::optional<Reply> { return m_providers.restore(c.request, c.param(0), *c.token); }));
    serve(ApiRoute::ResetBreaker,
          now([this](const Call &c) -> std::optional<Reply> { return m_providers.resetBreaker(c.request, c.param(0), *c.token); }));
    serve(ApiRoute::Alerts, now([this](const Call &) -> std::optional<Reply> { return m_alerts.alerts(); }));
    serve(ApiRoute::SilenceAlert,
          now([this](const Call &c) -> std::optional<Reply> { return m_alerts.silence(c.request, c.param(0), *c.token); }));
    serve(ApiRoute::EndSilence, now([this](const Call &c) -> std::optional<Reply> { return m_alerts.endSilence(c.param(0), *c.token); }));
    serve(ApiRoute::Audit, now([this](const Call &c) -> std::optional<Reply> { return m_admin.auditLog(c.request); }));
    serve(ApiRoute::Config, now([this](const Call &c) -> std::optional<Reply> { return m_admin.config(c.token->role); }));
    serve(ApiRoute::Instances, later([this](const Call &c) { m_admin.instances(c.socket); }));
}

QStringList EngineService::endpoints() const
{
    QStringList out;
    for (const Routes::Route &r : m_routes.routes())
        out << QString::fromLatin1(Routes::methodName(r.method)) + QLatin1Char(' ') + r.path;
    return out;
}

std::optional<EngineService::Reply> EngineService::subscribeEvents(const Call &c)
{
    const QUrlQuery query(c.request.url());
    const QString generation = query.queryItemValue(QStringLiteral("generation"), QUrl::FullyDecoded).left(64);
    QString last = QString::fromLatin1(httpHeader(c.request, "last-event-id")).left(64);
    if (last.isEmpty())
        last = query.queryItemValue(QStringLiteral("last_event_id"), QUrl::FullyDecoded).left(64);
    if (m_events.subscribersOf(c.token->name) >= m_options.events.maxPerToken)
        return ApiReply::error(429,
                               QStringLiteral("token %1 has %2 event streams open already, the limit per token; close one")
                                   .arg(c.token->name)
                                   .arg(m_options.events.maxPerToken));
    const bool viewer = c.token->role == ApiRole::Viewer;
    if (!m_events.subscribe(c.socket, generation, last, c.token->name, viewer)) {
        if (viewer && m_events.subscribers() < m_options.events.maxSubscribers)
            return ApiReply::error(429,
                                   QStringLiteral("viewers hold %1 event streams already, all they may (%2 more are kept for operators); "
                                                  "close one, or raise --max-subscribers")
                                       .arg(m_events.viewerSubscribers())
                                       .arg(m_options.events.reservedForOperators));
        return ApiReply::error(429,
                               QStringLiteral("%1 event subscribers already, the limit; close one, or raise --max-subscribers")
                                   .arg(m_options.events.maxSubscribers));
    }
    m_server->markLongLived(c.socket); // heartbeats keep it; never closed to make room
    return std::nullopt; // the stream answers
}

} // namespace bullpen
