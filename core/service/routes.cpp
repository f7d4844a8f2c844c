// SPDX-License-Identifier: MIT
// The service's endpoints, in one table (docs/api.md): method, path, who may call it, and its handler.
// Authentication, rate limits, 403/404/405 and the request log are applied around every handler, once,
// by EngineService::handleRequest.
#include "engineservice.h"
#include "pipeline/comparison.h"
#include "sim/cappedtcpserver.h"
#include "sim/httpserving.h"
#include "store/apitokens.h"

#include <QUrlQuery>

namespace bullpen {

namespace {
using Method = QHttpServerRequest::Method;
constexpr auto Get = Method::Get;
constexpr auto Post = Method::Post;
constexpr auto Delete = Method::Delete;
} // namespace

void EngineService::buildRoutes()
{
    using A = RouteAccess;
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
    Routes &r = m_routes;
    // A supervisor's liveness and readiness: no token.
    r.add(Get, QStringLiteral("/healthz"), A::Public, now([](const Call &) -> std::optional<Reply> {
              return json(200, QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } });
          }));
    r.add(Get, QStringLiteral("/readyz"), A::Public, now([this](const Call &) -> std::optional<Reply> { return readiness(); }));
    r.add(Get, QStringLiteral("/metrics"), A::Viewer, now([this](const Call &) -> std::optional<Reply> { return metrics(); }));

    r.add(Post, QStringLiteral("/v1/generations"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return startGeneration(c.request, *c.token); }));
    r.add(Get, QStringLiteral("/v1/generations/{id}"), A::Viewer, later([this](const Call &c) { generationResult(c.param(0), c.socket); }));
    r.add(Post, QStringLiteral("/v1/generations/{id}/cancel"), A::Operator,
          later([this](const Call &c) { cancelGeneration(c.param(0), *c.token, c.socket); }));
    r.add(Get, QStringLiteral("/v1/events"), A::Viewer, now([this](const Call &c) { return subscribeEvents(c); }));

    r.add(Get, QStringLiteral("/v1/history"), A::Viewer, later([this](const Call &c) { historyList(c.request, c.socket); }));
    r.add(Get, QStringLiteral("/v1/history/{id}"), A::Viewer, later([this](const Call &c) { historyEntry(c.param(0), c.socket); }));
    r.add(Get, QStringLiteral("/v1/history/{id}/scenario"), A::Viewer,
          later([this](const Call &c) { historyScenario(c.param(0), c.socket); }));
    r.add(Get, QStringLiteral("/v1/stats/providers"), A::Viewer,
          now([this](const Call &) -> std::optional<Reply> { return statsProviders(); }));
    for (const Statistics::Endpoint &e : Statistics::endpoints())
        r.add(Get, QStringLiteral("/v1/stats/") + QLatin1StringView(e.name), A::Viewer,
              later([this, plan = e.plan](const Call &c) { answerStats(c.request, c.socket, plan); }));

    r.add(Post, QStringLiteral("/v1/comparisons"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return startComparison(c.request, *c.token); }));
    r.add(Get, QStringLiteral("/v1/comparisons"), A::Viewer, later([this](const Call &c) { comparisonList(c.request, c.socket); }));
    r.add(Get, QStringLiteral("/v1/comparisons/{id}"), A::Viewer, later([this](const Call &c) { comparisonEntry(c.param(0), c.socket); }));
    r.add(Post, QStringLiteral("/v1/comparisons/{id}/cancel"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return cancelComparison(c.param(0), *c.token); }));

    r.add(Get, QStringLiteral("/v1/images/{sha256}"), A::Viewer, later([this](const Call &c) { image(c.param(0), c.socket); }));
    r.add(Get, QStringLiteral("/v1/providers"), A::Viewer, now([this](const Call &) -> std::optional<Reply> { return providers(); }));
    r.add(Post, QStringLiteral("/v1/providers/{id}/drain"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return drainProvider(c.request, c.param(0), *c.token); }));
    r.add(Post, QStringLiteral("/v1/providers/{id}/restore"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return restoreProvider(c.request, c.param(0), *c.token); }));
    r.add(Post, QStringLiteral("/v1/providers/{id}/reset"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return resetBreaker(c.request, c.param(0), *c.token); }));
    r.add(Get, QStringLiteral("/v1/alerts"), A::Viewer, now([this](const Call &) -> std::optional<Reply> { return alerts(); }));
    r.add(Post, QStringLiteral("/v1/alerts/{name}/silence"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return silenceAlert(c.request, c.param(0), *c.token); }));
    r.add(Delete, QStringLiteral("/v1/alerts/{name}/silence"), A::Operator,
          now([this](const Call &c) -> std::optional<Reply> { return endSilence(c.param(0), *c.token); }));
    r.add(Get, QStringLiteral("/v1/audit"), A::Viewer, now([this](const Call &c) -> std::optional<Reply> { return auditLog(c.request); }));
    r.add(Get, QStringLiteral("/v1/config"), A::Viewer,
          now([this](const Call &c) -> std::optional<Reply> { return config(c.token->role); }));
    r.add(Get, QStringLiteral("/v1/instances"), A::Viewer, later([this](const Call &c) { instances(c.socket); }));
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
        return error(429,
                     QStringLiteral("token %1 has %2 event streams open already, the limit per token; close one")
                         .arg(c.token->name)
                         .arg(m_options.events.maxPerToken));
    const bool viewer = c.token->role == ApiRole::Viewer;
    if (!m_events.subscribe(c.socket, generation, last, c.token->name, viewer)) {
        if (viewer && m_events.subscribers() < m_options.events.maxSubscribers)
            return error(429,
                         QStringLiteral("viewers hold %1 event streams already, all they may (%2 more are kept for operators); "
                                        "close one, or raise --max-subscribers")
                             .arg(m_events.viewerSubscribers())
                             .arg(m_options.events.reservedForOperators));
        return error(429,
                     QStringLiteral("%1 event subscribers already, the limit; close one, or raise --max-subscribers")
                         .arg(m_options.events.maxSubscribers));
    }
    m_server->markLongLived(c.socket); // heartbeats keep it; never closed to make room
    return std::nullopt; // the stream answers
}

EngineService::Reply EngineService::cancelComparison(const QString &id, const ApiToken &token)
{
    if (!m_comparisons->isRunning(id))
        return error(404, QStringLiteral("no comparison %1 is running here").arg(id.left(64)));
    m_comparisons->cancel(id);
    m_audit.record(token.name, QStringLiteral("cancel"), id);
    return json(202, QJsonObject { { QStringLiteral("comparison_id"), id }, { QStringLiteral("cancelling"), true } });
}

} // namespace bullpen
