// SPDX-License-Identifier: MIT
#include "engineservice.h"

#include "api/controlcharacters.h"
#include "engine/backgroundthread.h"
#include "engine/tsanseed.h"
#include "pipeline/generationresult.h"
#include "processmetrics.h"
#include "runtime/enginesetup.h"
#include "sim/cappedtcpserver.h"
#include "sim/httpserving.h"
#include "store/apitokens.h"
#include "store/store.h"

#include <QHostInfo>
#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QTcpSocket>
#include <QUuid>

#include <cmath>

// Info by default; QT_LOGGING_RULES="bullpen.api.debug=true" adds one line per request (method, path, status, time, token name).
Q_LOGGING_CATEGORY(lcApi, "bullpen.api", QtInfoMsg)

namespace bullpen {

namespace {
constexpr std::chrono::milliseconds kStreamGrace { 5000 }; // draining: how long the streams wait for relayed final events
} // namespace

namespace {

using Method = QHttpServerRequest::Method;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// The path's segments after the leading slash: "/v1/generations/gen_1/cancel" → v1, generations, gen_1, cancel.
QStringList segments(const QUrl &url)
{
    QStringList parts = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts;
}

qint64 headerBytes(const QHttpServerRequest &request)
{
    qint64 n = request.url().toEncoded().size() + 16;
    const auto headers = request.headers();
    for (const auto &h : headers)
        n += h.first.size() + h.second.size() + 4;
    return n;
}

} // namespace

EngineService::EngineService(EngineSetup &setup, ApiTokens &tokens, ServiceOptions options, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_setup(setup)
    , m_tokens(tokens)
    , m_audit(tokens.location())
    , m_options(std::move(options))
    , m_events(m_options.events)
    , m_rates(*setup.context().clock, m_options.tokenRate, m_options.tokenBurst)
    , m_backfillConnection(QStringLiteral("bullpen-stream-backfill-") + QUuid::createUuid().toString(QUuid::Id128))
    , m_context { m_setup,
                  m_options,
                  m_audit,
                  m_events,
                  m_draining,
                  [this](QTcpSocket *socket, const Reply &reply) { write(socket, reply); },
                  [this](QTcpSocket *socket, std::function<Reply()> work) {
                      answerLater(socket, std::move(work));
                  } }
    , m_generations(m_context)
    , m_comparisons(m_context, this)
    , m_history(m_context, m_metrics)
    , m_providers(m_context, tokens.location(), this)
    , m_alerts(m_context, this)
    , m_admin(m_context, tokens, m_metrics, m_providers, m_server)
{
    buildRoutes();
    const Settings &settings = m_setup.settings();
    m_trusted = TrustedProxies::parse(settings.trustedProxies).value_or(TrustedProxies {}); // refused at load when wrong
    if (settings.addressRate > 0)
        m_addressRates.emplace(*m_setup.context().clock, settings.addressRate, 2.0 * settings.addressRate);
    connect(&m_setup.engine(), &EngineClient::eventRecorded, this, &EngineService::onEvent);
    connect(&m_setup.engine(), &EngineClient::finished, this, &EngineService::onFinished);

    m_historyContext = new QObject; // moved to its thread: deleted there when the thread ends
    m_historyContext->moveToThread(&m_historyThread);
    connect(&m_historyThread, &QThread::finished, m_historyContext, &QObject::deleteLater);
    m_historyThread.setObjectName(QStringLiteral("bullpen-history"));
    startInBackground(m_historyThread);

    // A revoked token's event streams end within a second of the revocation (every other request is
    // checked as it comes): the live tokens are read four times a second while a stream is open (one
    // indexed read of a small table; nothing is read when no stream is open).
    m_streamOwners.setInterval(250);
    connect(&m_streamOwners, &QTimer::timeout, this, &EngineService::closeRevokedStreams);
    m_streamOwners.start();

    m_drainTimer.setSingleShot(true);
    connect(&m_drainTimer, &QTimer::timeout, this, [this] {
        const QSet<QString> running = m_generations.running();
        qCInfo(lcApi) << "drain time is up:" << running.size() << "generations still running are cancelled";
        for (const QString &id : running)
            m_setup.engine().cancel(id, AbortReason::Shutdown); // recorded as "cancelled: Bullpen is shutting down"
        checkDrained();
    });
}

EngineService::~EngineService()
{
    m_relay.reset(); // its thread and connection end before the store's
    // The history thread's work answers through this object: it ends first, releasing its connection.
    if (HistoryReader *history = m_setup.history())
        QMetaObject::invokeMethod(
            m_historyContext, [history] { history->releaseThreadConnection(); }, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(
        m_historyContext, [this] { StoreLocation::disconnect(m_backfillConnection); }, Qt::BlockingQueuedConnection);
    m_historyThread.quit();
    m_historyThread.wait();
}

bool EngineService::listen(QString *error)
{
    // Request line and headers plus the body, counted as the bytes arrive: anything larger never
    // reaches memory. Smaller oversize requests get their precise 413 or 431 in handleRequest.
    const QByteArray tooLarge =
        QJsonDocument(QJsonObject { { QStringLiteral("error"),
                                      QJsonObject { { QStringLiteral("status"), 413 },
                                                    { QStringLiteral("message"),
                                                      QStringLiteral("request over %1 bytes; send a smaller body")
                                                          .arg(m_options.maxBodyBytes + m_options.maxHeaderBytes) } } } })
            .toJson(QJsonDocument::Compact);
    auto *server = new CappedTcpServer(m_options.maxBodyBytes + m_options.maxHeaderBytes, tooLarge, this);
    server->setListenBacklogSize(4096);
    server->setLimits(m_options.connections);
    server->setReporter([](const QString &what) { qCWarning(lcApi).noquote() << what; });
    server->setAnswerCounter([this](int status) { m_metrics.countRequest(status); });
    server->setLowDelay(true);
    if (m_options.tls)
        server->setTls(*m_options.tls);
    if (!server->listen(m_options.address, m_options.port)) {
        if (error)
            *error = QStringLiteral("cannot listen on %1:%2: %3; choose another address with --listen HOST:PORT")
                         .arg(m_options.address.toString())
                         .arg(m_options.port)
                         .arg(server->errorString());
        delete server;
        return false;
    }
    bind(server);
    m_server = server;
    m_options.connections = *server->limits(); // as the open-file limit leaves them
    m_options.port = server->serverPort();
    if (m_options.instance.isEmpty())
        m_options.instance = QHostInfo::localHostName() + QLatin1Char(':') + QString::number(m_options.port);
    if (Store *store = m_setup.store()) {
        store->setIdentity(m_options.instance, m_options.version, url().toString());
        // On PostgreSQL the stream is the store's: every instance's events, in the store's order, with
        // cursors that mean the same on every instance (StoreRelay, EventStream::followStore).
        if (store->storeLocation().isPostgres()) {
            const StoreLocation location = store->storeLocation();
            QString why;
            const std::optional<qint64> newest = StoreRelay::newestOrder(location, &why);
            if (!newest) {
                if (error)
                    *error = QStringLiteral("cannot read the store's events (%1); check BULLPEN_DATABASE_URL and that the server is up")
                                 .arg(why);
                return false;
            }
            m_events.followStore(
                *newest, [this, location](qint64 after, qint64 through, int limit, std::function<void(EventStream::Backfill)> done) {
                    // On the history thread, with a connection of its own there (closed in the destructor).
                    QMetaObject::invokeMethod(m_historyContext, [this, location, after, through, limit, done = std::move(done)] {
                        EventStream::Backfill read;
                        {
                            QSqlDatabase db = QSqlDatabase::database(m_backfillConnection, false);
                            if (!db.isValid() || !db.isOpen())
                                db = location.connect(m_backfillConnection, StoreLocation::Access::ReadOnly, &read.error);
                            if (db.isOpen() && !StoreRelay::readRange(db, after, through, limit, &read.rows, &read.oldest, &read.error)
                                && read.error.isEmpty())
                                read.error = QStringLiteral("the read failed");
                        }
                        if (!read.error.isEmpty())
                            StoreLocation::disconnect(m_backfillConnection); // made afresh at the next resume
                        QMetaObject::invokeMethod(&m_events, [done, read] { done(read); });
                    });
                });
            m_relay = std::make_unique<StoreRelay>(location);
            connect(
                m_relay.get(), &StoreRelay::relayed, this,
                [this](const QList<StoredEvent> &rows) {
                    bool ended = false;
                    for (const StoredEvent &row : rows) {
                        m_events.publishStored(row);
                        ended = (row.type == u"generation_finished" && m_awaitingStream.remove(row.generationId)) || ended;
                    }
                    if (ended && m_draining)
                        checkDrained();
                },
                Qt::QueuedConnection);
            connect(
                m_relay.get(), &StoreRelay::failed, this,
                [](const QString &failure) {
                    qCWarning(lcApi) << "the event stream cannot read the store:" << failure << "(it tries again every second)";
                },
                Qt::QueuedConnection);
            m_relay->start(*newest);
        }
    }
    m_audit.setInstance(m_options.instance);
    m_providers.startProbes();
    return true;
}

namespace {
// Set on a connection whose client asked for it to end after the answer (closeAfterAnswer()).
constexpr const char *kCloseAfterAnswer = "bullpen_close_after_answer";

// RFC 9112 §9.3 and §9.6: "Connection: close", or an HTTP/1.0 request (this server keeps no 1.0
// connection alive), ends the connection once the answer is written.
bool closeAfterAnswer(const QHttpServerRequest &request, const CappedTcpServer::RequestHead &head)
{
    if (head.http10)
        return true;
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("connection", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray &option : value.split(','))
            if (option.trimmed().compare("close", Qt::CaseInsensitive) == 0)
                return true;
    }
    return false;
}
} // namespace

void EngineService::write(QTcpSocket *socket, const Reply &r)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    m_metrics.countRequest(r.status);
    QByteArray head = "HTTP/1.1 " + QByteArray::number(r.status) + ' ' + httpReasonPhrase(r.status) + "\r\nContent-Type: " + r.contentType
        + "\r\nContent-Length: " + QByteArray::number(r.body.size()) + "\r\nCache-Control: no-store\r\n";
    bool closing = false;
    for (const auto &[name, value] : r.headers) {
        head += name + ": " + value + "\r\n";
        closing = closing || (name == "Connection" && value == "close");
    }
    const bool asked = socket->property(kCloseAfterAnswer).toBool();
    if (asked && !closing)
        head += "Connection: close\r\n";
    socket->write(head + "\r\n" + r.body);
    if (asked)
        socket->disconnectFromHost(); // once the answer is written
}

void EngineService::answerLater(QTcpSocket *socket, std::function<Reply()> work)
{
    QPointer<QTcpSocket> guarded(socket);
    QMetaObject::invokeMethod(m_historyContext, [this, guarded, work = std::move(work)] {
        Reply r = work();
        QMetaObject::invokeMethod(this, [this, guarded, r = std::move(r)] { write(guarded, r); });
    });
}

// RFC 9112 §6.3: a request that gives both Content-Length and Transfer-Encoding, or Content-Lengths
// that disagree, has no one length: 400, and the connection is closed. A transfer coding other than
// chunked: 501.
std::optional<EngineService::Reply> EngineService::framingRefusal(const QHttpServerRequest &request)
{
    // One decimal number (RFC 9110 §8.6): no sign, no list, no hex, nothing after it, and at most 18
    // digits. The HTTP server's parser reads any other value as "no body", and the body as the next
    // request.
    static const QRegularExpression decimal(QStringLiteral("^[0-9]{1,18}$"));
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("content-length", Qt::CaseInsensitive) == 0 && !decimal.match(QString::fromLatin1(value.trimmed())).hasMatch()) {
            Reply r =
                ApiReply::error(400,
                                QStringLiteral("Content-Length \"%1\" is not one decimal number of bytes; send the body's length, e.g. 42")
                                    .arg(QString::fromLatin1(value.trimmed().left(32))));
            r.headers.append({ QByteArray("Connection"), QByteArray("close") });
            return r;
        }
    }
    QSet<QByteArray> lengths;
    QByteArray coding;
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("content-length", Qt::CaseInsensitive) == 0)
            lengths.insert(value.trimmed());
        else if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
            coding = value.trimmed().toLower();
    }
    std::optional<Reply> r;
    if (!coding.isEmpty() && !lengths.isEmpty())
        r = ApiReply::error(400, QStringLiteral("both Content-Length and Transfer-Encoding: send one of them"));
    else if (lengths.size() > 1)
        r = ApiReply::error(400, QStringLiteral("Content-Length headers that disagree: send one"));
    else if (!coding.isEmpty() && coding != "chunked")
        r = ApiReply::error(501,
                            QStringLiteral("transfer coding \"%1\" is not supported; send the body with Content-Length or chunked")
                                .arg(QString::fromLatin1(coding.left(32))));
    if (r)
        r->headers.append({ QByteArray("Connection"), QByteArray("close") });
    return r;
}

