// SPDX-License-Identifier: MIT
#include "providersimulator.h"

#include "cappedtcpserver.h"
#include "comicrenderer.h"
#include "contract/providerregistry.h"
#include "contract/storyboardparser.h"
#include "dialects/dialects.h"
#include "engine/backgroundthread.h"
#include "httpserving.h"
#include "providers/storyboardprompt.h"
#include "simwire.h"
#include "storyboardsynth.h"

#include <QCache>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMutex>
#include <QTcpServer>
#include <QThreadPool>
#include <QTimer>
#include <QUrlQuery>

#include <atomic>
#include <chrono>

namespace bullpen {

namespace {

// With total_ms: one event per interval, the last (or the stream's end) at total_ms after the request.
int pacedInterval(const SimBehaviour &b, qsizetype events)
{
    return b.totalMs > b.appliedLatencyMs ? (b.totalMs - b.appliedLatencyMs) / static_cast<int>(events + 1) : 0;
}

QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

// A request without credentials gets the provider's own answer to that. A built-in provider takes a
// key the way its dialect's SDK sends one (Dialect::carriesCredentials); an added provider takes its
// own header, or nothing when it takes no key.
} // namespace

bool ProviderSimulator::carriesCredentials(const QHttpServerRequest &request, Provider provider) const
{
    const ProviderSpec spec = providers()->spec(provider);
    if (!spec.builtIn)
        return spec.authHeader.isEmpty() || !httpHeader(request, spec.authHeader.toLower().constData()).isEmpty();
    return Dialects::of(spec.dialect)
        .carriesCredentials(SimRequest { [&request](QByteArrayView name) { return httpHeader(request, name); }, request.url() });
}

QByteArray ProviderSimulator::requestIdLine(Provider provider) const
{
    static std::atomic<quint64> next { 0 };
    const WireDialect dialect = speaks(provider);
    const QByteArray name = SimWire::requestIdHeader(dialect);
    if (name.isEmpty())
        return {};
    const QByteArray prefix = Dialects::of(dialect).requestIdPrefix();
    return name + ": " + prefix + QByteArray::number(++next) + "\r\n";
}

QJsonObject ProviderSimulator::Counters::toJson() const
{
    return QJsonObject { { QStringLiteral("requests"), requests },
                         { QStringLiteral("answered"), answered },
                         { QStringLiteral("closed_by_client"), closedByClient },
                         { QStringLiteral("last_request_monotonic_ns"), static_cast<double>(lastRequestMonotonicNs) },
                         { QStringLiteral("last_headers"), QJsonArray::fromStringList(lastHeaders) },
                         { QStringLiteral("last_query"), lastQuery } };
}

ProviderSimulator::ProviderSimulator(QObject *parent)
    : QAbstractHttpServer(parent)
    , m_providers(std::make_shared<const ProviderTable>())
{
    QString ignored;
    if (auto healthy = Scenario::load(QStringLiteral("healthy"), &ignored))
        setScenario(*healthy);
}

void ProviderSimulator::yieldToOtherThreads()
{
    becomeBackgroundThread(); // as the engine's own background threads (engine/backgroundthread.h)
}

ProviderSimulator::~ProviderSimulator()
{
    if (m_painters)
        m_painters->waitForDone(); // a painter's last act posts to us: we must still be whole
}

bool ProviderSimulator::carriesKey(const QHttpServerRequest &request) const
{
    const QByteArray key = [this] {
        const QMutexLocker lock(&m_lock);
        return m_key;
    }();
    const QByteArray bearer = "Bearer " + key;
    if (httpHeader(request, "x-goog-api-key") == key || httpHeader(request, "x-api-key") == key
        || httpHeader(request, "authorization") == bearer || httpHeader(request, "x-sim-key") == key
        || QUrlQuery(request.url()).queryItemValue(QStringLiteral("key")).toUtf8() == key)
        return true;
    const std::shared_ptr<const ProviderTable> table = providers();
    for (const Provider p : table->all()) { // an added provider's own header (Azure's api-key)
        const ProviderSpec spec = table->spec(p);
        if (!spec.authHeader.isEmpty() && httpHeader(request, spec.authHeader.toLower().constData()).endsWith(key))
            return true;
    }
    return false;
}

bool ProviderSimulator::start(quint16 port, QString *error, const std::optional<QSslConfiguration> &tls)
{
    auto *server = new CappedTcpServer(kMaxRequestBytes, "{\"error\":{\"message\":\"request body over the simulator's 1 MiB cap\"}}", this);
    if (tls)
        server->setTls(*tls);
    m_https = tls.has_value();
    // A real provider accepts a burst of connections; Qt's default backlog of 50 would drop SYNs and
    // delay the rest by the kernel's one-second retry (the clamp is net.core.somaxconn).
    server->setListenBacklogSize(4096);
    if (!server->listen(QHostAddress::LocalHost, port)) {
        if (error)
            *error = QStringLiteral("cannot listen on 127.0.0.1:%1: %2").arg(port).arg(server->errorString());
        delete server;
        return false;
    }
    bind(server);
    m_server = server;
    m_port = server->serverPort();
    return true;
}

QUrl ProviderSimulator::baseUrl(Provider provider) const
{
    QUrl url;
    url.setScheme(m_https ? QStringLiteral("https") : QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_port);
    url.setPath(providers()->spec(provider).simulatorPath());
    return url;
}

void ProviderSimulator::setProviders(const ProviderTable &providers)
{
    const auto table = std::make_shared<const ProviderTable>(providers);
    const QMutexLocker lock(&m_lock); // then m_providersLock, as everywhere
    {
        const QMutexLocker swap(&m_providersLock);
        m_providers = table;
    }
    for (Provider p : table->all()) // a random stream for each provider it now plays, from the scenario's seed
        if (!m_random.contains(p))
            m_random[p] = QRandomGenerator64(m_scenario.seed * 1000003ULL + static_cast<quint64>(p.index()) + 1);
}

std::shared_ptr<const ProviderTable> ProviderSimulator::providers() const
{
    const QMutexLocker lock(&m_providersLock);
    return m_providers;
}

void ProviderSimulator::setScenario(const Scenario &scenario)
{
    const QMutexLocker lock(&m_lock);
    m_scenario = scenario;
    m_random.clear();
    for (Provider p : providers()->all())
        m_random[p] = QRandomGenerator64(scenario.seed * 1000003ULL + static_cast<quint64>(p.index()) + 1);
}

void ProviderSimulator::setRoles(Provider primary, std::optional<Provider> fallback)
{
    const QMutexLocker lock(&m_lock);
    m_primary = primary;
    m_fallback = fallback;
}

Scenario ProviderSimulator::scenario() const
{
    const QMutexLocker lock(&m_lock);
    return m_scenario;
}

ProviderSimulator::Counters ProviderSimulator::counters(Provider provider) const
{
    const QMutexLocker lock(&m_lock);
    const auto it = m_counters.find(provider);
    return it == m_counters.end() ? Counters {} : it->second;
}

QJsonObject ProviderSimulator::countersJson() const
{
    QJsonObject o;
    for (Provider p : providers()->all())
        o.insert(toId(p), counters(p).toJson());
    o.insert(QStringLiteral("scenario"), scenario().name);
    return o;
}

void ProviderSimulator::resetCounters()
{
    const QMutexLocker lock(&m_lock);
    m_counters.clear();
    m_phaseOrigin.clear();
}

void ProviderSimulator::setClock(std::function<qint64()> msNow)
{
    const QMutexLocker lock(&m_lock);
    m_clock = std::move(msNow);
    m_phaseOrigin.clear();
}

const Scenario *ProviderSimulator::namedScenario(const QString &name)
{
    // Called with m_lock held. Built-in names only: a request must not make the simulator read a file.
    if (const auto it = m_named.find(name); it != m_named.end())
        return &it->second;
    if (!Scenario::builtInNames().contains(name))
        return nullptr;
    QString why;
    const std::optional<Scenario> s = Scenario::load(name, &why);
    if (!s)
        return nullptr;
    return &m_named.emplace(name, *s).first->second;
}

SimBehaviour ProviderSimulator::pick(Provider provider, int index, Kind kind, const RequestScript &asked)
{
    // Called with m_lock held.
    const Scenario &scenario = asked.scenario ? *asked.scenario : m_scenario;
    const Provider primary = asked.primary.value_or(m_primary);
    const std::optional<Provider> fallback = asked.primary ? asked.fallback : m_fallback;
    const SimScript *script = nullptr;
    const QString role = provider == primary  ? QStringLiteral("primary")
        : (fallback && provider == *fallback) ? QStringLiteral("fallback")
                                              : QString();
    // Image and captions requests follow only their own keys: a scenario about the storyboard's
    // primary leaves the later stages healthy unless it says otherwise.
    const QStringList keys = kind == Kind::Image ? QStringList { QStringLiteral("image") }
        : kind == Kind::Captions                 ? QStringList { QStringLiteral("captions") }
                                                 : QStringList { toId(provider), role, QStringLiteral("*") };
    for (const QString &key : keys) {
        if (key.isEmpty())
            continue;
        const auto it = scenario.scripts.find(key);
        if (it != scenario.scripts.end()) {
            script = &it->second;
            break;
        }
    }
    if (!script)
        return SimBehaviour {};
    if (!script->phases.empty()) {
        static const QElapsedTimer steady = [] {
            QElapsedTimer t;
            t.start();
            return t;
        }();
        const qint64 now = m_clock ? m_clock() : steady.elapsed();
        const qint64 origin = m_phaseOrigin.try_emplace(scenario.name, now).first->second;
        if (const SimPhase *phase = script->phaseAt(double(now - origin) / 1000.0))
            return phase->behaviour;
    }
    if (!script->mix.empty()) {
        int total = 0;
        for (const auto &entry : script->mix)
            total += entry.first;
        int roll = static_cast<int>(m_random[provider].bounded(static_cast<quint64>(total)));
        for (const auto &entry : script->mix) {
            if (roll < entry.first)
                return entry.second;
            roll -= entry.first;
        }
        return script->mix.back().second;
    }
    const std::size_t at = std::min<std::size_t>(static_cast<std::size_t>(index - 1), script->sequence.size() - 1);
    return script->sequence.at(at);
}

std::optional<Provider> ProviderSimulator::route(const QString &path, QString *model) const
{
    const std::shared_ptr<const ProviderTable> table = providers();
    for (const Provider p : table->all()) {
        const ProviderSpec spec = table->spec(p);
        const QString base = spec.simulatorPath();
        if (const std::optional<QString> routed = Dialects::of(spec.dialect).route(path, base)) {
            *model = *routed;
            return p;
        }
    }
    return std::nullopt;
}

// The simulator's own endpoints under /_sim/: counters, reset, health.
bool ProviderSimulator::handleControl(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const QString path = request.url().path();
    if (path == u"/_sim/counters") {
        writeJson(socket, 200, QJsonDocument(countersJson()).toJson(QJsonDocument::Compact));
    } else if (path == u"/_sim/reset" && request.method() == QHttpServerRequest::Method::Post) {
        resetCounters();
        writeJson(socket, 200, R"({"reset":true})");
    } else if (path == u"/_sim/health") {
        writeJson(socket, 200, R"({"ok":true})");
    } else {
        return false;
    }
    return true;
}

// A scenario asked for by this request's headers; false (answered 400) when it names none of the built-ins.
bool ProviderSimulator::readScript(const QHttpServerRequest &request, QTcpSocket *socket, RequestScript *asked)
{
    const QByteArray name = httpHeader(request, "x-bullpen-scenario");
    if (name.isEmpty())
        return true;
    {
        const QMutexLocker lock(&m_lock);
        asked->scenario = namedScenario(QString::fromUtf8(name));
    }
    if (!asked->scenario) {
        const QString message = QStringLiteral("unknown simulator scenario \"%1\"; built-in: %2")
                                    .arg(QString::fromUtf8(name).left(64), Scenario::builtInNames().join(u", "));
        writeJson(socket, 400,
                  QJsonDocument(QJsonObject { { QStringLiteral("error"), QJsonObject { { QStringLiteral("message"), message } } } })
                      .toJson(QJsonDocument::Compact));
        return false;
    }
    const QList<QByteArray> roles = httpHeader(request, "x-bullpen-roles").split(',');
    asked->primary = providerFromId(QString::fromLatin1(roles.value(0)));
    if (asked->primary)
        asked->fallback = providerFromId(QString::fromLatin1(roles.value(1)));
    return true;
}

// Counts a request to a provider and keeps what the counters show of it; its index, from 1.
int ProviderSimulator::count(Provider provider, const QHttpServerRequest &request)
{
    const QMutexLocker lock(&m_lock);
    Counters &c = m_counters[provider];
    c.lastRequestMonotonicNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    c.lastHeaders.clear();
    for (const auto &[name, value] : request.headers())
        c.lastHeaders << QString::fromLatin1(name).toLower();
    c.lastQuery = request.url().query();
    return ++c.requests;
}

bool ProviderSimulator::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    m_server->requestWhole(socket); // the next request counts from zero
    const QString path = request.url().path();
    const bool keyed = [this] {
        const QMutexLocker lock(&m_lock);
        return !m_key.isEmpty();
    }();
    if (keyed && !carriesKey(request)) {
        // A per-run key (the embedded simulator): another local user's requests, scripted or not,
        // are refused before they can touch counters or scenarios.
        writeJson(socket, 401, R"({"error":{"message":"this simulator belongs to another process; its key is required"}})");
        return true;
    }
    if (path.startsWith(QLatin1StringView("/_sim/")))
        return handleControl(request, socket);

