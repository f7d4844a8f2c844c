// SPDX-License-Identifier: MIT
#include "remoteconnection.h"

#include "api/breakerjson.h"
#include "config/providerentries.h"
#include "engineendpoint.h"
#include "remotecomparisonrunner.h"
#include "runtime/replayrunner.h"
#include "wire/apiroutes.h"
#include "wire/engineconfigjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QUrlQuery>

namespace bullpen {

RemoteConnection::RemoteConnection(EngineEndpoint endpoint, QObject *parent)
    : EngineConnection(parent)
    , m_engine(std::make_unique<RemoteEngine>(endpoint))
    , m_history(std::make_unique<RemoteHistory>(endpoint))
    , m_storeWatch(std::make_unique<RemoteStoreWatch>(endpoint))
{
    m_engine->setFetchImages(true); // the console shows the comic; the engine's files are not ours
    connect(m_engine.get(), &RemoteEngine::stateChanged, this, &EngineConnection::statusChanged);
    connect(m_engine.get(), &RemoteEngine::configReceived, this, [this] {
        adoptProviders();
        Q_EMIT configChanged();
        Q_EMIT statusChanged();
    });
    // A breaker or drain changed on the engine: show it now, not at the next refresh.
    connect(m_engine.get(), &RemoteEngine::noticeReceived, this, &RemoteConnection::refreshProviders);
}

RemoteConnection::~RemoteConnection() = default;

void RemoteConnection::adoptProviders()
{
    // The engine's added providers become this connection's: the console's pickers, filters and cards
    // list them. The process's registry only learns their ids (interned by the table), so another
    // connection, a replay or an engine in this process never lists them.
    const QJsonObject answer = m_engine->config();
    QJsonArray added;
    for (const EngineConfig::ProviderEntry &p : EngineConfigJson::providers(answer)) {
        if (!p.builtIn)
            added.append(p.entry);
    }
    QList<ConfigError> ignored; // an engine's list was valid there; an entry this console cannot read stays unlisted
    m_providers.adopt(ProviderEntries::read(added, QStringLiteral("engine"), &ignored).added);
    // The rest of the answer, now that a policy naming an added provider can be read.
    auto read = EngineConfigJson::fromJson(answer);
    if (const auto *refused = std::get_if<FieldError>(&read)) {
        qWarning("bullpen: the engine's configuration cannot be read (%s); the contract's defaults are shown",
                 qPrintable(refused->toString()));
        m_config.reset();
        return;
    }
    m_config = std::get<EngineConfig>(std::move(read));
}

StagePolicy RemoteConnection::storyboardPolicy() const
{
    // The engine's own storyboard policy (GET /v1/config); until it arrives, the contract's defaults.
    return m_config ? m_config->storyboardPolicy : StagePolicy::relief(Provider::Gemini, Provider::Qwen);
}

QStringList RemoteConnection::scenarios() const
{
    return m_config ? m_config->scenarios : QStringList();
}

QString RemoteConnection::defaultScenario() const
{
    return m_config ? m_config->scenario : QString();
}

QString RemoteConnection::describe() const
{
    const QString engine = m_engine->describeState();
    const QString what = m_config ? m_config->describe : QString();
    return what.isEmpty() ? tr("Attached: %1").arg(engine) : tr("Attached: %1 — %2").arg(engine, what);
}

ReplayPlayer *RemoteConnection::newReplay(QObject *parent)
{
    return new ReplayRunner(nullptr, nullptr, parent);
}

ComparisonRunner *RemoteConnection::newComparisonRunner(QObject *parent)
{
    // The engine runs both sides and keeps the comparison, as an embedded engine does.
    return new RemoteComparisonRunner(*m_engine, parent);
}

} // namespace bullpen

namespace bullpen {

namespace {

constexpr qint64 kMaxProvidersBytes = 1024 * 1024; // the engine's provider list is a few KiB

} // namespace

void RemoteConnection::refreshProviders()
{
    QNetworkReply *reply = m_engine->get(ApiRoutes::path(ApiRoute::Providers));
    EngineEndpoint::cap(reply, kMaxProvidersBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->read(kMaxProvidersBytes);
        if (status == 200)
            Q_EMIT providersChanged(QJsonDocument::fromJson(body).object());
    });
}

void RemoteConnection::drainProvider(const DrainRequest &drain)
{
    providerAction(m_engine->post(ApiRoutes::path(ApiRoute::DrainProvider, { toId(drain.provider) }), BreakerJson::drainRequest(drain)));
}

void RemoteConnection::restoreProvider(Provider provider)
{
    providerAction(m_engine->post(ApiRoutes::path(ApiRoute::RestoreProvider, { toId(provider) }), QJsonObject {}));
}

void RemoteConnection::restoreDrains(const RestoreRequest &restore)
{
    providerAction(
        m_engine->post(ApiRoutes::path(ApiRoute::RestoreProvider, { toId(restore.provider) }), BreakerJson::restoreRequest(restore)));
}

void RemoteConnection::resetBreaker(const BreakerResetRequest &reset)
{
    providerAction(m_engine->post(ApiRoutes::path(ApiRoute::ResetBreaker, { toId(reset.provider) }), BreakerJson::resetRequest(reset)));
}

void RemoteConnection::refreshAudit()
{
    // The query apart from the path: "/v1/audit?limit=500" as a path is sent as /v1/audit%3Flimit=500, a 404.
    QNetworkReply *reply =
        m_engine->get(ApiRoutes::path(ApiRoute::Audit), QUrlQuery { { QStringLiteral("limit"), QStringLiteral("500") } });
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxProvidersBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->read(kMaxProvidersBytes);
        if (status == 200)
            Q_EMIT auditChanged(QJsonDocument::fromJson(body).object().value(QLatin1StringView("entries")).toArray());
        else
            Q_EMIT providerActionFailed(EngineEndpoint::errorOf(status, body, reply->errorString()));
    });
}

void RemoteConnection::refreshAlerts()
{
    QNetworkReply *reply = m_engine->get(ApiRoutes::path(ApiRoute::Alerts));
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxProvidersBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200)
            Q_EMIT alertsChanged(QJsonDocument::fromJson(reply->read(kMaxProvidersBytes)).object());
    });
}

void RemoteConnection::silenceAlert(const SilenceRequest &silence)
{
    const QJsonObject body { { QStringLiteral("for_s"), double(silence.length.count()) },
                             { QStringLiteral("reason"), silence.reason.trimmed().left(500) } };
    alertAction(m_engine->post(ApiRoutes::path(ApiRoute::SilenceAlert, { silence.rule }), body));
}

void RemoteConnection::endSilence(const QString &rule)
{
    alertAction(m_engine->deleteResource(ApiRoutes::path(ApiRoute::EndSilence, { rule })));
}

void RemoteConnection::alertAction(QNetworkReply *reply)
{
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200) {
            refreshAlerts();
            refreshAudit();
        } else
            Q_EMIT providerActionFailed(EngineEndpoint::errorOf(status, reply->read(64 * 1024), reply->errorString()));
    });
}

void RemoteConnection::providerAction(QNetworkReply *reply)
{
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200) {
            refreshProviders();
            refreshAudit();
        } else
            Q_EMIT providerActionFailed(EngineEndpoint::errorOf(status, reply->read(64 * 1024), reply->errorString()));
    });
}

} // namespace bullpen
