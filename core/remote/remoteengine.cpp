// SPDX-License-Identifier: MIT
#include "remoteengine.h"

#include "api/generationrequestjson.h"
#include "config/proxyrules.h"
#include "contract/recordtext.h"
#include "engine/stageservice.h"
#include "wire/apiroutes.h"
#include "wire/engineconfigjson.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QUrlQuery>

namespace bullpen {

namespace {
constexpr std::chrono::milliseconds kStreamSilence { 45000 }; // three missed heartbeats: the stream is dead
constexpr std::chrono::milliseconds kSilenceCheck { 5000 }; // a pending generation silent for twice this is asked for
constexpr int kResultTries = 40; // a result follows its last event within ms
constexpr std::chrono::milliseconds kStableStream { 10000 }; // a stream up this long resets the reconnect backoff

// No answer from the engine itself: none at all, or a load balancer's 502/504 for an engine that went
// away under the request (whether it ran is then asked of the engines behind it, never resent).
bool engineDidNotAnswer(int status)
{
    return status == 0 || status == 502 || status == 504;
}
constexpr qint64 kMaxEventBytes = 4 * 1024 * 1024; // one event of the stream (real ones: a few KiB)
constexpr qint64 kMaxResultBytes = 16 * 1024 * 1024; // a result without its comic (real ones: tens of KiB)
constexpr qint64 kMaxImageBytes = 64 * 1024 * 1024; // a comic
constexpr qint64 kMaxSmallBytes = 1024 * 1024; // a config, a start's answer
} // namespace

RemoteEngine::RemoteEngine(EngineEndpoint endpoint, QObject *parent)
    : EngineClient(parent)
    , m_endpoint(std::move(endpoint))
    , m_network(new QNetworkAccessManager(this))
    , m_stateSince(QDateTime::currentDateTime())
{
    useProxyRules(*m_network, m_endpoint.routes); // an engine behind a proxy (proxyrules.h)
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &RemoteEngine::openStream);
    // Behind a load balancer the engine that took a generation can die without this client's stream
    // noticing (the stream is on another engine): a generation silent for a while is asked for.
    m_monotonic.start();
    m_silence.setInterval(kSilenceCheck);
    connect(&m_silence, &QTimer::timeout, this, &RemoteEngine::askSilent);
    m_silence.start();
}

void RemoteEngine::askSilent()
{
    const qint64 now = m_monotonic.elapsed();
    for (const QString &id : QSet<QString>(m_pending)) {
        const auto heard = m_lastHeard.constFind(id);
        if (heard == m_lastHeard.cend()) {
            m_lastHeard.insert(id, now); // first seen by this check
            continue;
        }
        if (now - *heard >= kSilenceCheck.count() * 2 && !m_fetching.contains(id) && !m_posting.contains(id)) {
            m_lastHeard.insert(id, now);
            fetchResult(id);
        }
    }
}

RemoteEngine::~RemoteEngine()
{
    m_closing = true;
    if (m_stream)
        m_stream->abort();
}

void RemoteEngine::connectToEngine()
{
    fetchConfig();
    openStream();
}

QNetworkReply *RemoteEngine::get(const QString &path, const QUrlQuery &query)
{
    return m_network->get(m_endpoint.request(path, query));
}

QNetworkReply *RemoteEngine::post(const QString &path, const QJsonObject &body)
{
    QNetworkRequest request = m_endpoint.request(path);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QNetworkReply *RemoteEngine::deleteResource(const QString &path)
{
    return m_network->deleteResource(m_endpoint.request(path));
}

void RemoteEngine::fetchConfig()
{
    QNetworkReply *reply = m_network->get(m_endpoint.request(ApiRoutes::path(ApiRoute::Config)));
    EngineEndpoint::cap(reply, kMaxSmallBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
            return; // the stream says why the engine cannot be used
        m_config = QJsonDocument::fromJson(reply->readAll()).object();
        Q_EMIT configReceived(m_config);
    });
}

QString RemoteEngine::describeState() const
{
    const EngineIdentity engine = EngineConfigJson::identity(m_config);
    const QString who = m_config.isEmpty()
        ? m_endpoint.display()
        : QStringLiteral("%1 (instance %2, %3)").arg(m_endpoint.display(), engine.instance, engine.version);
    switch (m_state) {
    case State::Connecting:
        return tr("connecting to %1").arg(who);
    case State::Connected:
        return tr("connected to %1").arg(who);
    case State::Reconnecting:
        return tr("reconnecting to %1 since %2 (%3)").arg(who, m_stateSince.toString(QStringLiteral("HH:mm:ss")), m_stateDetail);
    case State::Refused:
        return tr("refused by %1: %2").arg(who, m_stateDetail);
    }
    return who;
}