    QString model;
    const std::optional<Provider> provider = route(path, &model);
    if (!provider)
        return false;
    if (request.method() != QHttpServerRequest::Method::Post) {
        writeJson(socket, 405, R"({"error":{"message":"use POST"}})");
        return true;
    }

    // A per-request scenario (x-bullpen-scenario, x-bullpen-roles: "gemini,qwen"), else the simulator's own.
    RequestScript asked;
    if (!readScript(request, socket, &asked))
        return true;

    const QJsonObject requestJson = QJsonDocument::fromJson(request.body()).object(); // parsed once, read below
    if (model.isEmpty())
        model = requestJson.value(QLatin1StringView("model")).toString();
    const int index = count(*provider, request);
    Q_EMIT requestReceived(*provider, index);

    const QUrlQuery query(request.url());
    const WireDialect dialect = speaks(*provider);
    for (const auto &[name, value] : providers()->spec(*provider).query) {
        if (!query.hasQueryItem(name)) { // Azure answers a request without its api-version so
            writeJson(socket, 404, R"({"error":{"code":"404","message":"Resource not found"}})", {}, provider);
            return true;
        }
    }
    const bool hasKey = carriesCredentials(request, *provider);
    const QString story = SimWire::storyFromRequest(dialect, requestJson);
    const Kind kind = SimWire::isImageRequest(dialect, requestJson) ? Kind::Image
        : story.startsWith(StoryboardPrompt::kCaptionsMarker)       ? Kind::Captions
                                                                    : Kind::Storyboard;
    QMutexLocker lock(&m_lock);
    SimBehaviour behaviour = hasKey ? pick(*provider, index, kind, asked) : SimBehaviour {};
    if (!hasKey) {
        behaviour.action = SimBehaviour::Action::Error;
        behaviour.error = QStringLiteral("unauthenticated");
        behaviour.status = 0; // the provider's own status for it (Gemini 403 PERMISSION_DENIED, the others 401)
    }
    behaviour.streamUsage =
        requestJson.value(QLatin1StringView("stream_options")).toObject().value(QLatin1StringView("include_usage")).toBool();
    behaviour.geminiSse = query.queryItemValue(QStringLiteral("alt")) == u"sse";

