// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "audittrail.h"
#include "config/settings.h"
#include "config/trustedproxies.h"
#include "engine/breakerboard.h"
#include "eventstream.h"
#include "ratelimiter.h"
#include "routetable.h"
#include "servicemetrics.h"
#include "sim/cappedtcpserver.h"
#include "statistics.h"
#include "storerelay.h"
#include "wire/engineconfigjson.h"

#include <QAbstractHttpServer>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QPointer>
#include <QSet>
#include <QSslConfiguration>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>

class QTcpSocket;

namespace bullpen {

class ApiTokens;
class DrainRecords;
class Prober;
class ComparisonRunner;
class EngineSetup;
class HistoryReader;
struct ApiToken;
enum class ApiRole;
struct Comparison;
struct GenerationResult;

struct ServiceOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8700; // 0: any free port
    QString instance; // empty: host name and port
    QString version;
    qint64 maxBodyBytes = 256 * 1024;
    qint64 maxHeaderBytes = 16 * 1024;
    RequestLimits request;
    int maxInFlight = 1000; // generations running at once; beyond it, 429
    double tokenRate = 200; // requests per second per token, sustained
    double tokenBurst = 400; // and in a burst
    EventStream::Options events;
    ConnectionLimits connections; // lowered to what the open-file limit leaves room for (listen())
    int resultsKept = 2000; // whole results answered from memory (~8 KB each); older ones from the history
    std::chrono::milliseconds drain { 30000 };
    std::optional<QSslConfiguration> tls; // serve HTTPS (loadServerTls); else plain HTTP
    // Probes (docs/contract.md §13): a target with no traffic this long gets a synthetic generation; 0: none.
    std::chrono::milliseconds probeEvery { 0 };
};

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
    QUrl url() const;
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
    struct Reply
    {
        int status = 200;
        QByteArray body;
        QByteArray contentType = "application/json";
        QList<std::pair<QByteArray, QByteArray>> headers;
    };

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
    // routes.cpp: every endpoint; the handlers by resource in generationroutes.cpp, comparisonroutes.cpp,
    // historyroutes.cpp, providerroutes.cpp and adminroutes.cpp.
    void buildRoutes();
    std::optional<Reply> subscribeEvents(const Call &call);

    // A result (or a comparison's side) as the API gives it: the comic by its URL and digest, never the
    // server's file path (docs/api.md).
    static QJsonObject withImageUrl(QJsonObject result);
    static QJsonObject comparisonForApi(QJsonObject comparison); // each side's result so
    static Reply json(int status, const QJsonObject &body);
    static Reply error(int status, const QString &message, const QString &field = {});
    static Reply historyUnreadable(const QString &why); // 503: the store did not answer
    void write(QTcpSocket *socket, const Reply &reply);
    // Runs `work` on the history thread and answers with what it returns, if the client is still there.
    void answerLater(QTcpSocket *socket, std::function<Reply()> work);

    std::optional<ApiToken> authorize(const QHttpServerRequest &request, Reply *refusal);
    bool withinRate(const QString &tokenName, Reply *refusal);

    // What every request that starts work goes through first (generationroutes.cpp): a draining engine
    // refuses it (503 with Retry-After; `work` names it, "generations"), then its body is read (413 when
    // too large, 400 naming the field). The request, or the refusal.
    std::variant<GenerationRequest, Reply> admitted(const QHttpServerRequest &request, const QString &work) const;
    // 429 with Retry-After when `more` generations would pass the in-flight limit.
    std::optional<Reply> overInFlightLimit(int more) const;
    Reply startGeneration(const QHttpServerRequest &request, const ApiToken &token);
    void generationResult(const QString &id, QTcpSocket *socket);
    // 202 while it runs here; its final state (200) once ended, here or on another engine of the store.
    void cancelGeneration(const QString &id, const ApiToken &token, QTcpSocket *socket);
    Reply startComparison(const QHttpServerRequest &request, const ApiToken &token);
    HistoryReader *historyOr404(QTcpSocket *socket); // none: answered 404 (started with --no-store)
    void historyList(const QHttpServerRequest &request, QTcpSocket *socket);
    void historyEntry(const QString &id, QTcpSocket *socket);
    void historyScenario(const QString &id, QTcpSocket *socket);
    // GET /v1/stats/<one of Statistics::endpoints()>: its query read, then answered from the history thread.
    void answerStats(const QHttpServerRequest &request, QTcpSocket *socket, Statistics::Plan (*plan)(const QUrlQuery &));
    Reply statsProviders(); // this engine's last 5 and 15 minutes, at most a second old
    void comparisonList(const QHttpServerRequest &request, QTcpSocket *socket);
    void comparisonEntry(const QString &id, QTcpSocket *socket);
    Reply cancelComparison(const QString &id, const ApiToken &token);
    void image(const QString &sha256, QTcpSocket *socket);
    Reply config(ApiRole role) const;
    // The providers with the endpoint and model in use (a viewer is not told where the store is).
    static QList<EngineConfig::ProviderEntry> providerEntries(const Settings &settings);
    QMap<QString, EngineConfig::Key> keyStates(const Settings &settings) const;
    // docs/api.md "Providers": breakers and drains (providerroutes.cpp).
    Reply providers() const;
    Reply drainProvider(const QHttpServerRequest &request, const QString &id, const ApiToken &token);
    Reply restoreProvider(const QHttpServerRequest &request, const QString &id, const ApiToken &token);
    Reply resetBreaker(const QHttpServerRequest &request, const QString &id, const ApiToken &token);
    Reply auditLog(const QHttpServerRequest &request);
    // docs/api.md "Alerts": the shipped rules as m_setup evaluates them, and silences (alertroutes.cpp).
    void publishAlert(QJsonObject alert);
    Reply alerts();
    static Reply storeRefusal(const QString &message);
    Reply silenceAlert(const QHttpServerRequest &request, const QString &rule, const ApiToken &token);
    Reply endSilence(const QString &rule, const ApiToken &token);
    static std::optional<Reply> framingRefusal(const QHttpServerRequest &request);
    static std::optional<Reply> headerRefusal(const QHttpServerRequest &request, const CappedTcpServer::RequestHead &head);
    // address_rate: the client's address (X-Forwarded-For believed from trusted_proxies only) over its rate.
    std::optional<Reply> addressRefusal(const QHttpServerRequest &request, const QTcpSocket *socket);
    void closeRevokedStreams();
    void announce(const BreakerChange &change);
    void syncDrains();
    void startProbes();
    void instances(QTcpSocket *socket);
    Reply readiness() const;
    Reply metrics() const;

    void onEvent(const Event &event);
    void onFinished(const GenerationResult &result);
    // Its log line (docs/contract.md 12.4); `plain`: a success without fallback, logged at debug.
    void logFinished(const GenerationResult &result, bool plain) const;
    void checkDrained();

    EngineSetup &m_setup;
    ApiTokens &m_tokens;
    Routes m_routes;
    std::unique_ptr<DrainRecords> m_drainRecords; // drains in the store, shared by every engine on it
    QTimer m_drainSync; // reads them back every second
    std::unique_ptr<Prober> m_prober; // with --probe-every
    QString m_drainSyncError; // the last failure, said once
    QString m_tokenCheckError; // the last store failure of a token check, said once
    AuditTrail m_audit;
    ServiceOptions m_options;
    QTimer m_streamOwners; // closeRevokedStreams, every second
    QSet<QString> m_awaitingStream; // draining: generations whose generation_finished has not reached the stream yet
    QElapsedTimer m_streamGrace; // since the engine had nothing running but streams still waited
    EventStream m_events;
    std::unique_ptr<StoreRelay> m_relay; // PostgreSQL: every instance's events into m_events, in the store's order
    ServiceMetrics m_metrics;
    ComparisonRunner *m_comparisons = nullptr;
    std::map<QString, QJsonObject> m_liveComparisons;

    QSet<QString> m_running; // generations started and not yet finished (any front end)
    // Finished generations, the newest m_options.resultsKept: the result (without its image bytes,
    // which are on disk) and its JSON, written when a client first asks for it, not on the thread's
    // way to the next event.
    struct KeptResult
    {
        FinalState state = FinalState::Failed;
        std::shared_ptr<const GenerationResult> result; // until its JSON is written, then released
        QByteArray json; // empty until asked for
    };
    QHash<QString, KeptResult> m_results;
    const QByteArray &resultJson(KeptResult &kept);
    std::deque<QString> m_resultOrder;
    CappedTcpServer *m_server = nullptr; // the listening socket, a child

    RateLimiter m_rates; // per token, on the monotonic clock
    TrustedProxies m_trusted; // whose X-Forwarded-For is believed
    std::optional<RateLimiter> m_addressRates; // per client address, with address_rate

    QByteArray m_providersAnswer; // GET /v1/stats/providers, at most a second old
    QElapsedTimer m_providersAge; // since m_providersAnswer was computed

    QThread m_historyThread;
    QObject *m_historyContext = nullptr; // lives on m_historyThread
    const QString m_backfillConnection; // on m_historyThread: resumed event streams read the store through it

    QDateTime m_startedAt;
    bool m_draining = false;
    QTimer m_drainTimer;
    bool m_drainedSent = false;
};

} // namespace bullpen
