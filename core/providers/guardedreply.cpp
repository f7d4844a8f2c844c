// SPDX-License-Identifier: MIT
#include "guardedreply.h"

#include "config/proxyrules.h"

#include <QLoggingCategory>
#include <QNetworkRequest>
#include <QPointer>
#include <QTcpSocket>

#include <algorithm>
#include <cerrno>
#include <sys/socket.h>
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

// Header fields the client writes itself, or never sends.
bool isOwnField(const QByteArray &lowerName)
{
    static const QByteArray kOwn[] = { "host",       "content-length",   "transfer-encoding", "connection",
                                       "keep-alive", "proxy-connection", "accept-encoding",   "expect",
                                       "te",         "upgrade" };
    return std::find(std::begin(kOwn), std::end(kOwn), lowerName) != std::end(kOwn);
}

// The header fields of a complete head, names lower-case, values trimmed; the status line skipped.
std::vector<std::pair<QByteArray, QByteArray>> headerFields(const QByteArray &head)
{
    std::vector<std::pair<QByteArray, QByteArray>> out;
    const QList<QByteArray> lines = head.split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            out.emplace_back(line.first(colon).trimmed().toLower(), line.sliced(colon + 1).trimmed());
    }
    return out;
}

// Nothing waits in the kernel for a kept connection: no byte and no close (a FIN) that its socket has
// not read yet because the loop has not come round to it, as when a fallback goes out in the same turn
// as the answer before it.
bool quietInTheKernel(const QTcpSocket *socket)
{
    char byte = 0;
    const ssize_t n = ::recv(static_cast<int>(socket->socketDescriptor()), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

QNetworkReply::NetworkError replyError(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::SocketTimeoutError:
        return QNetworkReply::TimeoutError;
    case QAbstractSocket::ProxyConnectionRefusedError:
        return QNetworkReply::ProxyConnectionRefusedError;
    case QAbstractSocket::ProxyConnectionClosedError:
        return QNetworkReply::ProxyConnectionClosedError;
    case QAbstractSocket::ProxyConnectionTimeoutError:
        return QNetworkReply::ProxyTimeoutError;
    case QAbstractSocket::ProxyNotFoundError:
        return QNetworkReply::ProxyNotFoundError;
    case QAbstractSocket::ProxyAuthenticationRequiredError:
        return QNetworkReply::ProxyAuthenticationRequiredError;
    case QAbstractSocket::ProxyProtocolError:
        return QNetworkReply::UnknownProxyError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

QString hostField(const QUrl &url)
{
    QString host = url.host(QUrl::FullyEncoded);
    if (host.contains(QLatin1Char(':')))
        host = QLatin1Char('[') + host + QLatin1Char(']');
    if (url.port() > 0 && url.port() != 80)
        host += QLatin1Char(':') + QString::number(url.port());
    return host;
}

} // namespace

GuardedConnections::GuardedConnections(std::shared_ptr<ProxyRoutes> routes, GuardLimits limits, QObject *parent)
    : QObject(parent)
    , m_routes(std::move(routes))
    , m_limits(limits)
{
    m_sweep.setInterval(static_cast<int>(kReuseMs / 2));
    connect(&m_sweep, &QTimer::timeout, this, &GuardedConnections::sweep);
}

GuardedConnections::~GuardedConnections()
{
    // The sockets are our children: cut their signals before they close, or a late disconnected()
    // would land in this half-destroyed object.
    for (auto &[origin, idle] : m_idle) {
        for (Idle &i : idle) {
            i.socket->disconnect(this);
            delete i.socket;
        }
    }
}

QString GuardedConnections::key(const QString &host, quint16 port)
{
    return host + QLatin1Char(':') + QString::number(port);
}

QNetworkProxy GuardedConnections::proxyFor(const QUrl &url) const
{
    return m_routes ? m_routes->proxyFor(url) : QNetworkProxy(QNetworkProxy::NoProxy);
}

QTcpSocket *GuardedConnections::take(const QString &host, quint16 port)
{
    const auto it = m_idle.find(key(host, port));
    if (it == m_idle.end())
        return nullptr;
    std::vector<Idle> &idle = it->second;
    while (!idle.empty()) {
        const Idle last = idle.back();
        idle.pop_back();
        last.socket->disconnect(this);
        if (last.since.elapsed() < kReuseMs && last.socket->state() == QAbstractSocket::ConnectedState && last.socket->bytesAvailable() == 0
            && quietInTheKernel(last.socket))
            return last.socket;
        last.socket->abort();
        last.socket->deleteLater();
    }
    return nullptr;
}

void GuardedConnections::keep(const QString &host, quint16 port, QTcpSocket *socket)
{
    socket->setParent(this);
    // Bytes nobody asked for, or the provider's close: that connection carries nothing more.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { drop(socket); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] { drop(socket); });
    std::vector<Idle> &idle = m_idle[key(host, port)];
    QElapsedTimer since;
    since.start();
    idle.push_back({ socket, since });
    if (idle.size() > kIdlePerOrigin)
        drop(idle.front().socket);
    if (!m_sweep.isActive())
        m_sweep.start();
}

void GuardedConnections::drop(QTcpSocket *socket)
{
    for (auto &[origin, idle] : m_idle) {
        const auto it = std::find_if(idle.begin(), idle.end(), [socket](const Idle &i) { return i.socket == socket; });
        if (it == idle.end())
            continue;
        idle.erase(it);
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater(); // this may run inside one of its signals
        return;
    }
}

void GuardedConnections::sweep()
{
    bool any = false;
    for (auto &[origin, idle] : m_idle) {
        const auto stale = std::stable_partition(idle.begin(), idle.end(), [](const Idle &i) { return i.since.elapsed() < kReuseMs; });
        for (auto it = stale; it != idle.end(); ++it) {
            it->socket->disconnect(this);
            it->socket->abort();
            it->socket->deleteLater();
        }
        idle.erase(stale, idle.end());
        any = any || !idle.empty();
    }
    if (!any)
        m_sweep.stop();
}

int GuardedConnections::idleCount() const
{
    int n = 0;
    for (const auto &[origin, idle] : m_idle)
        n += static_cast<int>(idle.size());
    return n;
}

GuardedReply::GuardedReply(GuardedConnections &connections, const QNetworkRequest &request, QByteArray body, QObject *parent)
    : HttpReply(parent)
    , m_connections(connections)
    , m_host(request.url().host())
    , m_port(static_cast<quint16>(request.url().port(80)))
    , m_url(request.url())
{
    m_request = requestBytes(request, body);
}

GuardedReply::~GuardedReply()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

QByteArray GuardedReply::requestBytes(const QNetworkRequest &request, const QByteArray &body)
{
    const QUrl url = request.url();
    QByteArray target = url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray out = "POST " + target + " HTTP/1.1\r\nHost: " + hostField(url).toLatin1() + "\r\n";
    for (const QByteArray &name : request.rawHeaderList()) {
        if (isOwnField(name.toLower()))
            continue;
        out += name + ": " + request.rawHeader(name) + "\r\n"; // no line breaks: HttpStageGenerator checked
    }
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    return out + body;
}

void GuardedReply::start()
{
    if (QTcpSocket *reused = m_connections.take(m_host, m_port)) {
        m_socket = reused;
        m_socket->setParent(this);
        wire();
        return onConnected();
    }
    m_socket = new QTcpSocket(this);
    m_socket->setReadBufferSize(m_connections.limits().maxBufferedBytes);
    m_socket->setProxy(m_connections.proxyFor(m_url));
    wire();
    m_socket->connectToHost(m_host, m_port);
}

void GuardedReply::wire()
{
    connect(m_socket, &QTcpSocket::connected, this, &GuardedReply::onConnected);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &GuardedReply::onBytesWritten);
    connect(m_socket, &QTcpSocket::readyRead, this, &GuardedReply::onBytes);
    connect(m_socket, &QTcpSocket::disconnected, this, &GuardedReply::onClosed);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &GuardedReply::onSocketError);
}