    if (behaviour.error == u"auth_echo") {
        behaviour.receivedKey =
            httpHeader(request, "x-goog-api-key") + httpHeader(request, "x-api-key") + query.queryItemValue(QStringLiteral("key")).toUtf8();
        if (behaviour.receivedKey.isEmpty())
            behaviour.receivedKey = httpHeader(request, "authorization").mid(7);
    }
    const bool stream = SimWire::requestWantsStream(dialect, requestJson, path);
    watch(*provider, socket);
    const int latency = behaviour.latencyMaxMs > behaviour.latencyMinMs ? behaviour.latencyMinMs
            + static_cast<int>(m_random[*provider].bounded(static_cast<quint64>(behaviour.latencyMaxMs - behaviour.latencyMinMs + 1)))
                                                                        : behaviour.latencyMinMs;
    behaviour.appliedLatencyMs = latency;
    lock.unlock();
    QPointer<QTcpSocket> guarded(socket);
    const Provider p = *provider;
    if (latency <= 0) {
        respond(p, kind, behaviour, story, model, stream, guarded);
    } else {
        QTimer::singleShot(latency, Qt::PreciseTimer, this, [this, p, kind, behaviour, story, model, stream, guarded] {
            respond(p, kind, behaviour, story, model, stream, guarded);
        });
    }
    return true;
}

