// SPDX-License-Identifier: MIT
#include "cappedtcpserver.h"

#include "config/processlimits.h"

#include <QSslSocket>
#include <QTcpSocket>

#include <sys/ioctl.h>
#include <sys/socket.h>

namespace bullpen {

namespace {
constexpr qint64 kReportEveryMs = 10000;

// A whole answer that closes the connection, written straight to the socket.
QByteArray closingAnswer(int status, const char *reason, const char *message, const char *extraHeader = "")
{
    const QByteArray body = "{\"error\":{\"status\":" + QByteArray::number(status) + ",\"message\":\"" + message + "\"}}";
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Type: application/json\r\n" + extraHeader
        + "Connection: close\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// What the open-file limit leaves for clients: a quarter of it, and 32 more, stay for the store and
// the providers' connections.
int connectionRoom()
{
    return static_cast<int>(std::clamp<qint64>(openFileLimit() * 3 / 4 - 32, 8, 1 << 20));
}

// Bytes that reached the connection but were not read yet, by Qt or by the kernel. A connection
// whose first bytes are still queued (its readyRead not handled yet) has begun a request.
bool hasUnreadBytes(QTcpSocket *socket)
{
    if (socket->bytesAvailable() > 0)
        return true;
    int queued = 0;
    return ::ioctl(static_cast<int>(socket->socketDescriptor()), FIONREAD, &queued) == 0 && queued > 0;
}
} // namespace

const char *CappedTcpServer::endedName(Ended e)
{
    switch (e) {
    case Ended::RequestTimeout:
        return "request_timeout";
    case Ended::IdleTimeout:
        return "idle_timeout";
    case Ended::Evicted:
        return "evicted";
    case Ended::Refused:
        return "refused";
    }
    return "refused";
}

CappedTcpServer::CappedTcpServer(qint64 cap, QByteArray body, QObject *parent)
    : QTcpServer(parent)
    , m_cap(cap)
    , m_body(std::move(body))
{
    m_clock.start();
    connect(&m_sweep, &QTimer::timeout, this, [this] { sweep(); });
    // Out of descriptors or memory, accept() fails and Qt stops accepting for good: try again shortly.
    connect(this, &QTcpServer::acceptError, this, [this](QAbstractSocket::SocketError) {
        const qint64 now = m_clock.elapsed();
        if (m_report && (m_acceptErrorMs < 0 || now - m_acceptErrorMs >= kReportEveryMs)) {
            m_acceptErrorMs = now;
            m_report(QStringLiteral("accepting a connection failed (%1); trying again every 100 ms").arg(errorString()));
        }
        pauseAccepting();
        QTimer::singleShot(100, this, [this] { resumeAccepting(); });
    });
}

void CappedTcpServer::setLimits(const ConnectionLimits &limits)
{
    ConnectionLimits l = limits;
    l.maxConnections = std::max(1, std::min(l.maxConnections, connectionRoom()));
    l.maxPerAddress = std::clamp(l.maxPerAddress > 0 ? l.maxPerAddress : l.maxConnections / 2, 1, l.maxConnections);
    m_limits = l;
    const auto shortest = std::min(l.request, l.idle);
    m_sweep.start(std::clamp<std::chrono::milliseconds>(shortest / 4, std::chrono::milliseconds(50), std::chrono::milliseconds(1000)));
}

void CappedTcpServer::incomingConnection(qintptr fd)
{
    QTcpSocket *socket = nullptr;
    if (m_tls) {
        auto *tls = new QSslSocket(this);
        tls->setSslConfiguration(*m_tls);
        socket = tls;
    } else {
        socket = new QTcpSocket(this);
    }
    if (!socket->setSocketDescriptor(fd)) {
        delete socket;
        return;
    }
    const QHostAddress peer = socket->peerAddress();
    if (m_limits && !makeRoom(peer)) {
        ++m_ended[static_cast<int>(Ended::Refused)];
        report();
        if (m_tls) { // no handshake yet: a plain-text answer would be noise to a TLS client
            socket->abort();
            socket->deleteLater();
            return;
        }
        // Every connection is busy (mid-request, or a stream): this one is told so and closed.
        static const QByteArray busy =
            closingAnswer(503, "Service Unavailable", "too many connections to this engine; retry in a second", "Retry-After: 1\r\n");
        socket->write(busy);
        if (m_countAnswer)
            m_countAnswer(503);
        socket->disconnectFromHost();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QTimer::singleShot(1000, socket, [socket] { socket->abort(); });
        return;
    }
    const qint64 now = m_clock.elapsed();
    Connection c;
    c.peer = peer;
    c.openedMs = now;
    c.activeMs = now;
    m_connections.insert(socket, c);
    // A client that does not speak TLS, or refuses the certificate, fails the handshake: QSslSocket
    // closes the connection, nothing is answered.
    if (auto *tls = qobject_cast<QSslSocket *>(socket))
        tls->startServerEncryption();
    if (m_lowDelay)
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // Connected before the HTTP server's own readyRead handler: sees each arrival first.
    connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { onReadyRead(socket); });
    connect(socket, &QIODevice::bytesWritten, socket, [this, socket] {
        if (const auto it = m_connections.find(socket); it != m_connections.end()) {
            it->activeMs = m_clock.elapsed();
            it->answered = true;
        }
    });
    connect(socket, &QObject::destroyed, this, [this, socket] { m_connections.remove(socket); });
    addPendingConnection(socket);
}

void CappedTcpServer::onReadyRead(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &c = *it;
    c.activeMs = m_clock.elapsed();
    if (c.bytes < 0) { // refused already: what still comes is read and dropped, up to one more cap's worth
        c.bytes -= socket->readAll().size();
        if (-c.bytes > m_cap)
            socket->abort();
        return;
    }
    if (c.bytes == 0 && socket->bytesAvailable() > 0)
        c.requestStartMs = c.activeMs;
    if (!c.facts.seen && c.head.size() < kMaxHeadBytes)
        readHead(c, socket->peek(std::min<qint64>(socket->bytesAvailable(), kMaxHeadBytes - c.head.size())));
    c.bytes += socket->bytesAvailable(); // the server drains the buffer after each arrival
    if (c.bytes > m_cap) {
        c.bytes = -1;
        socket->readAll();
        socket->write("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                      + QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
        if (m_countAnswer)
            m_countAnswer(413);
        socket->flush();
        // The answer, then our end of the stream; reading goes on. Closing outright with the
        // client's bytes still arriving makes the kernel reset the connection, and a reset can
        // reach the client before it has read the 413 (it would see no answer at all).
        ::shutdown(static_cast<int>(socket->socketDescriptor()), SHUT_WR);
        QTimer::singleShot(2000, socket, [socket] { socket->abort(); }); // a client that neither stops nor reads
    }
}

// The request line and header lines, counted once the head's blank line has arrived. Leading blank
// lines (left over from a previous request) are skipped, as the HTTP server's parser skips them.
void CappedTcpServer::readHead(Connection &c, const QByteArray &arrived)
{
    c.head += arrived;
    qsizetype start = 0;
    while (start < c.head.size() && (c.head.at(start) == '\r' || c.head.at(start) == '\n'))
        ++start;
    const qsizetype end = c.head.indexOf("\r\n\r\n", start);
    if (end < 0)
        return;
    const QList<QByteArray> lines = c.head.mid(start, end - start).split('\n');
    c.facts.seen = true;
    c.facts.http10 = lines.constFirst().trimmed().endsWith(" HTTP/1.0");
    c.facts.fields = static_cast<int>(lines.size()) - 1;
    c.head.clear();
}

CappedTcpServer::RequestHead CappedTcpServer::requestWhole(QTcpSocket *socket)
{
    RequestHead facts;
    if (const auto it = m_connections.find(socket); it != m_connections.end()) {
        facts = it->facts;
        it->facts = {};
        it->head.clear();
        it->bytes = 0;
        it->requestStartMs = -1;
        ++it->requests;
        it->answered = false;
        it->activeMs = m_clock.elapsed();
    }
    return facts;
}

void CappedTcpServer::markLongLived(QTcpSocket *socket)
{
    if (const auto it = m_connections.find(socket); it != m_connections.end())
        it->longLived = true;
}

// The connection doing least, from `peer` only when given: one that has never sent a whole request
// (the oldest first), else one idle between answered requests (the longest idle); none mid-request
// (bytes still queued count: the event loop may not have read them yet), awaiting its answer or
// streaming.
QTcpSocket *CappedTcpServer::leastBusy(const QHostAddress *peer) const
{
    QTcpSocket *best = nullptr;
    std::pair<int, qint64> bestRank { 2, 0 };
    for (auto it = m_connections.cbegin(); it != m_connections.cend(); ++it) {
        const Connection &c = it.value();
        if (c.longLived || c.bytes != 0 || (c.requests > 0 && !c.answered) || (peer && c.peer != *peer) || hasUnreadBytes(it.key()))
            continue;
        const std::pair<int, qint64> rank { c.requests == 0 ? 0 : 1, c.requests == 0 ? c.openedMs : c.activeMs };
        if (!best || rank < bestRank) {
            best = it.key();
            bestRank = rank;
        }
    }
    return best;
}

bool CappedTcpServer::makeRoom(const QHostAddress &peer)
{
    int fromPeer = 0;
    for (const Connection &c : std::as_const(m_connections))
        fromPeer += c.peer == peer ? 1 : 0;
    if (fromPeer >= m_limits->maxPerAddress) {
        QTcpSocket *victim = leastBusy(&peer);
        if (!victim)
            return false;
        end(victim, Ended::Evicted);
    }
    if (open() >= m_limits->maxConnections) {
        QTcpSocket *victim = leastBusy(nullptr);
        if (!victim)
            return false;
        end(victim, Ended::Evicted);
    }
    return true;
}

void CappedTcpServer::end(QTcpSocket *socket, Ended why, const QByteArray &answer)
{
    m_connections.remove(socket); // counted no more from now on, whatever the socket still does
    ++m_ended[static_cast<int>(why)];
    if (why == Ended::Evicted) { // at once: the room is needed now
        socket->abort();
        socket->deleteLater();
    } else { // the answer if any, then our end; the client's FIN or a second ends it
        if (!answer.isEmpty()) {
            socket->write(answer);
            if (m_countAnswer)
                m_countAnswer(408);
        }
        socket->disconnectFromHost();
        QTimer::singleShot(1000, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
    }
    report();
}

void CappedTcpServer::sweep()
{
    const qint64 now = m_clock.elapsed();
    const qint64 request = m_limits->request.count();
    const qint64 idle = m_limits->idle.count();
    QList<std::pair<QTcpSocket *, Ended>> ending;
    for (auto it = m_connections.cbegin(); it != m_connections.cend(); ++it) {
        const Connection &c = it.value();
        if (c.longLived || c.bytes < 0)
            continue;
        if (c.bytes > 0 ? now - c.requestStartMs > request : c.requests == 0 ? now - c.openedMs > request : now - c.activeMs > idle)
            ending.append({ it.key(), c.bytes == 0 && c.requests > 0 ? Ended::IdleTimeout : Ended::RequestTimeout });
    }
    static const QByteArray timedOut =
        closingAnswer(408, "Request Timeout", "the request did not arrive whole in time; send it again, all at once");
    for (const auto &[socket, why] : std::as_const(ending)) {
        const bool midRequest = m_connections.value(socket).bytes > 0;
        end(socket, why, midRequest ? timedOut : QByteArray());
    }
}

void CappedTcpServer::report()
{
    const qint64 now = m_clock.elapsed();
    if (!m_report)
        return;
    if (m_reportedMs >= 0 && now - m_reportedMs < kReportEveryMs) { // said at the end of the 10 s
        if (!m_reportScheduled) {
            m_reportScheduled = true;
            QTimer::singleShot(kReportEveryMs - (now - m_reportedMs), this, [this] {
                m_reportScheduled = false;
                report();
            });
        }
        return;
    }
    // Timeouts of a few idle clients are routine; a cap biting (evicted, refused) is always said.
    const auto since = [this](Ended e) {
        return m_ended[static_cast<int>(e)] - m_reported[static_cast<int>(e)];
    };
    if (!since(Ended::Evicted) && !since(Ended::Refused))
        return;
    m_report(QStringLiteral("connection limits (%1 in all, %2 per address) bit: %3 idle connections closed to make room, %4 "
                            "refused, %5 timed out mid-request, %6 idle; %7 open")
                 .arg(m_limits->maxConnections)
                 .arg(m_limits->maxPerAddress)
                 .arg(since(Ended::Evicted))
                 .arg(since(Ended::Refused))
                 .arg(since(Ended::RequestTimeout))
                 .arg(since(Ended::IdleTimeout))
                 .arg(open()));
    std::copy(std::begin(m_ended), std::end(m_ended), std::begin(m_reported));
    m_reportedMs = now;
}

} // namespace bullpen