QString RemoteEngine::pendingSummary() const
{
    return tr("%1 waiting for a result: %2 posting, %3 being asked for, %4 to ask once posted")
        .arg(m_pending.size())
        .arg(m_posting.size())
        .arg(m_fetching.size())
        .arg(m_askAfterPost.size());
}

void RemoteEngine::setState(State state, const QString &detail)
{
    const bool changed = state != m_state || detail != m_stateDetail;
    if (state != m_state)
        m_stateSince = QDateTime::currentDateTime();
    m_state = state;
    m_stateDetail = detail;
    if (changed)
        Q_EMIT stateChanged(state);
}

void RemoteEngine::openStream()
{
    if (m_closing || m_stream)
        return;
    QNetworkRequest request = m_endpoint.request(ApiRoutes::path(ApiRoute::Events));
    request.setRawHeader("Accept", "text/event-stream");
    request.setTransferTimeout(static_cast<int>(kStreamSilence.count())); // inactivity: heartbeats keep it alive
    if (!m_lastEventId.isEmpty())
        request.setRawHeader("Last-Event-ID", m_lastEventId);
    m_parser = SseParser {};
    m_stream = m_network->get(request);
    m_stream->setReadBufferSize(256 * 1024); // read as it comes: Qt holds no more than this for us
    connect(m_stream, &QNetworkReply::metaDataChanged, this, [this] {
        const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200) {
            // The backoff starts again once a stream has stayed up a while, not on its first answer: an
            // engine that drops it (or fails a read that reconnects) at once is not asked every 0.25 s.
            QTimer::singleShot(kStableStream, m_stream, [this] { m_backoffStep = 0; });
            // Without a cursor nothing is replayed: a generation started before the stream was open
            // may have sent events we never saw. Ask for the results still owed (a reset does the same);
            // and after any reconnect, whose cause may have been a result we failed to read.
            if (m_lastEventId.isEmpty() || m_state == State::Reconnecting)
                reconcile();
            // After a reconnect the engine may be another process (restarted, another instance or
            // version behind a balancer): its configuration is asked for again, so every label is current.
            if (m_config.isEmpty() || m_state == State::Reconnecting)
                fetchConfig();
            setState(State::Connected, {});
        }
    });
    connect(m_stream, &QNetworkReply::readyRead, this, &RemoteEngine::onStreamData);
    connect(m_stream, &QNetworkReply::finished, this, &RemoteEngine::onStreamEnded);
}

void RemoteEngine::onStreamData()
{
    if (!m_stream)
        return;
    if (m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return; // an error answer: read whole in onStreamEnded
    const QList<SseEvent> frames = m_parser.feed(m_stream->readAll());
    if (m_parser.bufferedBytes() > kMaxEventBytes) {
        // An event that never ends (or a line without an end): not a Bullpen engine's stream.
        QNetworkReply *stream = m_stream;
        m_stream = nullptr;
        stream->abort();
        stream->deleteLater();
        m_parser = SseParser {};
        scheduleReconnect(tr("an event on the stream passed %1 MiB without ending; is %2 a Bullpen engine?")
                              .arg(kMaxEventBytes / (1024 * 1024))
                              .arg(m_endpoint.display()));
        return;
    }
    for (const SseEvent &f : frames) {
        if (!f.id.isEmpty())
            m_lastEventId = f.id;
        if (f.event == "reset") {
            // The engine cannot continue from our cursor (it restarted, or we were away too long).
            reconcile();
            continue;
        }
        if (f.event == "overflow")
            continue; // the engine closes the stream next; we resume from the last id
        if (f.event.startsWith("breaker_") || f.event.startsWith("provider_")) {
            Q_EMIT noticeReceived(QString::fromLatin1(f.event), QJsonDocument::fromJson(f.data).object());
            continue;
        }
        QString why;
        const std::optional<Event> event = Event::fromJson(QJsonDocument::fromJson(f.data).object(), &why);
        if (!event)
            continue; // a newer engine's event type this client does not know
        Q_EMIT eventRecorded(*event);
        if (!m_pending.contains(event->generationId))
            continue;
        m_lastHeard.insert(event->generationId, m_monotonic.elapsed());
        if (std::holds_alternative<GenerationFinished>(event->body))
            fetchResult(event->generationId);
    }
}

void RemoteEngine::onStreamEnded()
{
    QNetworkReply *reply = m_stream;
    m_stream = nullptr;
    if (!reply)
        return;
    reply->deleteLater();
    if (m_closing)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 401 || status == 403) {
        setState(State::Refused, tr("the token was refused; connect again with a valid token"));
        return; // retrying cannot help
    }
    const QString why = status > 0 && status != 200 ? EngineEndpoint::errorOf(status, reply->readAll(), {})
        : reply->error() != QNetworkReply::NoError  ? reply->errorString()
                                                    : tr("the engine closed the event stream");
    scheduleReconnect(why);
}

