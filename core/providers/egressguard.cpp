// SPDX-License-Identifier: MIT
#include "egressguard.h"

#include "config/proxyrules.h"
#include "engine/tsanseed.h"
#include "httpframing.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QNetworkProxy>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>
#include <utility>

Q_LOGGING_CATEGORY(lcGuard, "bullpen.guard")

namespace bullpen {

namespace {

// Index just past the blank line ending a head ("\r\n\r\n" or "\n\n"), or -1. Scans from `from`
// only, so a head arriving a byte at a time is still read in linear time.
qsizetype headEnd(QByteArrayView buf, qsizetype from)
{
    for (qsizetype i = std::max<qsizetype>(from, 1); i < buf.size(); ++i) {
        if (buf[i] != '\n')
            continue;
        if (buf[i - 1] == '\n')
            return i + 1;
        if (i >= 3 && buf[i - 1] == '\r' && buf[i - 2] == '\n')
            return i + 1;
    }
    return -1;
}

bool isHopHeader(QByteArrayView line)
{
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return false;
    const QByteArray name = line.first(colon).trimmed().toByteArray().toLower();
    return name == "connection" || name == "keep-alive" || name == "proxy-connection" || name.startsWith("x-bullpen-guard");
}

// Removes hop-by-hop headers and the guard's own markers sent by anyone else; sets Host when given,
// and `Connection: close` when the connection carries nothing after this message.
QByteArray rewriteHead(QByteArrayView head, const QByteArray &host, bool close)
{
    QByteArray out;
    out.reserve(head.size() + 64);
    const QList<QByteArray> lines = head.toByteArray().split('\n');
    bool first = true;
    for (QByteArray line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            continue;
        if (!first) {
            if (isHopHeader(line))
                continue;
            if (!host.isEmpty() && line.toLower().startsWith("host:"))
                continue;
        }
        out += line + "\r\n";
        if (first && !host.isEmpty())
            out += "Host: " + host + "\r\n";
        first = false;
    }
    out += close ? "Connection: close\r\n\r\n" : "\r\n";
    return out;
}

// A provider's connection left idle longer than this is not reused: servers close idle connections
// after a few seconds (uvicorn, which vLLM runs on, and Node after 5 s), and a request written as
// the provider closes would fail although the provider never read it.
constexpr qint64 kUpstreamReuseMs = 2000;

} // namespace

// One connection from Qt, relayed exchange by exchange (keep-alive on both legs while every message's
// end is known): Qt's socket on one side, a connection to the provider on the other.
class GuardedConnection final : public QObject
{
public:
    GuardedConnection(qintptr descriptor, const QString &host, quint16 port, EgressGuard *guard, QObject *parent)
        : QObject(parent)
        , m_guard(guard)
        , m_limits(guard->m_limits)
        , m_host(host)
        , m_port(port)
        // Through the configured proxy, if any (proxyrules.h): the relay is this process; the provider is not.
        , m_proxy(guard->m_routes->proxyFor(QUrl(QStringLiteral("http://%1:%2/").arg(host).arg(port))))
    {
        m_down.setSocketDescriptor(descriptor);
        m_down.setSocketOption(QAbstractSocket::LowDelayOption, 1); // as Qt's own HTTP sockets: no Nagle delay
        connect(&m_down, &QTcpSocket::readyRead, this, &GuardedConnection::onRequestBytes);
        connect(&m_down, &QTcpSocket::disconnected, this, &GuardedConnection::onEngineClosed);
        connect(&m_down, &QTcpSocket::bytesWritten, this, &GuardedConnection::pumpResponse);
        onRequestBytes();
    }

    ~GuardedConnection() override
    {
        // The sockets are members: cut their signals before they close, or a late disconnected()
        // would land in this half-destroyed object.
        m_down.disconnect(this);
        if (m_up)
            m_up->disconnect(this);
    }

private:
    // Idle: between exchanges; Head: a request is going up, its response head is awaited; Body: the
    // response body passes; Done: closing.
    enum class Phase { Idle, Head, Body, Done };

    QByteArray hostHeader() const { return (m_host + QLatin1Char(':') + QString::number(m_port)).toLatin1(); }

