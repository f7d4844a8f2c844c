// SPDX-License-Identifier: MIT
#include "adminhandlers.h"

#include "api/auditjson.h"
#include "audittrail.h"
#include "config/keytransport.h"
#include "config/providerentries.h"
#include "eventstream.h"
#include "processmetrics.h"
#include "providerhandlers.h"
#include "runtime/enginesetup.h"
#include "servicecontext.h"
#include "servicemetrics.h"
#include "sim/cappedtcpserver.h"
#include "sim/scenario.h"
#include "store/apitokens.h"
#include "store/store.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QSslCertificate>
#include <QTcpSocket>
#include <QUrlQuery>

namespace bullpen {

AdminHandlers::AdminHandlers(ServiceContext &context, ApiTokens &tokens, const ServiceMetrics &metrics, const ProviderHandlers &providers,
                             CappedTcpServer *const &server)
    : m_context(context)
    , m_tokens(tokens)
    , m_metrics(metrics)
    , m_providers(providers)
    , m_server(server)
    , m_startedAt(QDateTime::currentDateTimeUtc())
{
}

// The engine's providers as its own settings list them (an attached console's pickers follow this).
QList<EngineConfig::ProviderEntry> AdminHandlers::providerEntries(const Settings &settings)
{
    QList<EngineConfig::ProviderEntry> out;
    for (const ProviderSpec &spec : ProviderEntries::inUse(settings))
        out << EngineConfig::ProviderEntry { ProviderEntries::toJson(spec), spec.builtIn };
    return out;
}

// Where each provider's key comes from, and its last four characters where one is configured.
QMap<QString, EngineConfig::Key> AdminHandlers::keyStates(const Settings &s) const
{
    QMap<QString, EngineConfig::Key> keys;
    for (const auto &[provider, ps] : s.providers) {
        const QString source = ps.keySource == SettingSource::Environment ? QStringLiteral("environment")
            : ps.keySource == SettingSource::KeyFile                      ? QStringLiteral("key_file")
            : ps.keySource == SettingSource::Keychain                     ? QStringLiteral("keychain")
            : ps.keySource == SettingSource::File                         ? QStringLiteral("settings_file")
                                                                          : QStringLiteral("none");
        // Against the built-in simulator the key is the simulator's own per-run secret: nothing of it is shown.
        const bool configured = ps.hasKey() && ps.keySource != SettingSource::Default && !m_context.setup.usingSimulator();
        keys.insert(toId(provider),
                    EngineConfig::Key { m_context.setup.usingSimulator() ? QStringLiteral("simulator")
                                            : configured                 ? source
                                                                         : QStringLiteral("none"),
                                        configured && ps.apiKey.size() >= 12 ? std::optional(ps.apiKey.right(4)) : std::nullopt });
    }
    return keys;
}

ApiReply AdminHandlers::config(ApiRole role) const
{
    const Settings &s = m_context.setup.settings();
    EngineConfig c;
    c.instance = m_context.options.instance;
    c.version = m_context.options.version;
    c.settings = SettingsFile::toJson(s);
    c.storyboardPolicy = m_context.setup.storyboardPolicy();
    c.scenario = m_context.setup.defaultScenario();
    c.keys = keyStates(s);
    c.providers = providerEntries(s);
    if (!m_context.setup.usingSimulator())
        for (const KeyTransportWarning &w : keyTransportWarnings(s))
            c.warnings << w.text;
    c.simulator = m_context.setup.usingSimulator();
    if (m_providers.probing())
        c.probeEvery = m_context.options.probeEvery;
    if (const Store *store = m_context.setup.store())
        // Where it is (never the password) is the operators' to know, not a viewer's.
        c.store = EngineConfig::StoreInfo { store->storeLocation().isPostgres() ? QStringLiteral("postgresql") : QStringLiteral("sqlite"),
                                            role == ApiRole::Operator ? std::optional(store->databasePath()) : std::nullopt };
    if (m_context.options.tls) {
        const QSslCertificate leaf = m_context.options.tls->localCertificate();
        c.tls = EngineConfig::Tls { leaf.subjectDisplayName(), leaf.issuerDisplayName(), leaf.expiryDate().toString(Qt::ISODate) };
    }
    if (m_context.setup.usingSimulator())
        c.scenarios = Scenario::builtInNames();
    c.engineThreads = m_context.setup.engine().threadCount();
    c.describe = m_context.setup.describe();
    c.limits = EngineConfig::Limits {
        m_context.options.maxBodyBytes,
        m_context.options.request.maxStoryBytes,
        m_context.options.maxHeaderBytes,
        m_context.options.maxInFlight,
        m_context.options.tokenRate,
        m_context.options.events.maxSubscribers,
        m_context.options.connections.maxConnections,
        m_context.options.connections.maxPerAddress,
        m_context.options.connections.request,
        m_context.options.connections.idle,
    };
    return ApiReply::json(200, EngineConfigJson::toJson(c));
}

void AdminHandlers::instances(QTcpSocket *socket) const
{
    // This engine as it is now, and every other one by its heartbeat row in the shared store: "up"
    // while its heartbeat is younger than its lease, "gone" after (its running generations are then
    // finished as ABANDONED by whichever engine sees them first).
    const QJsonObject self { { QStringLiteral("name"), m_context.options.instance },
                             { QStringLiteral("version"), m_context.options.version },
                             { QStringLiteral("started_at"), m_startedAt.toString(Qt::ISODateWithMs) },
                             { QStringLiteral("in_flight"), m_context.setup.engine().activeCount() },
                             { QStringLiteral("last_heartbeat"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
                             { QStringLiteral("draining"), m_context.draining },
                             { QStringLiteral("status"), m_context.draining ? QStringLiteral("draining") : QStringLiteral("up") },
                             { QStringLiteral("this"), true },
                             { QStringLiteral("url"), m_context.options.url().toString() } };
    Store *store = m_context.setup.store();
    if (!store) {
        m_context.write(socket, ApiReply::json(200, QJsonObject { { QStringLiteral("instances"), QJsonArray { self } } }));
        return;
    }
    const QString me = m_context.options.instance;
    m_context.answerLater(socket, [store, self, me] {
        QString why;
        const QList<HistoryQueries::InstanceRow> rows = store->instances(&why);
        if (!why.isEmpty())
            return ApiReply::historyUnreadable(why);
        QJsonArray out { self };
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const HistoryQueries::InstanceRow &r : rows) {
            if (r.name == me)
                continue;
            const auto iso = [](qint64 ms) {
                return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
            };
            out.append(QJsonObject {
                { QStringLiteral("name"), r.name },
                { QStringLiteral("version"), r.version },
                { QStringLiteral("started_at"), iso(r.startedAtMs) },
                { QStringLiteral("in_flight"), r.inFlight },
                { QStringLiteral("last_heartbeat"), iso(r.heartbeatMs) },
                { QStringLiteral("status"), now - r.heartbeatMs <= r.leaseMs ? QStringLiteral("up") : QStringLiteral("gone") },
                { QStringLiteral("this"), false },
                { QStringLiteral("url"), r.url.isEmpty() ? QJsonValue() : QJsonValue(r.url) } });
        }
        return ApiReply::json(200, QJsonObject { { QStringLiteral("instances"), out } });
    });
}

ApiReply AdminHandlers::auditLog(const QHttpServerRequest &request)
{
    const QUrlQuery query(request.url());
    int limit = 200;
    if (const QString l = query.queryItemValue(QStringLiteral("limit")); !l.isEmpty()) {
        bool ok = false;
        limit = l.toInt(&ok);
        if (!ok || limit < 1 || limit > 1000)
            return ApiReply::error(400, QStringLiteral("limit: a whole number from 1 to 1000"), QStringLiteral("limit"));
    }
    const QString action = query.queryItemValue(QStringLiteral("action")).left(32);
    m_context.audit.flush(); // what this engine was asked a moment ago is in the answer
    QString why;
    const QList<AuditEntry> rows = m_tokens.auditLog(limit, &why);
    if (!why.isEmpty())
        return ApiReply::error(503,
                               QStringLiteral("the audit could not be read (%1); try again when the store answers").arg(why.left(200)));
    return ApiReply::json(200, AuditJson::entries(rows, action));
}

ApiReply AdminHandlers::readiness() const
{
    QString reason;
    const HistoryWriteStats writes = m_context.setup.historyWrites() ? m_context.setup.historyWrites()->writeStats() : HistoryWriteStats {};
    if (m_context.draining)
        reason = QStringLiteral("draining: this engine is shutting down");
    else if (writes.unreachableSinceMs > 0)
        // The store's own error (SQL, a statement) is in the engine's log, never in this public answer.
        reason = QStringLiteral("the store is unreachable since %1; records are held and the connection is being re-made (the "
                                "engine's log says why)")
                     .arg(QDateTime::fromMSecsSinceEpoch(writes.unreachableSinceMs).toUTC().toString(Qt::ISODate));
    else if (writes.failed > 0 && writes.lastError == writes.firstError && writes.written == 0)
        reason = QStringLiteral("the store has failed every write so far (the engine's log says why)");
    if (!reason.isEmpty()) {
        QJsonObject o { { QStringLiteral("ready"), false }, { QStringLiteral("reason"), reason } };
        if (writes.unreachableSinceMs > 0) // for an attached console's status bar (RemoteStoreWatch)
            o.insert(QStringLiteral("store_unreachable_since_ms"), static_cast<double>(writes.unreachableSinceMs));
        return ApiReply::json(503, o);
    }
    return ApiReply::json(200,
                          QJsonObject { { QStringLiteral("ready"), true }, { QStringLiteral("instance"), m_context.options.instance } });
}

ApiReply AdminHandlers::metrics() const
{
    ServiceMetrics::Gauges g;
    g.generationsInFlight = m_context.setup.engine().activeCount();
    g.sseSubscribers = m_context.events.subscribers();
    g.sseOverflows = m_context.events.overflows();
    g.sseBackfilled = m_context.events.backfilledEvents();
    if (m_server) {
        g.connectionsOpen = m_server->open();
        for (int i = 0; i < CappedTcpServer::kEndedKinds; ++i) {
            const auto e = static_cast<CappedTcpServer::Ended>(i);
            g.connectionsEnded.emplace_back(CappedTcpServer::endedName(e), m_server->ended(e));
        }
    }
    if (HistoryWrites *w = m_context.setup.historyWrites()) {
        const HistoryWriteStats st = w->writeStats();
        g.storeWriteFailures = st.failed;
        g.storeWritesQueued = st.queued;
        g.storeWriteBacklog = st.queued > st.written + st.failed ? st.queued - st.written - st.failed : 0;
        g.storeReachable = st.unreachableSinceMs == 0;
    }
    if (const Store *store = m_context.setup.store())
        g.retention = store->retentionStats();
    g.draining = m_context.draining;
    g.auditWriteFailures = m_context.audit.failures();
    g.breakers = m_context.setup.engine().breakers().breakers(m_context.setup.context().clock->now());
    g.drains = m_context.setup.engine().breakers().drains();
    g.version = m_context.options.version;
    if (const ProviderSimulator *simulator = m_context.setup.simulator()) {
        for (Provider p : m_context.setup.settings().providerTable.all())
            g.simulatorRequests[p] = simulator->counters(p).requests;
    }
    return ApiReply { 200, m_metrics.prometheus(g) + processMetrics(), "text/plain; version=0.0.4; charset=utf-8", {} };
}

} // namespace bullpen