void GuardedReply::onConnected()
{
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // no Nagle delay, as Qt's own HTTP sockets
    m_phase = Phase::Head;
    m_socket->write(m_request);
    m_socket->flush(); // now, not at the loop's next turn
    onBytesWritten();
}

void GuardedReply::onBytesWritten()
{
    if (m_sent || !m_socket)
        return;
    m_reached = m_reached || m_socket->bytesToWrite() < m_request.size(); // a byte of it left
    if (m_socket->bytesToWrite() > 0)
        return;
    noteSent();
}

void GuardedReply::noteSent()
{
    m_sent = m_reached = true;
    m_request.clear(); // written once; never again
    Q_EMIT requestSent();
}

void GuardedReply::onBytes()
{
    if (m_phase == Phase::Head)
        readHead();
    if (m_phase == Phase::Body)
        readBody();
}

// The response head, read in bounded pieces; interim heads are dropped and counted.
void GuardedReply::readHead()
{
    while (m_phase == Phase::Head) {
        if (m_socket->bytesAvailable() > 0 && m_head.size() <= m_connections.limits().maxHeadBytes)
            m_head += m_socket->read(m_connections.limits().maxHeadBytes + 1 - m_head.size());
        if (m_head.size() >= 5 && !m_head.startsWith("HTTP/"))
            return refuse("not-http",
                          QStringLiteral("the provider's answer is not HTTP (it starts \"%1\")")
                              .arg(QString::fromLatin1(m_head.left(16).toPercentEncoding(" /.:"))));
        const qsizetype end = headEnd(m_head, m_headScan);
        if (end < 0) {
            m_headScan = std::max<qsizetype>(0, m_head.size() - 3);
            if (m_head.size() > m_connections.limits().maxHeadBytes)
                return refuse("head-too-large",
                              QStringLiteral("the provider sent more than %1 KiB of status and header lines "
                                             "without ending its response head")
                                  .arg(m_connections.limits().maxHeadBytes / 1024));
            if (m_socket->bytesAvailable() > 0)
                continue;
            return;
        }
        const QByteArray head = m_head.first(end);
        m_head.remove(0, end);
        m_headScan = 0;
        if (!acceptHead(head))
            return;
    }
}