    void onRequestBytes()
    {
        if (m_phase == Phase::Done)
            return;
        m_request += m_down.readAll();
        if (m_phase == Phase::Idle && !startExchange())
            return;
        if (m_requestLeft != 0 && !m_request.isEmpty()) {
            const qsizetype n = m_requestLeft < 0 ? m_request.size() : std::min<qsizetype>(m_requestLeft, m_request.size());
            m_toProvider += m_request.first(n);
            m_request.remove(0, n);
            if (m_requestLeft > 0)
                m_requestLeft -= n;
        }
        flushRequest();
    }

    // Reads Qt's next request head; true when an exchange started with it.
    bool startExchange()
    {
        const qsizetype end = headEnd(m_request, m_requestScan);
        if (end < 0) {
            m_requestScan = std::max<qsizetype>(0, m_request.size() - 3);
            if (m_request.size() > m_limits.maxHeadBytes)
                finish();
            return false;
        }
        const QByteArrayView head = QByteArrayView(m_request).first(end);
        const MessageHead request = readRequestHead(head);
        m_method = request.method;
        m_keepEngine = request.reusable;
        m_requestLeft = request.framing == BodyFraming::Length ? request.length : request.framing == BodyFraming::None ? 0 : -1;
        m_toProvider = rewriteHead(head, hostHeader(), !m_keepEngine);
        m_request.remove(0, end);
        m_requestScan = 0;
        m_head.clear();
        m_headScan = 0;
        m_interim = 0;
        m_bodyBytes = 0;
        m_reached = false;
        m_surplus = false;
        m_bodyComplete = false;
        m_chunks = {};
        m_phase = Phase::Head;
        connectProvider();
        return true;
    }

    // A connection to the provider for this exchange: the last one when it is fresh enough, else a new one.
    void connectProvider()
    {
        if (m_up && m_upConnected && !m_upClosed && m_up->state() == QAbstractSocket::ConnectedState && m_upIdle.isValid()
            && m_upIdle.elapsed() < kUpstreamReuseMs)
            return;
        dropProvider();
        m_up = std::make_unique<QTcpSocket>();
        m_up->setReadBufferSize(m_limits.maxBufferedBytes);
        connect(m_up.get(), &QTcpSocket::connected, this, &GuardedConnection::onUpstreamConnected);
        connect(m_up.get(), &QTcpSocket::readyRead, this, &GuardedConnection::onResponseBytes);
        connect(m_up.get(), &QTcpSocket::disconnected, this, &GuardedConnection::onUpstreamClosed);
        connect(m_up.get(), &QTcpSocket::errorOccurred, this, &GuardedConnection::onUpstreamError);
        m_up->setProxy(m_proxy);
        m_up->connectToHost(m_host, m_port);
        m_guard->count([](EgressGuard::Stats &s) { ++s.connections; });
    }

    // Closes the provider's connection now; its socket goes at the next turn of the loop (this may
    // run inside one of its signals).
    void dropProvider()
    {
        if (!m_up)
            return;
        m_up->disconnect(this);
        m_up->abort();
        m_up.release()->deleteLater();
        m_upConnected = false;
        m_upClosed = false;
        m_upIdle.invalidate();
    }

    void flushRequest()
    {
        if (m_upConnected && !m_toProvider.isEmpty()) {
            m_up->write(m_toProvider);
            m_up->flush(); // now, not at the loop's next turn
            m_toProvider.clear();
            m_reached = true;
        }
    }

    void onUpstreamConnected()
    {
        m_upConnected = true;
        m_up->setSocketOption(QAbstractSocket::LowDelayOption, 1); // now that the socket exists (a host lookup defers it)
        flushRequest();
    }

    void onResponseBytes()
    {
        if (m_phase == Phase::Idle || m_phase == Phase::Done) {
            // Bytes nobody asked for, between exchanges: that connection carries nothing more.
            dropProvider();
            return;
        }
        if (m_phase == Phase::Head)
            readHead();
        if (m_phase == Phase::Body)
            pumpResponse();
    }

