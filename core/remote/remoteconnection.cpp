// SPDX-License-Identifier: MIT
#include "remoteconnection.h"

#include "api/breakerjson.h"
#include "config/providerentries.h"
#include "engineendpoint.h"
#include "remotecomparisonrunner.h"
#include "runtime/replayrunner.h"
#include "wire/apiroutes.h"
#include "wire/storyboardpolicyjson.h"

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
    // The engine's added providers become this console's: its pickers, filters and cards list them.
    QJsonArray added;
    for (const QJsonValue &v : m_engine->config().value(QLatin1StringView("providers")).toArray()) {
        QJsonObject o = v.toObject();
        if (o.value(QLatin1StringView("built_in")).toBool(true))
            continue;
        o.remove(QStringLiteral("built_in"));
        added.append(o);
    }
    QList<ConfigError> ignored; // an engine's list was valid there; an entry this console cannot read stays unlisted
    ProviderRegistry::adopt(ProviderEntries::read(added, QStringLiteral("engine"), &ignored).added);
}

StagePolicy RemoteConnection::storyboardPolicy() const
{
    // The engine's own storyboard policy (GET /v1/config); until it arrives, the contract's defaults.
    const QJsonObject p = m_engine->config().value(QLatin1StringView("storyboard_policy")).toObject();
    const StagePolicy defaults = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    if (p.isEmpty())
        return defaults;
    auto read = StoryboardPolicyJson::fromJson(p);
    if (const auto *refused = std::get_if<FieldError>(&read)) {
        qWarning("bullpen: the engine's storyboard policy cannot be read (%s); the contract's defaults are shown",
                 qPrintable(refused->toString()));
        return defaults;
    }
    return std::get<StagePolicy>(read);
}

QStringList RemoteConnection::scenarios() const
{
    QStringList out;
    for (const QJsonValue &v : m_engine->config().value(QLatin1StringView("scenarios")).toArray())
        out << v.toString();
    return out;
}

QString RemoteConnection::defaultScenario() const
{
    return m_engine->config().value(QLatin1StringView("scenario")).toString();
}

QString RemoteConnection::describe() const
{
    const QString engine = m_engine->describeState();
    const QString what = m_engine->config().value(QLatin1StringView("describe")).toString();
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