void ProviderSimulator::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const QJsonObject error { { QStringLiteral("message"), QString(QStringLiteral("no simulated endpoint at ") + request.url().path()) } };
    writeJson(socket, 404, QJsonDocument(QJsonObject { { QStringLiteral("error"), error } }).toJson(QJsonDocument::Compact));
}

void ProviderSimulator::watch(Provider provider, QTcpSocket *socket)
{
    m_owed[socket] = { QPointer<QTcpSocket>(socket), provider };
    connect(socket, &QTcpSocket::disconnected, this, &ProviderSimulator::onSocketGone, Qt::UniqueConnection);
    if (!m_pollTimer) {
        m_pollTimer = new QTimer(this);
        m_pollTimer->setInterval(20);
        connect(m_pollTimer, &QTimer::timeout, this, &ProviderSimulator::pollOwed);
    }
    m_pollTimer->start();
}

void ProviderSimulator::onSocketGone()
{
    pollOwed();
}

void ProviderSimulator::pollOwed()
{
    for (auto it = m_owed.begin(); it != m_owed.end();) {
        const QPointer<QTcpSocket> &socket = it->second.first;
        if (socket && socket->state() == QAbstractSocket::ConnectedState) {
            ++it;
            continue;
        }
        const Provider provider = it->second.second;
        it = m_owed.erase(it);
        {
            const QMutexLocker lock(&m_lock);
            ++m_counters[provider].closedByClient;
        }
        Q_EMIT clientClosed(provider);
    }
    if (m_owed.empty() && m_pollTimer)
        m_pollTimer->stop();
}