    void readHead()
    {
        if (m_up->isOpen())
            m_head += m_up->read(m_limits.maxHeadBytes + 1 - m_head.size());
        while (m_phase == Phase::Head) {
            if (m_head.size() >= 5 && !m_head.startsWith("HTTP/"))
                return violate("not-http",
                               QStringLiteral("the provider's answer is not HTTP (it starts \"%1\")")
                                   .arg(QString::fromLatin1(m_head.left(16).toPercentEncoding(" /.:"))));
            const qsizetype end = headEnd(m_head, m_headScan);
            if (end < 0) {
                m_headScan = std::max<qsizetype>(0, m_head.size() - 3);
                if (m_head.size() > m_limits.maxHeadBytes)
                    return violate("head-too-large",
                                   QStringLiteral("the provider sent more than %1 KiB of status and header lines "
                                                  "without ending its response head")
                                       .arg(m_limits.maxHeadBytes / 1024));
                if (m_up->isOpen() && m_up->bytesAvailable() > 0)
                    m_head += m_up->read(m_limits.maxHeadBytes + 1 - m_head.size());
                else
                    return;
                continue;
            }
            const QByteArray head = m_head.first(end);
            m_head.remove(0, end);
            m_headScan = 0;
            const MessageHead response = readResponseHead(head, m_method);
            if (response.status == 101)
                return violate("not-http", QStringLiteral("the provider switched protocols (HTTP 101) without being asked"));
            if (response.status >= 100 && response.status < 200) {
                if (++m_interim > m_limits.maxInterimResponses)
                    return violate("interim-flood",
                                   QStringLiteral("the provider sent more than %1 interim (1xx) responses before its answer")
                                       .arg(m_limits.maxInterimResponses));
                continue; // Qt ignores them too; never forwarded
            }
            beginBody(head, response);
        }
    }

    // The final head: Qt gets it (with `Connection: close` unless its connection carries more), and
    // what was read past it is the body's start.
    void beginBody(const QByteArray &head, const MessageHead &response)
    {
        m_framing = response.framing;
        m_bodyLeft = response.length;
        m_keepEngine = m_keepEngine && m_framing != BodyFraming::UntilClose;
        m_keepProvider = m_keepEngine && response.reusable;
        m_down.write(rewriteHead(head, {}, !m_keepEngine));
        m_phase = Phase::Body;
        const QByteArray early = std::exchange(m_head, {});
        passBody(early);
    }

    // Passes body bytes to Qt, noting where the body ends by its framing; bytes past the end are the
    // provider's surplus and go nowhere.
    void passBody(QByteArray bytes)
    {
        switch (m_framing) {
        case BodyFraming::None:
            m_bodyComplete = true;
            break;
        case BodyFraming::Length:
            if (bytes.size() >= m_bodyLeft) {
                m_surplus = m_surplus || bytes.size() > m_bodyLeft;
                bytes.truncate(m_bodyLeft);
                m_bodyComplete = true;
            }
            m_bodyLeft -= bytes.size();
            break;
        case BodyFraming::Chunked: {
            const qsizetype mine = m_chunks.consume(bytes);
            if (m_chunks.failed()) {
                // Qt reads the malformed body as it will; nothing after it is trusted on this connection.
                m_keepEngine = m_keepProvider = false;
                m_framing = BodyFraming::UntilClose;
            } else if (m_chunks.done()) {
                m_surplus = m_surplus || mine < bytes.size();
                bytes.truncate(mine);
                m_bodyComplete = true;
            }
            break;
        }
        case BodyFraming::UntilClose:
            break;
        }
        if (m_framing == BodyFraming::None) {
            m_surplus = m_surplus || !bytes.isEmpty();
            return;
        }
        m_bodyBytes += bytes.size();
        if (!bytes.isEmpty())
            m_down.write(bytes);
    }

