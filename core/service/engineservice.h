// SPDX-License-Identifier: MIT
#pragma once

#include "adminhandlers.h"
#include "alerthandlers.h"
#include "apireply.h"
#include "audittrail.h"
#include "comparisonhandlers.h"
#include "config/settings.h"
#include "config/trustedproxies.h"
#include "engine/breakerboard.h"
#include "eventstream.h"
#include "generationhandlers.h"
#include "historyhandlers.h"
#include "providerhandlers.h"
#include "ratelimiter.h"
#include "routetable.h"
#include "servicecontext.h"
#include "servicemetrics.h"
#include "serviceoptions.h"
#include "sim/cappedtcpserver.h"
#include "statistics.h"
#include "storerelay.h"
#include "wire/engineconfigjson.h"

#include <QAbstractHttpServer>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QPointer>
#include <QSet>
#include <QSslConfiguration>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <chrono>
#include <functional>
#include <memory>

class QTcpSocket;

namespace bullpen {

class ApiTokens;
class EngineSetup;
struct ApiToken;
enum class ApiRole;
struct GenerationResult;

// bullpen-engine's HTTP API (docs/api.md, docs/contract.md §12.1) over one running engine: generations, the event
// stream, history and dashboards, comparisons, images, configuration, health and metrics. Every `/v1`
// path and `/metrics` needs a bearer token (ApiTokens); a viewer reads, an operator may also start,
// cancel and compare, and what an operator did is written to the audit table with the token's name.
// Requests are read into typed values before the engine sees them. Reads of the history run on a
// thread of their own, never on this one, which also serves the engine's events.
class EngineService final : public QAbstractHttpServer
{
    Q_OBJECT
public:
    static constexpr int kMaxHeaderFields = 100; // more: 431 (the HTTP server's parser would keep none)
    EngineService(EngineSetup &setup, ApiTokens &tokens, ServiceOptions options, QObject *parent = nullptr);
    ~EngineService() override;

    bool listen(QString *error);
    // Every route, "GET /v1/history/{id}", in the table's order (docs/api.md documents each).
    QStringList endpoints() const;
    QUrl url() const { return m_options.url(); }
    QString instance() const { return m_options.instance; }
    const ServiceOptions &options() const { return m_options; }

    // SIGTERM (docs/contract.md §12.1): /readyz answers 503 and new generations are refused; running ones may
    // finish within the drain time, then the rest are cancelled. drained() follows once every one has
    // its final state.
    void beginDrain();
    bool draining() const { return m_draining; }

Q_SIGNALS:
    void drained();

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    using Reply = ApiReply;

    // One request as a route's handler sees it: the path's {…} segments in order; the token, except on
    // a public route. A handler answers at once (a Reply) or later on the socket (nothing).
    struct Call
    {
        const QHttpServerRequest &request;
        QTcpSocket *socket;
        const ApiToken *token;
        const QStringList &params;
        QString param(qsizetype i) const { return params.value(i); }
    };
    using Handler = std::function<std::optional<Reply>(const Call &)>;
    using Routes = RouteTable<Handler>;
    // routes.cpp: every endpoint, each bound to its handler: by resource in GenerationHandlers,
    // ComparisonHandlers, HistoryHandlers, ProviderHandlers and AlertHandlers; the engine's own
    // (configuration, instances, readiness, metrics, audit) in AdminHandlers.
    void buildRoutes();
    std::optional<Reply> subscribeEvents(const Call &call);

    void write(QTcpSocket *socket, const Reply &reply);
    // Runs `work` on the history thread and answers with what it returns, if the client is still there.
    void answerLater(QTcpSocket *socket, std::function<Reply()> work);

    std::optional<ApiToken> authorize(const QHttpServerRequest &request, Reply *refusal);
    bool withinRate(const QString &tokenName, Reply *refusal);

    static std::optional<Reply> framingRefusal(const QHttpServerRequest &request);
    static std::optional<Reply> headerRefusal(const QHttpServerRequest &request, const CappedTcpServer::RequestHead &head);
    // address_rate: the client's address (X-Forwarded-For believed from trusted_proxies only) over its rate.
    std::optional<Reply> addressRefusal(const QHttpServerRequest &request, const QTcpSocket *socket);
    void closeRevokedStreams();

    void onEvent(const Event &event);
    void onFinished(const GenerationResult &result);
    void checkDrained();

    EngineSetup &m_setup;
    ApiTokens &m_tokens;
    Routes m_routes;
    QString m_tokenCheckError; // the last store failure of a token check, said once
    AuditTrail m_audit;
    ServiceOptions m_options;
    QTimer m_streamOwners; // closeRevokedStreams, every second
    QSet<QString> m_awaitingStream; // draining: generations whose generation_finished has not reached the stream yet
    QElapsedTimer m_streamGrace; // since the engine had nothing running but streams still waited
    EventStream m_events;
    std::unique_ptr<StoreRelay> m_relay; // PostgreSQL: every instance's events into m_events, in the store's order
    ServiceMetrics m_metrics;
    CappedTcpServer *m_server = nullptr; // the listening socket, a child

    RateLimiter m_rates; // per token, on the monotonic clock
    TrustedProxies m_trusted; // whose X-Forwarded-For is believed
    std::optional<RateLimiter> m_addressRates; // per client address, with address_rate

    QThread m_historyThread;
    QObject *m_historyContext = nullptr; // lives on m_historyThread
    const QString m_backfillConnection; // on m_historyThread: resumed event streams read the store through it

    bool m_draining = false;
    QTimer m_drainTimer;
    bool m_drainedSent = false;

    // What the handlers share, then the handlers by resource, each with the state only it uses; last,
    // so that everything they refer to is made before them and outlives them.
    ServiceContext m_context;
    GenerationHandlers m_generations;
    ComparisonHandlers m_comparisons;
    HistoryHandlers m_history;
    ProviderHandlers m_providers;
    AlertHandlers m_alerts;
    AdminHandlers m_admin;
};

} // namespace bullpen