// One complete head: an interim one is counted, the final one begins the body. False when the
// exchange ended with it.
bool GuardedReply::acceptHead(const QByteArray &head)
{
    const MessageHead response = readResponseHead(head, "POST");
    if (response.status == 101) {
        refuse("not-http", QStringLiteral("the provider switched protocols (HTTP 101) without being asked"));
        return false;
    }
    if (response.status < 100 || response.status > 999) {
        refuse("not-http",
               QStringLiteral("the provider's status line is not HTTP (\"%1\")")
                   .arg(QString::fromLatin1(head.left(32).trimmed().toPercentEncoding(" /.:"))));
        return false;
    }
    if (response.status < 200) {
        if (++m_interim <= m_connections.limits().maxInterimResponses)
            return true;
        refuse("interim-flood",
               QStringLiteral("the provider sent more than %1 interim (1xx) responses before its answer")
                   .arg(m_connections.limits().maxInterimResponses));
        return false;
    }
    m_status = response.status;
    m_headers = headerFields(head);
    m_framing = response;
    m_bodyLeft = response.length;
    m_phase = Phase::Body;
    QPointer<GuardedReply> self(this);
    if (!m_sent)
        noteSent(); // it answered before the last byte was written: the request reached it all the same
    Q_EMIT headReceived();
    if (!self || m_phase != Phase::Body || !acceptCodings())
        return false;
    passBody(std::exchange(m_head, {}));
    return deliver();
}

// Bullpen asks for no compression: a body coded otherwise than chunked (httpframing.h decodes that) is
// not read. False when the exchange ended here.
bool GuardedReply::acceptCodings()
{
    QByteArray refused;
    for (const QByteArray &coding : std::as_const(m_framing.codings)) {
        if (coding != "chunked" && coding != "identity")
            refused = "Transfer-Encoding: " + coding;
    }
    if (const QByteArray coding = rawHeader("content-encoding").toLower(); !coding.isEmpty() && coding != "identity")
        refused = "Content-Encoding: " + coding;
    if (!refused.isEmpty()) {
        fail(QNetworkReply::ProtocolFailure,
             QStringLiteral("Decompression failed: the provider coded its answer (%1) though no coding was asked for")
                 .arg(QString::fromLatin1(refused.left(64))));
        return false;
    }
    return true;
}

void GuardedReply::readBody()
{
    constexpr qint64 kSlice = 64 * 1024;
    while (m_phase == Phase::Body && m_socket && m_socket->bytesAvailable() > 0) {
        passBody(m_socket->read(kSlice));
        if (!deliver())
            return;
    }
}

// Keeps the body's bytes for the reader, decoded from its framing; bytes past its end are the
// provider's surplus, which nobody reads.
void GuardedReply::passBody(QByteArrayView bytes)
{
    m_wireBytes += bytes.size();
    switch (m_framing.framing) {
    case BodyFraming::None:
        m_surplus = m_surplus || !bytes.isEmpty();
        m_bodyDone = true;
        break;
    case BodyFraming::Length: {
        const qint64 take = std::min<qint64>(m_bodyLeft, bytes.size());
        m_out += bytes.first(take);
        m_bodyLeft -= take;
        m_surplus = m_surplus || take < bytes.size();
        m_bodyDone = m_bodyLeft == 0;
        break;
    }
    case BodyFraming::Chunked: {
        const qsizetype mine = m_chunks.consume(bytes, &m_out);
        m_surplus = m_surplus || (m_chunks.done() && mine < bytes.size());
        m_bodyDone = m_chunks.done();
        break;
    }
    case BodyFraming::UntilClose:
        m_out += bytes;
        break;
    }
}