// Heads the HTTP server's parser reads wrongly: over 100 fields it keeps none (a token would read as
// missing), and of two Authorization fields it keeps the first (which one a proxy checked is unknown).
std::optional<EngineService::Reply> EngineService::headerRefusal(const QHttpServerRequest &request,
                                                                 const CappedTcpServer::RequestHead &head)
{
    if (head.fields > kMaxHeaderFields) { // its framing is unknown too: the connection is closed
        Reply r = ApiReply::error(431, QStringLiteral("%1 header fields; at most %2 are accepted").arg(head.fields).arg(kMaxHeaderFields));
        r.headers.append({ QByteArray("Connection"), QByteArray("close") });
        return r;
    }
    int authorizations = 0;
    for (const auto &[name, value] : request.headers())
        authorizations += name.compare("authorization", Qt::CaseInsensitive) == 0 ? 1 : 0;
    if (authorizations > 1)
        return ApiReply::error(400, QStringLiteral("%1 Authorization headers; send one").arg(authorizations));
    return std::nullopt;
}

std::optional<EngineService::Reply> EngineService::addressRefusal(const QHttpServerRequest &request, const QTcpSocket *socket)
{
    if (!m_addressRates)
        return std::nullopt;
    QList<QByteArray> forwardedFor;
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("x-forwarded-for", Qt::CaseInsensitive) == 0)
            forwardedFor << value;
    }
    const QString client = m_trusted.client(socket->peerAddress(), forwardedFor).toString();
    const std::optional<std::chrono::seconds> wait = m_addressRates->take(client);
    if (!wait)
        return std::nullopt;
    Reply r = ApiReply::error(429,
                              QStringLiteral("requests from %1 are over %2 per second; retry after %3 s")
                                  .arg(client)
                                  .arg(m_setup.settings().addressRate)
                                  .arg(wait->count()));
    r.headers.append({ QByteArray("Retry-After"), QByteArray::number(static_cast<qint64>(wait->count())) });
    return r;
}

