// SPDX-License-Identifier: MIT
#include "remoteconnection.h"

#include "config/providerentries.h"
#include "engineendpoint.h"
#include "remotecomparisonrunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QUrl>

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
    StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    if (p.isEmpty())
        return policy;
    policy.preset = p.value(QLatin1StringView("policy")).toString(policy.preset);
    policy.primary = providerFromStored(p.value(QLatin1StringView("primary")).toString()).value_or(policy.primary);
    policy.fallback = providerFromStored(p.value(QLatin1StringView("fallback")).toString());
    policy.primaryTimeout = std::chrono::milliseconds(p.value(QLatin1StringView("primary_ms")).toInteger(policy.primaryTimeout.count()));
    policy.fallbackTimeout = std::chrono::milliseconds(p.value(QLatin1StringView("fallback_ms")).toInteger(policy.fallbackTimeout.count()));
    if (p.value(QLatin1StringView("budget_ms")).isDouble())
        policy.totalBudget = std::chrono::milliseconds(p.value(QLatin1StringView("budget_ms")).toInteger());
    return policy.routed().value_or(policy);
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
    QNetworkReply *reply = m_engine->get(QStringLiteral("/v1/providers"));
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
    QJsonObject body { { QStringLiteral("reason"), drain.reason.trimmed().left(500) } };
    if (drain.role)
        body.insert(QStringLiteral("role"), toId(*drain.role));
    if (drain.stage)
        body.insert(QStringLiteral("stage"), toId(*drain.stage));
    if (drain.until)
        body.insert(QStringLiteral("until"), drain.until->toUTC().toString(Qt::ISODateWithMs));
    providerAction(m_engine->post(QStringLiteral("/v1/providers/%1/drain").arg(toId(drain.provider)), body));
}

void RemoteConnection::restoreProvider(Provider provider)
{
    providerAction(m_engine->post(QStringLiteral("/v1/providers/%1/restore").arg(toId(provider)), QJsonObject {}));
}

void RemoteConnection::restoreDrains(const RestoreRequest &restore)
{
    QJsonObject body;
    if (!restore.reason.trimmed().isEmpty())
        body.insert(QStringLiteral("reason"), restore.reason.trimmed().left(500));
    if (restore.role)
        body.insert(QStringLiteral("role"), toId(*restore.role));
    if (restore.stage)
        body.insert(QStringLiteral("stage"), toId(*restore.stage));
    providerAction(m_engine->post(QStringLiteral("/v1/providers/%1/restore").arg(toId(restore.provider)), body));
}

void RemoteConnection::resetBreaker(const BreakerResetRequest &reset)
{
    QJsonObject body { { QStringLiteral("role"), toId(reset.role) }, { QStringLiteral("stage"), toId(reset.stage) } };
    if (!reset.reason.trimmed().isEmpty())
        body.insert(QStringLiteral("reason"), reset.reason.trimmed().left(500));
    providerAction(m_engine->post(QStringLiteral("/v1/providers/%1/reset").arg(toId(reset.provider)), body));
}

void RemoteConnection::refreshAudit()
{
    QNetworkReply *reply = m_engine->get(QStringLiteral("/v1/audit?limit=500"));
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
    QNetworkReply *reply = m_engine->get(QStringLiteral("/v1/alerts"));
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
    alertAction(
        m_engine->post(QStringLiteral("/v1/alerts/%1/silence").arg(QString::fromLatin1(QUrl::toPercentEncoding(silence.rule))), body));
}

void RemoteConnection::endSilence(const QString &rule)
{
    alertAction(m_engine->deleteResource(QStringLiteral("/v1/alerts/%1/silence").arg(QString::fromLatin1(QUrl::toPercentEncoding(rule)))));
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
