// SPDX-License-Identifier: MIT
#include "remotecomparisonrunner.h"

#include "api/historyjson.h"
#include "remoteengine.h"
#include "wire/apiroutes.h"
#include "wire/storyboardpolicyjson.h"

#include <QJsonDocument>
#include <QNetworkReply>
#include <QUuid>

namespace bullpen {

RemoteComparisonRunner::RemoteComparisonRunner(RemoteEngine &engine, QObject *parent)
    : ComparisonRunner(engine, parent)
    , m_remote(engine)
{
    m_poll.setInterval(150);
    connect(&m_poll, &QTimer::timeout, this, &RemoteComparisonRunner::poll);
}

QString RemoteComparisonRunner::start(const ComparisonRequest &request)
{
    // The id is the engine's, known once it answers; until then the caller holds a local one that the
    // signals carry too (a comparison's id is the engine's from its first update on).
    const QString localId = QStringLiteral("cmp_") + QUuid::createUuid().toString(QUuid::Id128);
    QJsonObject body { { QStringLiteral("story"), request.story },
                       { QStringLiteral("primary"), toId(request.primary) },
                       { QStringLiteral("fallback"), toId(request.fallback) },
                       { QStringLiteral("timeouts"), StoryboardPolicyJson::timeouts(request.primaryTimeout, request.fallbackTimeout) } };
    if (!request.userId.isEmpty())
        body.insert(QStringLiteral("user_id"), request.userId);
    if (!request.scenario.isEmpty())
        body.insert(QStringLiteral("scenario"), request.scenario);
    m_following[localId] = Followed {};
    QNetworkReply *reply = m_remote.post(ApiRoutes::path(ApiRoute::StartComparison), body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, localId, request] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray answer = reply->readAll();
        const auto it = m_following.find(localId);
        if (it == m_following.end())
            return;
        if (status != 202) {
            refused(localId, request, EngineEndpoint::errorOf(status, answer, reply->errorString()));
            return;
        }
        it->second.engineId = QJsonDocument::fromJson(answer).object().value(QLatin1StringView("comparison_id")).toString();
        if (it->second.cancelRequested)
            cancel(localId);
        m_poll.start();
    });
    return localId;
}

void RemoteComparisonRunner::refused(const QString &localId, const ComparisonRequest &request, const QString &why)
{
    m_following.erase(localId);
    Comparison c;
    c.id = localId;
    c.createdAtMs = QDateTime::currentMSecsSinceEpoch();
    for (auto [side, provider] : { std::pair { &c.primary, request.primary }, std::pair { &c.fallback, request.fallback } }) {
        side->provider = provider;
        side->done = true;
        side->state = FinalState::Failed;
        side->publicCode = enumName(PublicCode::INTERNAL_ERROR);
        side->kind = enumName(FailureKind::INTERNAL);
        side->detail = tr("the engine did not start the comparison: %1").arg(why);
    }
    Q_EMIT updated(c);
    Q_EMIT finished(c);
}

void RemoteComparisonRunner::cancel(const QString &comparisonId)
{
    const auto it = m_following.find(comparisonId);
    if (it == m_following.end())
        return;
    it->second.cancelRequested = true;
    if (it->second.engineId.isEmpty())
        return; // sent once the engine has said which comparison it is
    QNetworkReply *reply = m_remote.post(ApiRoutes::path(ApiRoute::CancelComparison, { it->second.engineId }), {});
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
}

void RemoteComparisonRunner::poll()
{
    if (m_following.empty()) {
        m_poll.stop();
        return;
    }
    for (auto &[localId, followed] : m_following) {
        if (followed.engineId.isEmpty() || followed.inFlight)
            continue;
        followed.inFlight = true;
        QNetworkReply *reply = m_remote.get(ApiRoutes::path(ApiRoute::Comparison, { followed.engineId }));
        connect(reply, &QNetworkReply::finished, this, [this, reply, id = localId] {
            reply->deleteLater();
            const auto it = m_following.find(id);
            if (it == m_following.end())
                return;
            it->second.inFlight = false;
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
                return; // asked again on the next tick
            const QJsonObject json = QJsonDocument::fromJson(reply->readAll()).object();
            const std::optional<Comparison> c = Comparison::fromRow(HistoryJson::comparisonFromJson(json));
            if (!c)
                return;
            const int done = (c->primary.done ? 1 : 0) + (c->fallback.done ? 1 : 0);
            if (done == 2 && it->second.sidesDone == 0) {
                // Both ended between two looks: say so side by side, the quicker one first, as the
                // embedded runner does (one update per side).
                Comparison first = *c;
                ComparisonSide &later = c->primary.totalMs <= c->fallback.totalMs ? first.fallback : first.primary;
                ComparisonSide pending;
                pending.provider = later.provider;
                pending.timeout = later.timeout;
                pending.generationId = later.generationId;
                later = pending;
                Q_EMIT updated(first);
            }
            if (done > it->second.sidesDone) {
                it->second.sidesDone = done;
                Q_EMIT updated(*c);
            }
            if (c->finished() && !json.value(QLatin1StringView("running")).toBool()) {
                m_following.erase(it);
                Q_EMIT finished(*c);
            }
        });
    }
}

} // namespace bullpen