std::optional<ApiToken> EngineService::authorize(const QHttpServerRequest &request, Reply *refusal)
{
    const QByteArray header = httpHeader(request, "authorization");
    // The scheme in any case (RFC 9110 §11.1), then the token.
    const QByteArray bearer = header.left(7).compare("bearer ", Qt::CaseInsensitive) == 0 ? header.mid(7).trimmed() : QByteArray();
    QString storeError;
    std::optional<ApiToken> token = m_tokens.check(bearer, &storeError);
    if (storeError.isEmpty())
        m_tokenCheckError.clear();
    if (!token && !storeError.isEmpty()) {
        // Not judged: the token may be good. Say so, not "unauthorized" (the why is for the log, not the client).
        if (storeError != m_tokenCheckError) // said once per distinct failure, not once per request of an outage
            qCWarning(lcApi).noquote() << "a request's token could not be checked: the store cannot be read:" << storeError;
        m_tokenCheckError = storeError;
        *refusal = ApiReply::error(503,
                                   QStringLiteral("this engine cannot read its store to check the token now; retry in a few seconds "
                                                  "(the engine's log says why)"));
        refusal->headers.append({ QByteArray("Retry-After"), QByteArray("5") });
    } else if (!token) {
        // No hint of why (missing, unknown, revoked): the same answer for all.
        *refusal =
            ApiReply::error(401,
                            QStringLiteral("a valid bearer token is required (Authorization: Bearer TOKEN); "
                                           "an operator of this engine makes one with `bullpen-engine token add NAME --role viewer`"));
        refusal->headers.append({ QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"bullpen\"") });
    }
    return token;
}