void ProviderSimulator::finished(Provider provider, QTcpSocket *socket)
{
    if (m_owed.erase(socket) > 0) {
        const QMutexLocker lock(&m_lock);
        ++m_counters[provider].answered;
    }
}

void ProviderSimulator::writeJson(QTcpSocket *socket, int status, const QByteArray &body,
                                  const QList<QPair<QByteArray, QByteArray>> &headers, std::optional<Provider> provider,
                                  const QByteArray &contentType)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReasonPhrase(status) + "\r\nContent-Type: " + contentType
        + "\r\n"
          "Content-Length: "
        + QByteArray::number(body.size()) + "\r\n";
    if (provider)
        head += requestIdLine(*provider);
    for (const auto &h : headers)
        head += h.first + ": " + h.second + "\r\n";
    socket->write(head + "\r\n" + body);
}

void ProviderSimulator::writeChunkedStream(Provider provider, QPointer<QTcpSocket> socket, QList<QByteArray> events, int intervalMs,
                                           StreamEnd end)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n" + requestIdLine(provider)
                  + "Transfer-Encoding: chunked\r\n\r\n");
    auto finish = [this, provider, socket, end] {
        QTcpSocket *const open = socket.data();
        if (!open || open->state() != QAbstractSocket::ConnectedState || end == StreamEnd::Hold)
            return; // a held stream stays owed until the client gives up
        if (end == StreamEnd::Cut) {
            m_owed.erase(open); // our own close, not the client's
            open->disconnectFromHost(); // flushes what was written, then FIN: the chunked body never ends
            return;
        }
        open->write("0\r\n\r\n");
        finished(provider, socket);
    };
    if (intervalMs <= 0) {
        for (const QByteArray &e : std::as_const(events))
            socket->write(chunk(e));
        finish();
        return;
    }
    // One event per interval, for drips: the connection stays alive, the answer never comes in time.
    auto remaining = std::make_shared<QList<QByteArray>>(std::move(events));
    auto timer = new QTimer(this);
    timer->setTimerType(Qt::PreciseTimer);
    timer->setInterval(intervalMs);
    connect(timer, &QTimer::timeout, this, [timer, remaining, socket, finish] {
        if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
            timer->deleteLater();
            return;
        }
        if (remaining->isEmpty()) {
            timer->deleteLater();
            finish();
            return;
        }
        socket->write(chunk(remaining->takeFirst()));
    });
    timer->start();
}