void RemoteEngine::scheduleReconnect(const QString &why)
{
    // A stream still open (a request other than the stream failed) is closed and opened again: the
    // state said here must be one the next connection ends (with the stream left open, openStream
    // would do nothing and this client would say "reconnecting" while connected).
    if (QNetworkReply *stream = std::exchange(m_stream, nullptr)) {
        stream->disconnect(this);
        stream->abort();
        stream->deleteLater();
    }
    setState(State::Reconnecting, why);
    // 0.25 s doubling to 10 s, each wait between half and the whole of it: many consoles that lost the
    // same engine do not come back at the same instant.
    const int ceiling = std::min(10000, 250 << std::min(m_backoffStep, 6));
    const int wait = ceiling / 2 + static_cast<int>(QRandomGenerator::global()->bounded(ceiling / 2 + 1));
    ++m_backoffStep;
    m_reconnect.start(wait);
}

void RemoteEngine::reconcile()
{
    const QSet<QString> owed = m_pending;
    for (const QString &id : owed)
        fetchResult(id);
}

QString RemoteEngine::start(const GenerationRequest &request)
{
    return startBody(GenerationRequestJson::toJson(request));
}

QString RemoteEngine::startBody(QJsonObject body)
{
    QString id = body.value(QLatin1StringView("generation_id")).toString();
    if (id.isEmpty()) {
        id = StageService::newGenerationId();
        body.insert(QStringLiteral("generation_id"), id);
    }
    m_pending.insert(id);
    m_posting.insert(id);
    QNetworkRequest post = m_endpoint.request(ApiRoutes::path(ApiRoute::StartGeneration));
    post.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_network->post(post, QJsonDocument(body).toJson(QJsonDocument::Compact));
    EngineEndpoint::cap(reply, kMaxSmallBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply, id] {
        reply->deleteLater();
        m_posting.remove(id);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 202) {
            if (m_askAfterPost.remove(id))
                fetchResult(id); // a reset or a reconnect asked while the engine had not yet answered
            return; // else its events and then its result follow
        }
        const QString why = EngineEndpoint::errorOf(status, reply->readAll(), reply->errorString());
        if (status == 429 || status == 503) {
            const int after = reply->rawHeader("Retry-After").toInt();
            fail(id, FailureKind::RATE_LIMITED, tr("the engine at %1 did not start it: %2").arg(m_endpoint.display(), why),
                 std::chrono::milliseconds(std::max(1, after) * 1000));
        } else if (engineDidNotAnswer(status)) {
            // No answer: it may or may not have started. Its result is asked for once the stream is back.
            // An engine killed while it read the POST shows as any of these (Qt says "Unknown error"
            // for a reset mid-request), or behind a balancer as its 502/504.
            const QNetworkReply::NetworkError e = reply->error();
            if (status != 0 || e == QNetworkReply::OperationCanceledError || e == QNetworkReply::RemoteHostClosedError
                || e == QNetworkReply::UnknownNetworkError)
                fetchResult(id);
            else
                failUnreached(id, why);
        } else {
            if (status >= 400 && status < 500)
                Q_EMIT startRefused(id, status, why);
            fail(id, FailureKind::INTERNAL, tr("the engine at %1 refused it: %2").arg(m_endpoint.display(), why));
        }
    });
    return id;
}

bool RemoteEngine::cancel(const QString &generationId)
{
    if (!m_pending.contains(generationId))
        return false;
    QNetworkRequest post = m_endpoint.request(ApiRoutes::path(ApiRoute::CancelGeneration, { generationId }));
    post.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_network->post(post, QByteArray("{}"));
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    return true;
}

