// SPDX-License-Identifier: MIT
// EngineService's handlers about the engine itself (docs/api.md, "Operations"): its configuration,
// the instances sharing its store, readiness and /metrics.
#include "config/keytransport.h"
#include "config/providerentries.h"
#include "contract/providerregistry.h"
#include "engineservice.h"
#include "prober.h"
#include "processmetrics.h"
#include "runtime/enginesetup.h"
#include "sim/cappedtcpserver.h"
#include "sim/scenario.h"
#include "store/store.h"
#include "wire/storyboardpolicyjson.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QSslCertificate>
#include <QTcpSocket>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

// The engine's providers as its registry lists them (an attached console's pickers follow this).
QJsonArray EngineService::providersJson(const Settings &settings)
{
    QJsonArray out;
    for (const Provider p : ProviderRegistry::all()) {
        ProviderSpec spec = ProviderRegistry::spec(p);
        // The endpoint and model in use (an override, or the simulator's), not the registry's public ones.
        if (const auto it = settings.providers.find(p); it != settings.providers.end()) {
            if (it->second.baseUrl.isValid())
                spec.baseUrl = it->second.baseUrl;
            if (!it->second.model.isEmpty())
                spec.model = it->second.model;
        }
        QJsonObject o = ProviderEntries::toJson(spec);
        o.insert(QStringLiteral("built_in"), spec.builtIn);
        out.append(o);
    }
    return out;
}

EngineService::Reply EngineService::config(ApiRole role) const
{
    const Settings &s = m_setup.settings();
    QJsonObject keys;
    for (const auto &[provider, ps] : s.providers) {
        const QString source = ps.keySource == SettingSource::Environment ? QStringLiteral("environment")
            : ps.keySource == SettingSource::KeyFile                      ? QStringLiteral("key_file")
            : ps.keySource == SettingSource::Keychain                     ? QStringLiteral("keychain")
            : ps.keySource == SettingSource::File                         ? QStringLiteral("settings_file")
                                                                          : QStringLiteral("none");
        // Against the built-in simulator the key is the simulator's own per-run secret: nothing of it is shown.
        const bool configured = ps.hasKey() && ps.keySource != SettingSource::Default && !m_setup.usingSimulator();
        keys.insert(toId(provider),
                    QJsonObject { { QStringLiteral("source"),
                                    m_setup.usingSimulator() ? QStringLiteral("simulator")
                                        : configured         ? source
                                                             : QStringLiteral("none") },
                                  { QStringLiteral("last4"),
                                    configured && ps.apiKey.size() >= 12 ? QJsonValue(ps.apiKey.right(4)) : QJsonValue() } });
    }
    return json(
        200,
        QJsonObject {
            { QStringLiteral("instance"), m_options.instance },
            { QStringLiteral("version"), m_options.version },
            { QStringLiteral("settings"), SettingsFile::toJson(s) },
            { QStringLiteral("storyboard_policy"), StoryboardPolicyJson::toJson(m_setup.storyboardPolicy()) },
            { QStringLiteral("scenario"), m_setup.defaultScenario() },
            { QStringLiteral("keys"), keys },
            { QStringLiteral("providers"), providersJson(s) },
            { QStringLiteral("warnings"),
              [&] {
                  QJsonArray out;
                  if (!m_setup.usingSimulator())
                      for (const KeyTransportWarning &w : keyTransportWarnings(s))
                          out.append(w.text);
                  return out;
              }() },
            { QStringLiteral("simulator"), m_setup.usingSimulator() },
            { QStringLiteral("probe_every_ms"), m_prober ? QJsonValue(static_cast<double>(m_options.probeEvery.count())) : QJsonValue() },
            { QStringLiteral("store"),
              [&]() -> QJsonValue {
                  const Store *store = m_setup.store();
                  if (!store)
                      return QJsonValue::Null;
                  // Where it is (never the password) is the operators' to know, not a viewer's.
                  return QJsonObject { { QStringLiteral("backend"),
                                         store->storeLocation().isPostgres() ? QStringLiteral("postgresql") : QStringLiteral("sqlite") },
                                       { QStringLiteral("location"),
                                         role == ApiRole::Operator ? QJsonValue(store->databasePath()) : QJsonValue() } };
              }() },
            { QStringLiteral("tls"),
              [&]() -> QJsonValue {
                  if (!m_options.tls)
                      return QJsonValue::Null;
                  const QSslCertificate leaf = m_options.tls->localCertificate();
                  return QJsonObject { { QStringLiteral("subject"), leaf.subjectDisplayName() },
                                       { QStringLiteral("issuer"), leaf.issuerDisplayName() },
                                       { QStringLiteral("expires"), leaf.expiryDate().toString(Qt::ISODate) } };
              }() },
            { QStringLiteral("scenarios"), m_setup.usingSimulator() ? QJsonArray::fromStringList(Scenario::builtInNames()) : QJsonArray() },
            { QStringLiteral("engine_threads"), m_setup.engine().threadCount() },
            { QStringLiteral("describe"), m_setup.describe() },
            { QStringLiteral("limits"),
              QJsonObject { { QStringLiteral("max_body_bytes"), static_cast<double>(m_options.maxBodyBytes) },
                            { QStringLiteral("max_story_bytes"), static_cast<double>(m_options.request.maxStoryBytes) },
                            { QStringLiteral("max_header_bytes"), static_cast<double>(m_options.maxHeaderBytes) },
                            { QStringLiteral("max_in_flight"), m_options.maxInFlight },
                            { QStringLiteral("token_rate_per_s"), m_options.tokenRate },
                            { QStringLiteral("max_subscribers"), m_options.events.maxSubscribers },
                            { QStringLiteral("max_connections"), m_options.connections.maxConnections },
                            { QStringLiteral("max_connections_per_address"), m_options.connections.maxPerAddress },
                            { QStringLiteral("request_timeout_ms"), static_cast<double>(m_options.connections.request.count()) },
                            { QStringLiteral("idle_timeout_ms"), static_cast<double>(m_options.connections.idle.count()) } } },
        });
}