void ProviderSimulator::writeDrippedJson(Provider provider, QPointer<QTcpSocket> socket, const QByteArray &body, int intervalMs)
{
    // Headers now, the body one slice per interval.
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + requestIdLine(provider)
                  + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n");
    QList<QByteArray> slices;
    for (qsizetype i = 0; i < body.size(); i += 64)
        slices << body.mid(i, 64);
    auto remaining = std::make_shared<QList<QByteArray>>(slices);
    auto timer = new QTimer(this);
    timer->setInterval(intervalMs);
    connect(timer, &QTimer::timeout, this, [this, timer, remaining, socket, provider] {
        if (!socket || socket->state() != QAbstractSocket::ConnectedState || remaining->isEmpty()) {
            if (socket && remaining->isEmpty())
                finished(provider, socket);
            timer->deleteLater();
            return;
        }
        socket->write(remaining->takeFirst());
    });
    timer->start();
}

void ProviderSimulator::writeCutOrStall(Provider provider, QPointer<QTcpSocket> socket, const SimBehaviour &b,
                                        const QList<QByteArray> &events)
{
    // A hang sends its `after_events` and stalls; a cut sends them (or half its stream) and closes.
    const bool hang = b.action == SimBehaviour::Action::Hang;
    const QList<QByteArray> sent = events.mid(0, b.afterEvents >= 0 ? b.afterEvents : std::max<qsizetype>(1, events.size() / 2));
    writeChunkedStream(provider, socket, sent, pacedInterval(b, sent.size()), hang ? StreamEnd::Hold : StreamEnd::Cut);
}

void ProviderSimulator::writeCutBody(Provider provider, QPointer<QTcpSocket> socket, const SimBehaviour &b, const QByteArray &body)
{
    // The head and half the body; cut at once, or (total_ms: a replay of a body cut mid-transfer) that
    // long after the request.
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + requestIdLine(provider)
                  + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body.left(body.size() / 2));
    const auto cut = [this, socket] {
        if (!socket)
            return;
        m_owed.erase(socket);
        socket->disconnectFromHost();
    };
    if (b.totalMs > b.appliedLatencyMs)
        QTimer::singleShot(b.totalMs - b.appliedLatencyMs, Qt::PreciseTimer, this, cut);
    else
        cut();
}