bool EngineService::withinRate(const QString &tokenName, Reply *refusal)
{
    const std::optional<std::chrono::seconds> wait = m_rates.take(tokenName);
    if (!wait)
        return true;
    *refusal = ApiReply::error(
        429,
        QStringLiteral("this token's request rate is over %1 per second; retry after %2 s").arg(m_options.tokenRate).arg(wait->count()));
    refusal->headers.append({ QByteArray("Retry-After"), QByteArray::number(static_cast<qint64>(wait->count())) });
    return false;
}

bool EngineService::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const CappedTcpServer::RequestHead head = m_server->requestWhole(socket); // the next request counts from zero
    if (closeAfterAnswer(request, head))
        socket->setProperty(kCloseAfterAnswer, true);
    QElapsedTimer took;
    took.start();
    const QStringList path = segments(request.url());
    const Method method = request.method();
    QString tokenName = QStringLiteral("-");
    int status = 0;
    const auto answer = [&](const Reply &r) {
        status = r.status;
        write(socket, r);
    };
    const auto logLine = qScopeGuard([&] {
        // Never the query, a header or the body: they may hold a token or a user's hash.
        qCDebug(lcApi).noquote() << Routes::methodName(method) << request.url().path()
                                 << (status ? QString::number(status) : QStringLiteral("async"))
                                 << QString::number(static_cast<double>(took.nsecsElapsed()) / 1e6, 'f', 2) + QStringLiteral(" ms")
                                 << tokenName;
    });

    if (headerBytes(request) > m_options.maxHeaderBytes) {
        answer(ApiReply::error(431, QStringLiteral("request line and headers over %1 bytes").arg(m_options.maxHeaderBytes)));
        return true;
    }
    if (const std::optional<Reply> refused = framingRefusal(request)) {
        // What follows on this connection may be a request smuggled in this one's body: none of it is read.
        answer(*refused);
        socket->disconnectFromHost();
        return true;
    }
    if (const std::optional<Reply> refused = headerRefusal(request, head)) {
        answer(*refused);
        if (refused->status == 431)
            socket->disconnectFromHost();
        return true;
    }
    if (const std::optional<Reply> refused = addressRefusal(request, socket)) {
        answer(*refused);
        return true;
    }
    if (request.body().size() > m_options.maxBodyBytes) {
        answer(ApiReply::error(
            413, QStringLiteral("body of %1 bytes; at most %2 are accepted").arg(request.body().size()).arg(m_options.maxBodyBytes)));
        return true;
    }

    const auto match = m_routes.match(method, path);
    if (std::holds_alternative<Routes::NotFound>(match)) {
        answer(ApiReply::error(404,
                               path.value(0) == u"v1" ? QStringLiteral("no such path; see docs/api.md for the API")
                                                      : QStringLiteral("no such path; the API is under /v1 (see docs/api.md)")));
        return true;
    }
    if (const auto *wrong = std::get_if<Routes::WrongMethod>(&match)) {
        Reply r = ApiReply::error(405, QStringLiteral("%1 only").arg(QString::fromLatin1(wrong->allow)));
        r.headers.append({ QByteArray("Allow"), wrong->allow });
        answer(r);
        return true;
    }
    const Routes::Found &found = std::get<Routes::Found>(match);
    std::optional<ApiToken> token;
    if (found.route->access != RouteAccess::Public) {
        Reply refusal;
        token = authorize(request, &refusal);
        if (!token || !withinRate(token->name, &refusal)) {
            answer(refusal);
            return true;
        }
        tokenName = token->name;
        if (found.route->access == RouteAccess::Operator && token->role != ApiRole::Operator) {
            answer(ApiReply::error(403,
                                   QStringLiteral("this token is a viewer's: it may read, not start, cancel, compare, drain or restore")));
            return true;
        }
    }
    if (const std::optional<QString> refused = controlCharacterRefusal(request.url())) {
        answer(ApiReply::error(400, *refused));
        return true;
    }
    if (const std::optional<Reply> r = found.route->handler(Call { request, socket, token ? &*token : nullptr, found.params }))
        answer(*r);
    return true;
}

