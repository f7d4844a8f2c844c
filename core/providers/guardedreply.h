// SPDX-License-Identifier: MIT
#pragma once

#include "httpframing.h"
#include "httpreply.h"

#include <QAbstractSocket>
#include <QElapsedTimer>
#include <QNetworkProxy>
#include <QTimer>

#include <map>
#include <memory>
#include <vector>

class QTcpSocket;

namespace bullpen {

class ProxyRoutes;

// Bounds on what one provider response may send before its body (docs/hostile-providers.md).
struct GuardLimits
{
    qsizetype maxHeadBytes = 64 * 1024; // status line and header lines of one response
    int maxInterimResponses = 8; // 1xx heads before the final one
    qint64 maxBufferedBytes = 256 * 1024; // read from the kernel per connection while the engine is behind
    // Body bytes read per response, framing included: a little over the adapters' 8 MiB cap, so that
    // they see "too large" and say so, while a body padded with chunk extensions is cut here.
    qint64 maxBodyBytes = 8 * 1024 * 1024 + 64 * 1024;
};

// The egress guard: Bullpen's own HTTP/1.1 client for http:// providers, on the engine's thread.
//
// Why not Qt's. Qt 6.4 reads a plain-HTTP response head one byte per read(2) straight from the kernel
// (its HTTP sockets are unbuffered) and loops for as long as a byte is there: a provider that sends
// endless "100 Continue" heads, header lines or one endless line faster than ~1 MB/s keeps
// QNetworkAccessManager's thread in that loop for ever. Nothing queued to that thread runs again: not
// the deadline's abort, not the fallback request, not the thread's quit; an endless line also grows
// without bound in Qt. This client reads at most maxBufferedBytes per turn of the engine's loop and
// holds each response head until it is complete: interim 1xx heads are dropped and counted, and a
// head over the limit, too many interim heads or bytes that are not HTTP end the connection at once
// with the guard's verdict (HttpReply::GuardVerdict), which the classifier reads. It also puts each
// request on the wire from the engine's own thread, with no hand-over to another thread on the way
// out or back, and with no per-host connection limit (docs/contract.md §4.5).
//
// https:// endpoints stay with Qt (QtHttpReply): there Qt reads decrypted bytes from a buffer that is
// refilled once per turn of its loop, so a flood cannot keep that thread from its queue.
//
// Connections, one origin's kept per pool (one per engine stack): keep-alive while every message's end is known; a
// connection idle over 2 s is not reused (servers close idle connections after a few seconds, and a
// request written as the provider closes would fail although the provider never read it).
class GuardedConnections final : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kReuseMs = 2000;
    static constexpr int kIdlePerOrigin = 64; // more idle connections to one origin are closed

    explicit GuardedConnections(std::shared_ptr<ProxyRoutes> routes, GuardLimits limits = {}, QObject *parent = nullptr);
    ~GuardedConnections() override;

    const GuardLimits &limits() const { return m_limits; }
    QNetworkProxy proxyFor(const QUrl &url) const;
    // An idle connection to host:port fresh enough to reuse (now ours), or null.
    QTcpSocket *take(const QString &host, quint16 port);
    // A connection whose last exchange ended cleanly, kept for the next request to host:port.
    void keep(const QString &host, quint16 port, QTcpSocket *socket);
    int idleCount() const;

private:
    struct Idle
    {
        QTcpSocket *socket;
        QElapsedTimer since;
    };
    static QString key(const QString &host, quint16 port);
    void drop(QTcpSocket *socket); // an idle connection the provider closed or wrote to
    void sweep(); // closes connections idle too long

    std::shared_ptr<ProxyRoutes> m_routes;
    GuardLimits m_limits;
    std::map<QString, std::vector<Idle>> m_idle;
    QTimer m_sweep;
};

// One request through the egress guard (see GuardedConnections), on the thread that makes it.
class GuardedReply final : public HttpReply
{
    Q_OBJECT
public:
    GuardedReply(GuardedConnections &connections, const QNetworkRequest &request, QByteArray body, QObject *parent);
    ~GuardedReply() override;

    void start() override;
    std::optional<int> status() const override;
    QByteArray rawHeader(QByteArrayView name) const override;
    qint64 bytesAvailable() const override { return m_out.size(); }
    QByteArray read(qint64 maxSize) override;
    bool isRunning() const override { return m_phase != Phase::Done; }
    void abort() override;
    QNetworkReply::NetworkError error() const override { return m_error; }
    QString errorString() const override { return m_errorString; }
    std::optional<GuardVerdict> guardVerdict() const override { return m_verdict; }

private:
    enum class Phase { Connecting, Head, Body, Done };

    static QByteArray requestBytes(const QNetworkRequest &request, const QByteArray &body);
    void wire();
    void onConnected();
    void onBytesWritten();
    void noteSent();
    bool acceptCodings();
    void onBytes();
    void readHead();
    bool acceptHead(const QByteArray &head); // false when the head ended the exchange
    void readBody();
    void passBody(QByteArrayView bytes);
    bool deliver();
    void onClosed();
    void onSocketError(QAbstractSocket::SocketError error);
    void complete(); // the body ended by its framing
    void fail(QNetworkReply::NetworkError error, const QString &text);
    void refuse(const char *code, const QString &detail);
    void releaseSocket(bool reuse);

    GuardedConnections &m_connections; // and its limits
    QString m_host;
    quint16 m_port;
    QUrl m_url;
    QByteArray m_request; // the whole request, written once (dropped when written)
    bool m_sent = false; // all of it taken by the kernel
    QTcpSocket *m_socket = nullptr; // our child while the exchange runs
    bool m_reused = false;
    bool m_reached = false; // a byte of the request left
    Phase m_phase = Phase::Connecting;
    QByteArray m_head;
    qsizetype m_headScan = 0;
    int m_interim = 0;
    std::optional<int> m_status;
    std::vector<std::pair<QByteArray, QByteArray>> m_headers; // names lower-case
    MessageHead m_framing;
    qint64 m_bodyLeft = 0;
    ChunkedTracker m_chunks;
    bool m_bodyDone = false;
    qint64 m_wireBytes = 0; // body bytes as sent, framing included
    bool m_surplus = false;
    QByteArray m_out; // body bytes for the reader
    QNetworkReply::NetworkError m_error = QNetworkReply::NoError;
    QString m_errorString;
    std::optional<GuardVerdict> m_verdict;
};

} // namespace bullpen