    // Forwards the body as fast as Qt reads it, never holding more than the limit in either buffer.
    void pumpResponse()
    {
        if (m_phase != Phase::Body)
            return;
        while (!m_bodyComplete && m_up && m_down.bytesToWrite() < m_limits.maxBufferedBytes && m_up->bytesAvailable() > 0
               && m_bodyBytes < m_limits.maxBodyBytes) {
            qint64 want = std::min(m_limits.maxBufferedBytes, m_limits.maxBodyBytes - m_bodyBytes);
            if (m_framing == BodyFraming::Length)
                want = std::min(want, m_bodyLeft);
            passBody(m_up->read(want));
        }
        if (m_bodyComplete) {
            // The last bytes go now, not at the loop's next turn. Only here: flush() inside a
            // bytesWritten() emission writes without emitting another, and a body still passing
            // would then wait for a signal that never comes.
            m_down.flush();
            return endExchange();
        }
        if (m_bodyBytes >= m_limits.maxBodyBytes) {
            // Enough for the adapter to refuse it as too large; the provider sends nothing more.
            m_guard->count([](EgressGuard::Stats &s) { ++s.violations; });
            return finish();
        }
        if (m_framing == BodyFraming::UntilClose && !m_keepEngine && m_chunks.failed())
            return finish(); // see passBody: Qt has every byte; the connection ends here
        if (m_upClosed && (!m_up || m_up->bytesAvailable() == 0))
            finish();
    }

    // The response is complete: Qt's connection waits for its next request, the provider's is kept
    // for it when its answer allowed.
    void endExchange()
    {
        if (!m_keepEngine || m_requestLeft != 0 || !m_toProvider.isEmpty())
            return finish(); // (the provider answered before it had the whole request: nothing after it is framed)
        if (m_keepProvider && !m_surplus && !m_upClosed)
            m_upIdle.start();
        else
            dropProvider();
        m_phase = Phase::Idle;
        if (!m_request.isEmpty())
            onRequestBytes(); // Qt's next request was already here
    }

    void violate(const char *code, const QString &detail)
    {
        m_guard->count([](EgressGuard::Stats &s) { ++s.violations; });
        qCInfo(lcGuard) << "closed" << m_host << m_port << code << detail;
        dropProvider();
        respond(code, detail);
    }

    // The guard's own answer, given only while nothing of the provider's response has been forwarded.
    void respond(const char *code, const QString &detail)
    {
        const QByteArray body =
            QJsonDocument(QJsonObject { { QStringLiteral("error"), QJsonObject { { QStringLiteral("message"), detail } } } })
                .toJson(QJsonDocument::Compact);
        QByteArray head = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
            + "\r\nConnection: close\r\n" + kGuardHeader + ": " + code + "\r\n" + kGuardReachedHeader + ": " + (m_reached ? "1" : "0")
            + "\r\n\r\n";
        m_down.write(head + body);
        finish();
    }

    void onUpstreamClosed()
    {
        if (m_phase == Phase::Idle) {
            dropProvider(); // an idle keep-alive connection the provider closed: the next exchange opens another
            return;
        }
        if (m_phase == Phase::Done)
            return;
        m_upClosed = true;
        if (m_phase == Phase::Head) {
            readHead();
            if (m_phase == Phase::Head)
                respond("closed",
                        m_head.isEmpty() && m_interim == 0
                            ? QStringLiteral("the provider closed the connection after the request was sent, before any byte of its answer")
                            : QStringLiteral("the provider closed the connection in the middle of its response head"));
        }
        if (m_phase == Phase::Body)
            pumpResponse();
    }

    void onUpstreamError(QAbstractSocket::SocketError error)
    {
        if (error == QAbstractSocket::RemoteHostClosedError)
            return; // onUpstreamClosed says it
        if (m_phase == Phase::Idle)
            dropProvider();
        else if (!m_upConnected && m_phase == Phase::Head)
            respond("unreachable", QStringLiteral("could not connect to %1:%2: %3").arg(m_host).arg(m_port).arg(m_up->errorString()));
        else if (m_phase != Phase::Done)
            onUpstreamClosed();
    }

    // Qt closed its side: the deadline, an operator cancel or shutdown aborted the reply, or Qt let an
    // idle keep-alive connection go.
    void onEngineClosed()
    {
        if ((m_phase == Phase::Head || m_phase == Phase::Body) && m_up && m_up->state() != QAbstractSocket::UnconnectedState)
            m_guard->count([](EgressGuard::Stats &s) { ++s.closedByEngine; });
        dropProvider();
        m_phase = Phase::Done;
        deleteLater();
    }

    void finish()
    {
        m_phase = Phase::Done;
        dropProvider();
        m_down.disconnectFromHost(); // after what is queued for Qt has been written
        if (m_down.state() == QAbstractSocket::UnconnectedState)
            deleteLater();
    }