void EngineService::missingHandler(const QHttpServerRequest &, QTcpSocket *socket)
{
    write(socket, ApiReply::error(404, QStringLiteral("no such path")));
}

void EngineService::closeRevokedStreams()
{
    const QSet<QString> owners = m_events.owners();
    if (owners.isEmpty())
        return;
    QString why;
    const QList<ApiToken> tokens = m_tokens.list(&why);
    if (!why.isEmpty())
        return; // the store cannot be read now: the next second tries again (requests are refused meanwhile)
    QSet<QString> live;
    for (const ApiToken &t : tokens)
        if (!t.revokedAtMs)
            live.insert(t.name);
    const QSet<QString> revoked = owners - live;
    if (const int closed = revoked.isEmpty() ? 0 : m_events.closeOwnedBy(revoked))
        qCInfo(lcApi).noquote() << "closed" << closed << "event stream(s) of revoked token(s)"
                                << QStringList(revoked.begin(), revoked.end()).join(QStringLiteral(", "));
}

void EngineService::onEvent(const Event &event)
{
    BULLPEN_TSAN_SEED("stream"); // on the service's thread, racing the engine threads' (tsanseed.h)
    if (!m_events.followsStore() && std::holds_alternative<GenerationFinished>(event.body))
        m_awaitingStream.remove(event.generationId); // published just below
    if (std::holds_alternative<GenerationStarted>(event.body))
        m_generations.started(event.generationId); // started here by any front end (comparisons too)
    m_metrics.record(event, nowMs(), ServiceMetrics::steadyNowMs(*m_context.setup.context().clock));
    if (m_events.followsStore())
        return; // this engine's events reach its stream from the store, in the store's order
    if (const auto *started = std::get_if<GenerationStarted>(&event.body); started && started->instance.isEmpty()) {
        // The stream names the instance that runs each generation (several engines share one history).
        // A copy with its own JSON: the store's writer keeps the engine's (its rows carry the instance).
        Event named = event;
        std::get<GenerationStarted>(named.body).instance = m_options.instance;
        named.jsonCache.reset();
        named.shareJson();
        m_events.publish(named);
        return;
    }
    m_events.publish(event);
}

