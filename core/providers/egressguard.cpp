// SPDX-License-Identifier: MIT
#include "egressguard.h"

#include "proxyrules.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

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

// Replaces hop-by-hop headers with `Connection: close` (and Host, when given); the guard's own
// markers sent by anyone else are dropped.
QByteArray rewriteHead(QByteArrayView head, const QByteArray &host)
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
    out += "Connection: close\r\n\r\n";
    return out;
}

} // namespace

// One relayed connection: Qt's socket on one side, the provider's on the other.
class GuardedConnection final : public QObject
{
public:
    GuardedConnection(qintptr descriptor, const QString &host, quint16 port, EgressGuard *guard, QObject *parent)
        : QObject(parent)
        , m_guard(guard)
        , m_limits(guard->m_limits)
        , m_host(host)
        , m_port(port)
    {
        m_down.setSocketDescriptor(descriptor);
        m_up.setReadBufferSize(m_limits.maxBufferedBytes);
        connect(&m_down, &QTcpSocket::readyRead, this, &GuardedConnection::onRequestBytes);
        connect(&m_down, &QTcpSocket::disconnected, this, &GuardedConnection::onEngineClosed);
        connect(&m_down, &QTcpSocket::bytesWritten, this, &GuardedConnection::pumpResponse);
        connect(&m_up, &QTcpSocket::connected, this, &GuardedConnection::onUpstreamConnected);
        connect(&m_up, &QTcpSocket::readyRead, this, &GuardedConnection::onResponseBytes);
        connect(&m_up, &QTcpSocket::disconnected, this, &GuardedConnection::onUpstreamClosed);
        connect(&m_up, &QTcpSocket::errorOccurred, this, &GuardedConnection::onUpstreamError);
        // Through the configured proxy, if any (proxyrules.h): the relay is this process; the provider is not.
        m_up.setProxy(proxyFor(QUrl(QStringLiteral("http://%1:%2/").arg(m_host).arg(m_port))));
        m_up.connectToHost(m_host, m_port);
        m_guard->count([](EgressGuard::Stats &s) { ++s.connections; });
        onRequestBytes();
    }

    ~GuardedConnection() override
    {
        // The sockets are members: cut their signals before they close, or a late disconnected()
        // would land in this half-destroyed object.
        m_down.disconnect(this);
        m_up.disconnect(this);
    }

private:
    enum class Phase { Head, Body, Done };

    QByteArray hostHeader() const { return (m_host + QLatin1Char(':') + QString::number(m_port)).toLatin1(); }

    void onRequestBytes()
    {
        if (m_responsePhase == Phase::Done)
            return;
        m_request += m_down.readAll();
        if (!m_requestHeadDone) {
            const qsizetype end = headEnd(m_request, m_requestScan);
            if (end < 0) {
                m_requestScan = std::max<qsizetype>(0, m_request.size() - 3);
                if (m_request.size() > m_limits.maxHeadBytes)
                    finish();
                return;
            }
            m_request = rewriteHead(QByteArrayView(m_request).first(end), hostHeader()) + m_request.sliced(end);
            m_requestHeadDone = true;
        }
        if (m_upConnected && !m_request.isEmpty()) {
            m_up.write(m_request);
            m_request.clear();
            m_reached = true;
        }
    }

    void onUpstreamConnected()
    {
        m_upConnected = true;
        onRequestBytes();
    }

    void onResponseBytes()
    {
        if (m_responsePhase == Phase::Head)
            readHead();
        if (m_responsePhase == Phase::Body)
            pumpResponse();
    }