void EngineService::instances(QTcpSocket *socket)
{
    // This engine as it is now, and every other one by its heartbeat row in the shared store: "up"
    // while its heartbeat is younger than its lease, "gone" after (its running generations are then
    // finished as ABANDONED by whichever engine sees them first).
    const QJsonObject self { { QStringLiteral("name"), m_options.instance },
                             { QStringLiteral("version"), m_options.version },
                             { QStringLiteral("started_at"), m_startedAt.toString(Qt::ISODateWithMs) },
                             { QStringLiteral("in_flight"), m_setup.engine().activeCount() },
                             { QStringLiteral("last_heartbeat"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
                             { QStringLiteral("draining"), m_draining },
                             { QStringLiteral("status"), m_draining ? QStringLiteral("draining") : QStringLiteral("up") },
                             { QStringLiteral("this"), true },
                             { QStringLiteral("url"), url().toString() } };
    Store *store = m_setup.store();
    if (!store) {
        write(socket, json(200, QJsonObject { { QStringLiteral("instances"), QJsonArray { self } } }));
        return;
    }
    const QString me = m_options.instance;
    answerLater(socket, [store, self, me] {
        QString why;
        const QList<HistoryQueries::InstanceRow> rows = store->instances(&why);
        if (!why.isEmpty())
            return historyUnreadable(why);
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
        return json(200, QJsonObject { { QStringLiteral("instances"), out } });
    });
}

EngineService::Reply EngineService::readiness() const
{
    QString reason;
    const HistoryWriteStats writes = m_setup.historyWrites() ? m_setup.historyWrites()->writeStats() : HistoryWriteStats {};
    if (m_draining)
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
        return json(503, o);
    }
    return json(200, QJsonObject { { QStringLiteral("ready"), true }, { QStringLiteral("instance"), m_options.instance } });
}

EngineService::Reply EngineService::metrics() const
{
    ServiceMetrics::Gauges g;
    g.generationsInFlight = m_setup.engine().activeCount();
    g.sseSubscribers = m_events.subscribers();
    g.sseOverflows = m_events.overflows();
    g.sseBackfilled = m_events.backfilledEvents();
    if (m_server) {
        g.connectionsOpen = m_server->open();
        for (int i = 0; i < CappedTcpServer::kEndedKinds; ++i) {
            const auto e = static_cast<CappedTcpServer::Ended>(i);
            g.connectionsEnded.emplace_back(CappedTcpServer::endedName(e), m_server->ended(e));
        }
    }
    if (HistoryWrites *w = m_setup.historyWrites()) {
        const HistoryWriteStats st = w->writeStats();
        g.storeWriteFailures = st.failed;
        g.storeWritesQueued = st.queued;
        g.storeWriteBacklog = st.queued > st.written + st.failed ? st.queued - st.written - st.failed : 0;
        g.storeReachable = st.unreachableSinceMs == 0;
    }
    if (const Store *store = m_setup.store())
        g.retention = store->retentionStats();
    g.draining = m_draining;
    g.auditWriteFailures = m_audit.failures();
    g.breakers = m_setup.engine().breakers().breakers(SteadyClock::instance().now());
    g.drains = m_setup.engine().breakers().drains();
    g.version = m_options.version;
    if (const ProviderSimulator *simulator = m_setup.simulator()) {
        for (Provider p : ProviderRegistry::all())
            g.simulatorRequests[p] = simulator->counters(p).requests;
    }
    return Reply { 200, m_metrics.prometheus(g) + processMetrics(), "text/plain; version=0.0.4; charset=utf-8", {} };
}

} // namespace bullpen