namespace {

// DashScope's refusal: an HTTP error rather than a finish reason.
constexpr char kInspectionFailed[] =
    R"({"error":{"code":"data_inspection_failed","param":null,"message":"Input data may contain inappropriate content.","type":"data_inspection_failed"},"id":"chatcmpl-sim","request_id":"sim-request"})";

// What a request is about: a story, or (for captions and images) the storyboard it carries.
Storyboard boardFor(WireDialect dialect, bool captionsOrImage, const QString &story)
{
    if (!captionsOrImage)
        return StoryboardSynth::fromStory(story, dialect);
    const qsizetype brace = story.indexOf(QLatin1Char('{'));
    StoryboardCheck check = StoryboardParser::parse(brace >= 0 ? story.mid(brace) : QString());
    return check.ok() ? *check.storyboard : StoryboardSynth::fromStory(story);
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonArray captionLines(const Storyboard &board)
{
    QJsonArray lines;
    for (const Panel &panel : std::as_const(board.panels))
        lines.append(QStringLiteral("Panel %1 (%2): %3").arg(panel.index).arg(panel.role, panel.scene));
    return lines;
}

// The answer that parses but breaks the contract: one caption short, or a storyboard without its panels' rules.
QString invalidText(bool captions, const Storyboard &board, const QString &story)
{
    if (captions) {
        QJsonArray shorter = captionLines(board);
        shorter.removeLast();
        return compact(QJsonObject { { QStringLiteral("captions"), shorter } });
    }
    return compact(StoryboardSynth::brokenFromStory(story).toJson());
}

} // namespace

void ProviderSimulator::respond(Provider provider, Kind kind, const SimBehaviour &b, const QString &story, const QString &model,
                                bool stream, QPointer<QTcpSocket> socket)
{
    // The client may have given up while we waited (a deadline): never touch a socket that is gone.
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    using A = SimBehaviour::Action;
    if (b.action == A::Hang && !(stream && b.afterEvents > 0))
        return; // owed forever, nothing written; the client's abort shows up as closed_by_client. No answer
                // is composed for it, so a burst of hangs costs the simulator little.
    const WireDialect dialect = speaks(provider);
    const Storyboard board = boardFor(dialect, kind != Kind::Storyboard, story);
    const QString text =
        kind == Kind::Captions ? compact(QJsonObject { { QStringLiteral("captions"), captionLines(board) } }) : compact(board.toJson());
    const Reply r { provider, dialect, model, stream, socket, TokenUsage { 120 + story.size() / 3, text.size() / 3 } };
    if (kind == Kind::Image
        && (b.action == A::Ok || b.action == A::InvalidStoryboard || b.action == A::Empty || b.action == A::Truncated)) {
        drawImage(r, board, b.action);
        return;
    }
    const auto events = [&](int pieces) {
        return SimWire::stream(dialect, model, text, SimWire::Ending::Stop, r.usage, pieces, b.streamUsage);
    };
    const QByteArray whole = stream ? QByteArray() : SimWire::body(dialect, model, text, SimWire::Ending::Stop, r.usage);
    switch (b.action) {
    case A::Ok:
        writeText(r, b, text, SimWire::Ending::Stop);
        break;
    case A::Error:
        writeError(r, b, b.error, b.status, b.retryAfterSeconds);
        break;
    case A::Hang: // a stream that sends its first events, then owed forever (one that sends none returned above)
        writeCutOrStall(provider, socket, b, events(b.afterEvents + 2));
        break;
    case A::Drip:
        if (stream)
            writeChunkedStream(provider, socket, events(64), b.dripIntervalMs, StreamEnd::Finish);
        else
            writeDrippedJson(provider, socket, whole, b.dripIntervalMs);
        break;
    case A::Truncated:
        writeText(r, b, text.left(text.size() / 2), SimWire::Ending::MaxTokens);
        break;
    case A::Malformed:
        writeMalformed(r, b, text);
        break;
    case A::InvalidStoryboard:
        writeText(r, b, invalidText(kind == Kind::Captions, board, story), SimWire::Ending::Stop);
        break;
    case A::Refused:
        if (SimWire::refusesWithHttpError(dialect)) {
            writeJson(socket, 400, kInspectionFailed, {}, provider);
            finished(provider, socket);
        } else {
            writeText(r, b, QString(), SimWire::Ending::Refused);
        }
        break;
    case A::Reset:
        m_owed.erase(socket);
        socket->disconnectFromHost(); // the whole request was read; not one byte of answer
        break;
    case A::StreamCut:
        if (stream)
            writeCutOrStall(provider, socket, b, events(std::max(6, b.afterEvents + 2)));
        else
            writeCutBody(provider, socket, b, whole);
        break;
    case A::StreamError:
        if (stream)
            writeChunkedStream(provider, socket, events(6).mid(0, 2) << SimWire::streamErrorEvent(dialect), 0, StreamEnd::Finish);
        else
            writeError(r, b, QStringLiteral("overloaded"), 0, -1); // without a stream, the same overload as a status
        break;
    case A::Empty:
        writeText(r, b, QString(), SimWire::Ending::Stop);
        break;
    }
}

// A comic for an image request: drawn off the event loop (tens of milliseconds), or a broken or empty
// one for the scenarios that send those.
void ProviderSimulator::drawImage(const Reply &r, const Storyboard &board, SimBehaviour::Action action)
{
    auto reply = [this, r](const QByteArray &imageBase64) {
        if (!r.socket || r.socket->state() != QAbstractSocket::ConnectedState)
            return;
        writeJson(r.socket, 200, SimWire::imageBody(r.model, imageBase64, QStringLiteral("image/png"), TokenUsage { r.usage.input, 1290 }),
                  {}, r.provider);
        finished(r.provider, r.socket);
    };
    if (action != SimBehaviour::Action::Ok) {
        reply(action == SimBehaviour::Action::InvalidStoryboard ? QByteArray("this is not an image").toBase64() : QByteArray());
        return;
    }
    QPointer<ProviderSimulator> self(this);
    if (!m_painters) {
        m_painters = new QThreadPool(this); // waited for in the destructor: a painter never outlives us
        m_painters->setMaxThreadCount(1); // leave the other core to the event loops
    }
    m_painters->start([self, board, reply] {
        yieldToOtherThreads();
        // The same storyboard draws the same comic: the last 32 are kept, as base64 ready to send, so
        // that load tests measure the engine rather than the simulator's painting and encoding (the
        // bytes on the wire are identical).
        static QMutex cacheLock;
        static QCache<QByteArray, QByteArray> drawn(32);
        const QByteArray key =
            QCryptographicHash::hash(QJsonDocument(board.toJson()).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256);
        QByteArray base64;
        {
            const QMutexLocker lock(&cacheLock);
            if (const QByteArray *hit = drawn.object(key))
                base64 = *hit;
        }
        if (base64.isEmpty()) {
            base64 = ComicRenderer::renderPng(board).toBase64();
            const QMutexLocker lock(&cacheLock);
            drawn.insert(key, new QByteArray(base64));
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, reply, base64] {
                if (self)
                    reply(base64);
            },
            Qt::QueuedConnection);
    });
}