void RemoteEngine::fetchResult(const QString &id, int attempt)
{
    if (!m_pending.contains(id) || (attempt == 0 && m_fetching.contains(id)))
        return;
    if (m_posting.contains(id)) { // the engine may not know it yet: ask once it has said 202
        m_askAfterPost.insert(id);
        return;
    }
    m_fetching.insert(id);
    QNetworkReply *reply = m_network->get(m_endpoint.request(ApiRoutes::path(ApiRoute::Generation, { id })));
    EngineEndpoint::cap(reply, kMaxResultBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply, id, attempt] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (const QString capped = EngineEndpoint::capped(reply); !capped.isEmpty()) {
            m_fetching.remove(id);
            fail(id, FailureKind::INTERNAL, capped);
            return;
        }
        if (status == 429 || status == 503) {
            // The token's rate (or a drain): asked again when the engine says, not counted as a try.
            const int after = std::clamp(reply->rawHeader("Retry-After").toInt(), 1, 60);
            QTimer::singleShot(after * 1000, this, [this, id, attempt] {
                m_fetching.remove(id);
                fetchResult(id, attempt);
            });
            return;
        }
        if (status == 409 || (engineDidNotAnswer(status) && attempt < kResultTries)) {
            // Still running (the result follows its last event by a moment), or no answer: ask again.
            if (status == 409 && attempt >= kResultTries) {
                m_fetching.remove(id); // its events will say when it ends
                return;
            }
            QTimer::singleShot(std::min(2000, 25 << std::min(attempt, 6)), this, [this, id, attempt] { fetchResult(id, attempt + 1); });
            return;
        }
        m_fetching.remove(id);
        if (status == 404) {
            fail(id, FailureKind::NOT_SENT,
                 tr("the engine at %1 has no record of this generation (it may have stopped before writing it)").arg(m_endpoint.display()));
            return;
        }
        if (status != 200) {
            scheduleReconnect(EngineEndpoint::errorOf(status, body, reply->errorString()));
            return;
        }
        const QJsonObject json = QJsonDocument::fromJson(body).object();
        QString why;
        // A result from the history is the one answered when it finished; older engines answered with
        // the history row instead, which GenerationResult::fromJson does not read.
        std::optional<GenerationResult> result = GenerationResult::fromJson(json, &why);
        if (!result) {
            // Older than the results the engine keeps whole: its history row says how it ended.
            const QString state = json.value(QLatin1StringView("state")).toString();
            GenerationResult r;
            r.generationId = id;
            r.state = finalStateFromId(state).value_or(FinalState::Failed);
            if (const auto kind = enumFromName<FailureKind>(json.value(QLatin1StringView("kind")).toString()))
                r.failure = Failure { *kind, json.value(QLatin1StringView("detail")).toString(), false, std::nullopt };
            else if (r.state != FinalState::Succeeded)
                r.failure = Failure { FailureKind::INTERNAL, tr("unreadable result from the engine: %1").arg(why), false, std::nullopt };
            result = r;
        }
        deliver(std::move(*result));
    });
}

void RemoteEngine::deliver(GenerationResult result)
{
    if (!m_fetchImages || result.imageSha256.isEmpty()) {
        m_pending.remove(result.generationId);
        m_lastHeard.remove(result.generationId);
        Q_EMIT finished(result);
        return;
    }
    QNetworkReply *reply = m_network->get(m_endpoint.request(ApiRoutes::path(ApiRoute::Image, { result.imageSha256 })));
    EngineEndpoint::cap(reply, kMaxImageBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply, result]() mutable {
        reply->deleteLater();
        if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
            if (!result.image)
                result.image = StageResult {};
            result.image->image = reply->readAll();
            result.image->imageMime = reply->header(QNetworkRequest::ContentTypeHeader).toString();
        }
        result.imagePath.clear(); // the engine's file, not one on this machine
        m_pending.remove(result.generationId);
        m_lastHeard.remove(result.generationId);
        Q_EMIT finished(result);
    });
}

// What the engine did not do is never a provider's failure: the next step names the engine (the
// engine could not be reached: NOT_SENT, nothing left this console), never a provider.
void RemoteEngine::failUnreached(const QString &id, const QString &why)
{
    fail(id, FailureKind::NOT_SENT, tr("the engine at %1 could not be reached: %2").arg(m_endpoint.display(), why), {},
         RecordText::StepEngineUnreachable);
}

void RemoteEngine::fail(const QString &id, FailureKind kind, const QString &detail, std::optional<std::chrono::milliseconds> retryAfter,
                        RecordText step)
{
    m_lastHeard.remove(id);
    if (!m_pending.remove(id))
        return;
    GenerationResult r;
    r.generationId = id;
    r.state = FinalState::Failed;
    r.failure = Failure { kind, detail, false, retryAfter };
    r.storyboard.generationId = id;
    NextStep next;
    next.action = NextStep::Action::Retry;
    next.message = recordText(step, { m_endpoint.display() });
    r.nextStep = next;
    Q_EMIT finished(r);
}

} // namespace bullpen