void EngineService::onFinished(const GenerationResult &result)
{
    m_generations.finished(result);
    if (m_draining)
        checkDrained();
}

void EngineService::beginDrain()
{
    if (m_draining)
        return;
    m_draining = true;
    m_providers.stopProbes();
    m_awaitingStream = m_generations.running(); // their last events reach the streams before the streams close
    qCInfo(lcApi) << "draining:" << m_awaitingStream.size() << "generations running, up to" << m_options.drain.count() << "ms to finish";
    m_drainTimer.start(m_options.drain);
    checkDrained();
}

void EngineService::checkDrained()
{
    if (m_drainedSent || m_setup.engine().activeCount() > 0)
        return;
    // docs/api.md: streams close once every generation has its final state on them. Following a
    // store, this engine's own events come back through it after the writer commits: wait for them,
    // at most kStreamGrace.
    if (!m_awaitingStream.isEmpty()) {
        if (!m_streamGrace.isValid()) {
            m_streamGrace.start();
            QTimer::singleShot(kStreamGrace, this, &EngineService::checkDrained);
            return;
        }
        if (!m_streamGrace.hasExpired(kStreamGrace.count()))
            return;
        qCWarning(lcApi) << m_awaitingStream.size() << "generation(s) ended without their final events reaching the event stream in"
                         << kStreamGrace.count() << "ms; the store has them";
    }
    m_drainedSent = true;
    m_drainTimer.stop();
    m_events.closeAll();
    Q_EMIT drained();
}

} // namespace bullpen