// Hands what is read to the reader, then ends the exchange if its body is complete or malformed.
// False when the exchange is over (or this reply was aborted by the reader).
bool GuardedReply::deliver()
{
    if (!m_out.isEmpty()) {
        QPointer<GuardedReply> self(this);
        Q_EMIT readyRead();
        if (!self || m_phase != Phase::Body)
            return false;
    }
    if (m_chunks.failed()) {
        fail(QNetworkReply::ProtocolFailure, QStringLiteral("the provider's chunked body is malformed"));
        return false;
    }
    if (!m_bodyDone && m_wireBytes > m_connections.limits().maxBodyBytes) {
        // Counted as sent, framing and all: chunk extensions cannot stretch a body past the adapters' cap.
        refuse("body-too-large",
               QStringLiteral("the provider sent more than %1 MiB of body (with its framing); the rest was not read")
                   .arg(m_connections.limits().maxBodyBytes / (1024 * 1024)));
        return false;
    }
    if (!m_bodyDone)
        return true;
    complete();
    return false;
}

void GuardedReply::onClosed()
{
    if (m_phase == Phase::Connecting || m_phase == Phase::Done)
        return;
    if (m_phase == Phase::Head) {
        readHead();
        if (m_phase == Phase::Head)
            return refuse(
                "closed",
                !m_sent ? QStringLiteral("the provider closed the connection while the request was being written")
                    : m_head.isEmpty() && m_interim == 0
                    ? QStringLiteral("the provider closed the connection after the request was sent, before any byte of its answer")
                    : QStringLiteral("the provider closed the connection in the middle of its response head"));
    }
    if (m_phase == Phase::Body)
        readBody();
    if (m_phase != Phase::Body)
        return;
    if (m_framing.framing == BodyFraming::UntilClose)
        return complete(); // its end is the close
    fail(QNetworkReply::RemoteHostClosedError, QStringLiteral("Connection closed"));
}

void GuardedReply::onSocketError(QAbstractSocket::SocketError error)
{
    if (error == QAbstractSocket::RemoteHostClosedError || m_phase == Phase::Done)
        return; // onClosed() says it
    if (m_phase == Phase::Connecting)
        return refuse("unreachable", QStringLiteral("could not connect to %1:%2: %3").arg(m_host).arg(m_port).arg(m_socket->errorString()));
    // Not a close: what was read is handed on, and then the exchange fails with the socket's own error
    // (never a whole answer: a body read until close is cut here, not ended).
    const QString why = m_socket->errorString();
    if (m_phase == Phase::Head)
        readHead();
    if (m_phase == Phase::Body)
        readBody();
    if (m_phase != Phase::Done)
        fail(replyError(error), why);
}

void GuardedReply::complete()
{
    // Kept for the next request only when this exchange ended exactly where its framing says, on a
    // connection both sides keep open.
    const bool reuse = m_framing.reusable && !m_surplus && m_sent && m_socket && m_socket->state() == QAbstractSocket::ConnectedState
        && m_socket->bytesAvailable() == 0 && m_socket->bytesToWrite() == 0;
    m_phase = Phase::Done;
    releaseSocket(reuse);
    Q_EMIT finished();
}

void GuardedReply::fail(QNetworkReply::NetworkError error, const QString &text)
{
    m_error = error;
    m_errorString = text;
    m_phase = Phase::Done;
    releaseSocket(false);
    Q_EMIT finished();
}

void GuardedReply::refuse(const char *code, const QString &detail)
{
    qCInfo(lcGuard) << "closed" << m_host << m_port << code << detail;
    m_verdict = GuardVerdict { code, detail, m_reached };
    m_phase = Phase::Done;
    releaseSocket(false);
    Q_EMIT finished();
}

void GuardedReply::abort()
{
    if (m_phase == Phase::Done && !m_socket)
        return;
    m_phase = Phase::Done;
    m_error = QNetworkReply::OperationCanceledError;
    m_errorString = QStringLiteral("Operation canceled");
    releaseSocket(false);
}

// The connection goes back to the pool's idle connections, or is closed at once (this may run inside
// one of its signals, so it is deleted from the event loop).
void GuardedReply::releaseSocket(bool reuse)
{
    if (!m_socket)
        return;
    QTcpSocket *socket = std::exchange(m_socket, nullptr);
    socket->disconnect(this);
    if (reuse)
        return m_connections.keep(m_host, m_port, socket);
    socket->abort();
    socket->setParent(nullptr);
    socket->deleteLater();
}

std::optional<int> GuardedReply::status() const
{
    return m_status;
}

QByteArray GuardedReply::rawHeader(QByteArrayView name) const
{
    const QByteArray lower = name.toByteArray().toLower();
    QByteArray value;
    for (const auto &[field, v] : m_headers) {
        if (field != lower)
            continue;
        if (!value.isEmpty())
            value += ", ";
        value += v;
    }
    return value;
}

QByteArray GuardedReply::read(qint64 maxSize)
{
    if (maxSize >= m_out.size())
        return std::exchange(m_out, {});
    QByteArray part = m_out.first(maxSize);
    m_out.remove(0, maxSize);
    return part;
}

} // namespace bullpen