    void readHead()
    {
        if (m_up.isOpen())
            m_head += m_up.read(m_limits.maxHeadBytes + 1 - m_head.size());
        while (m_responsePhase == Phase::Head) {
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
                if (m_up.isOpen() && m_up.bytesAvailable() > 0)
                    m_head += m_up.read(m_limits.maxHeadBytes + 1 - m_head.size());
                else
                    return;
                continue;
            }
            const QByteArray head = m_head.first(end);
            m_head.remove(0, end);
            m_headScan = 0;
            const QList<QByteArray> statusParts = head.left(head.indexOf('\n')).simplified().split(' ');
            const int status = statusParts.size() >= 2 ? statusParts.at(1).toInt() : 0;
            if (status == 101)
                return violate("not-http", QStringLiteral("the provider switched protocols (HTTP 101) without being asked"));
            if (status >= 100 && status < 200) {
                if (++m_interim > m_limits.maxInterimResponses)
                    return violate("interim-flood",
                                   QStringLiteral("the provider sent more than %1 interim (1xx) responses before its answer")
                                       .arg(m_limits.maxInterimResponses));
                continue; // Qt ignores them too; never forwarded
            }
            m_pending = rewriteHead(head, {}) + m_head;
            m_head.clear();
            m_responsePhase = Phase::Body;
        }
    }

    // Forwards the body as fast as Qt reads it, never holding more than the limit in either buffer.
    void pumpResponse()
    {
        if (m_responsePhase != Phase::Body)
            return;
        if (!m_pending.isEmpty()) {
            m_down.write(m_pending);
            m_pending.clear();
        }
        while (m_down.bytesToWrite() < m_limits.maxBufferedBytes && m_up.bytesAvailable() > 0 && m_bodyBytes < m_limits.maxBodyBytes) {
            const QByteArray chunk = m_up.read(std::min(m_limits.maxBufferedBytes, m_limits.maxBodyBytes - m_bodyBytes));
            m_bodyBytes += chunk.size();
            m_down.write(chunk);
        }
        if (m_bodyBytes >= m_limits.maxBodyBytes) {
            // Enough for the adapter to refuse it as too large; the provider sends nothing more.
            m_guard->count([](EgressGuard::Stats &s) { ++s.violations; });
            return finish();
        }
        if (m_upClosed && m_up.bytesAvailable() == 0)
            finish();
    }

    void violate(const char *code, const QString &detail)
    {
        m_guard->count([](EgressGuard::Stats &s) { ++s.violations; });
        qCInfo(lcGuard) << "closed" << m_host << m_port << code << detail;
        m_up.abort();
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
        if (m_responsePhase == Phase::Done)
            return;
        m_upClosed = true;
        if (m_responsePhase == Phase::Head) {
            readHead();
            if (m_responsePhase == Phase::Head)
                respond("closed",
                        m_head.isEmpty() && m_interim == 0
                            ? QStringLiteral("the provider closed the connection after the request was sent, before any byte of its answer")
                            : QStringLiteral("the provider closed the connection in the middle of its response head"));
        }
        if (m_responsePhase == Phase::Body)
            pumpResponse();
    }

    void onUpstreamError(QAbstractSocket::SocketError error)
    {
        if (error == QAbstractSocket::RemoteHostClosedError)
            return; // onUpstreamClosed says it
        if (!m_upConnected && m_responsePhase == Phase::Head)
            respond("unreachable", QStringLiteral("could not connect to %1:%2: %3").arg(m_host).arg(m_port).arg(m_up.errorString()));
        else if (m_responsePhase != Phase::Done)
            onUpstreamClosed();
    }

    // Qt closed its side: the deadline, an operator cancel or shutdown aborted the reply.
    void onEngineClosed()
    {
        if (m_responsePhase != Phase::Done && m_up.state() != QAbstractSocket::UnconnectedState)
            m_guard->count([](EgressGuard::Stats &s) { ++s.closedByEngine; });
        m_up.abort();
        m_responsePhase = Phase::Done;
        deleteLater();
    }

    void finish()
    {
        m_responsePhase = Phase::Done;
        m_up.abort();
        m_down.disconnectFromHost(); // after what is queued for Qt has been written
        if (m_down.state() == QAbstractSocket::UnconnectedState)
            deleteLater();
    }

    EgressGuard *m_guard;
    GuardLimits m_limits;
    QString m_host;
    quint16 m_port;
    QTcpSocket m_down;
    QTcpSocket m_up;
    QByteArray m_request;
    qsizetype m_requestScan = 0;
    bool m_requestHeadDone = false;
    bool m_upConnected = false;
    bool m_upClosed = false;
    bool m_reached = false;
    QByteArray m_head;
    qsizetype m_headScan = 0;
    int m_interim = 0;
    QByteArray m_pending;
    qint64 m_bodyBytes = 0;
    Phase m_responsePhase = Phase::Head;
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
    void incomingConnection(qintptr descriptor) override { new GuardedConnection(descriptor, m_host, m_port, m_guard, this); }

private:
    QString m_host;
    quint16 m_port;
    EgressGuard *m_guard;
};

EgressGuard::EgressGuard(GuardLimits limits, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
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
    addDirectOrigin(routed); // Qt reaches the relay directly; the relay uses the proxy
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