// A 200 answer carrying text: one JSON body, the provider's event stream, or (Gemini's
// :streamGenerateContent without alt=sse) the same chunks as one JSON array.
void ProviderSimulator::writeText(const Reply &r, const SimBehaviour &b, const QString &text, SimWire::Ending ending)
{
    constexpr int kPieces = 4;
    if (r.stream && Dialects::of(r.dialect).streamsAsJsonArray() && !b.geminiSse) {
        QByteArray array = "[";
        const QList<QByteArray> events = SimWire::stream(r.dialect, r.model, text, ending, r.usage, kPieces);
        for (qsizetype i = 0; i < events.size(); ++i)
            array += (i ? ",\r\n" : "") + events.at(i).mid(6).trimmed(); // "data: {…}\r\n\r\n" → "{…}"
        writeJson(r.socket, 200, array + "]", {}, r.provider);
        finished(r.provider, r.socket);
    } else if (r.stream) {
        const QList<QByteArray> events = SimWire::stream(r.dialect, r.model, text, ending, r.usage, kPieces, b.streamUsage);
        writeChunkedStream(r.provider, r.socket, events, pacedInterval(b, events.size()), StreamEnd::Finish);
    } else {
        writeJson(r.socket, 200, SimWire::body(r.dialect, r.model, text, ending, r.usage), {}, r.provider);
        finished(r.provider, r.socket);
    }
}

// The provider's own event with broken JSON where an SDK reads it (Anthropic: a named event), or a
// body that is not JSON.
void ProviderSimulator::writeMalformed(const Reply &r, const SimBehaviour &b, const QString &text)
{
    if (r.stream) {
        QList<QByteArray> events = SimWire::stream(r.dialect, r.model, text, SimWire::Ending::Stop, r.usage, 4, b.streamUsage);
        events.insert(Dialects::of(r.dialect).malformedEventAt(), SimWire::malformedStreamEvent(r.dialect));
        writeChunkedStream(r.provider, r.socket, events, 0, StreamEnd::Finish);
    } else {
        writeJson(r.socket, 200, SimWire::malformedBody(r.dialect), {}, r.provider);
        finished(r.provider, r.socket);
    }
}

// The provider's error answer for a failure name (SimWire::error), with its status and headers.
void ProviderSimulator::writeError(const Reply &r, const SimBehaviour &b, const QString &name, int status, int retryAfter)
{
    SimWire::ErrorReply e = SimWire::error(r.dialect, name == u"auth_echo" ? QStringLiteral("auth") : name, status, retryAfter);
    if (!b.body.isEmpty()) { // the scenario's own answer (a replay's recorded one): sent as it is
        e.body = b.body;
        e.contentType = QJsonDocument::fromJson(b.body).isNull() ? QByteArray("text/plain; charset=utf-8") : QByteArray("application/json");
    }
    if (name == u"auth_echo") {
        // Some providers quote the key they were sent in their 401/400 text (Gemini does; OpenAI's
        // "Bearer sk-…"): the engine must scrub it before anything is recorded (docs/contract.md §11.9).
        QByteArray key = b.receivedKey.left(200).replace('"', "").replace('\\', "");
        e.body.replace("\"message\":\"",
                       QByteArray("\"message\":\"API key not valid: " + key + " (Authorization: Bearer " + key + ", key=" + key + "). "));
    }
    writeJson(r.socket, e.status, e.body, e.headers, r.provider, e.contentType);
    finished(r.provider, r.socket);
}

} // namespace bullpen