    EgressGuard *m_guard;
    GuardLimits m_limits;
    QString m_host;
    quint16 m_port;
    QNetworkProxy m_proxy;
    QTcpSocket m_down;
    std::unique_ptr<QTcpSocket> m_up;
    bool m_upConnected = false;
    bool m_upClosed = false;
    QElapsedTimer m_upIdle; // since the provider's connection last finished an exchange
    Phase m_phase = Phase::Idle;
    // Qt's request
    QByteArray m_request; // bytes from Qt not yet passed on
    qsizetype m_requestScan = 0;
    qint64 m_requestLeft = 0; // body bytes of the current request still to pass; -1: all until close
    QByteArray m_toProvider;
    QByteArray m_method;
    bool m_reached = false;
    // the provider's response
    QByteArray m_head;
    qsizetype m_headScan = 0;
    int m_interim = 0;
    BodyFraming m_framing = BodyFraming::UntilClose;
    qint64 m_bodyLeft = 0;
    ChunkedTracker m_chunks;
    qint64 m_bodyBytes = 0;
    bool m_bodyComplete = false;
    bool m_surplus = false;
    bool m_keepEngine = false; // Qt's connection carries another exchange after this one
    bool m_keepProvider = false; // and so does the provider's
};

class GuardRelay final : public QTcpServer
{
public:
    GuardRelay(const QString &host, quint16 port, EgressGuard *guard, QObject *parent)
        : QTcpServer(parent)
        , m_host(host)
        , m_port(port)
        , m_guard(guard)
    {
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        BULLPEN_TSAN_SEED("relay"); // on the relay's thread (tsanseed.h)
        new GuardedConnection(descriptor, m_host, m_port, m_guard, this);
    }

private:
    QString m_host;
    quint16 m_port;
    EgressGuard *m_guard;
};

EgressGuard::EgressGuard(GuardLimits limits, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_routes(std::make_shared<ProxyRoutes>()) // none until its engine's (setProxyRoutes)
{
    m_thread.setObjectName(QStringLiteral("bullpen-guard"));
    m_home = new QObject;
    m_home->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_home, &QObject::deleteLater);
    m_thread.start();
}

EgressGuard::~EgressGuard()
{
    m_thread.quit();
    m_thread.wait();
}

std::optional<QUrl> EgressGuard::route(const QUrl &upstream, QString *error)
{
    BULLPEN_TSAN_SEED_READ("relay"); // on the caller's thread, racing the relay's (tsanseed.h)
    const QString host = upstream.host();
    const quint16 port = static_cast<quint16>(upstream.port(80));
    const QString key = host + QLatin1Char(':') + QString::number(port);
    quint16 local = 0;
    {
        QMutexLocker lock(&m_mutex);
        if (const auto it = m_ports.find(key); it != m_ports.end())
            local = it->second;
    }
    if (!local) {
        QString why;
        QMetaObject::invokeMethod(
            m_home,
            [&] {
                auto *relay = new GuardRelay(host, port, this, m_home);
                // Qt's default backlog (50) drops the SYNs of a burst: the kernel retries them a whole
                // second later, after many deadlines. Every attempt must reach the provider at once.
                relay->setListenBacklogSize(kListenBacklog);
                if (relay->listen(QHostAddress::LocalHost, 0)) {
                    local = relay->serverPort();
                } else {
                    why = relay->errorString();
                    delete relay;
                }
            },
            Qt::BlockingQueuedConnection);
        if (!local) {
            if (error)
                *error = QStringLiteral("cannot open the loopback relay for %1: %2").arg(key, why);
            return std::nullopt;
        }
        QMutexLocker lock(&m_mutex);
        m_ports[key] = local;
    }
    QUrl routed = upstream;
    routed.setScheme(QStringLiteral("http"));
    routed.setHost(QStringLiteral("127.0.0.1"));
    routed.setPort(local);
    m_routes->addDirectOrigin(routed); // Qt reaches the relay directly; the relay uses the proxy
    return routed;
}

EgressGuard::Stats EgressGuard::stats() const
{
    QMutexLocker lock(&m_mutex);
    return m_stats;
}

void EgressGuard::count(void (*bump)(Stats &))
{
    QMutexLocker lock(&m_mutex);
    bump(m_stats);
}

} // namespace bullpen
