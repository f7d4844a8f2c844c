// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QSslConfiguration>
#include <QTcpServer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <optional>

class QTcpSocket;

namespace bullpen {

// What one listening socket allows its clients (bullpen-engine's --max-connections, --idle-timeout,
// --request-timeout; docs/api.md, "Connections").
struct ConnectionLimits
{
    int maxConnections = 1024; // in all (never more than the open-file limit leaves room for)
    int maxPerAddress = 0; // from one client address; 0: half of maxConnections
    // A connection that has sent no whole request yet (a TLS handshake included) must send one within
    // `request` of opening; a request, once begun, must be whole within `request` of its first byte.
    std::chrono::milliseconds request { 10000 };
    // Between requests (nothing received, nothing sent, no event stream): closed after this long.
    std::chrono::milliseconds idle { 60000 };
};

// The listening socket of both of Bullpen's HTTP servers (the provider simulator and bullpen-engine).
//
// Counts the bytes of each request as they arrive, before QAbstractHttpServer buffers them: once a
// connection has sent more than `cap` bytes since its last whole request, it is answered 413 with
// `body` (JSON) and closed, so a 1 GB POST never reaches memory (what still arrives is read and
// dropped, at most one more cap's worth for at most 2 s, so that the client reads the answer before
// the connection ends). The server calls requestWhole() from its handleRequest.
//
// With limits set (the engine; the simulator serves tests and soaks without them) it also caps the
// connections and times out idle and half-sent ones, so that a thousand idle or trickling clients
// cannot take every descriptor: past a cap, the connection that is doing least — one that has never
// sent a whole request, else the longest idle between requests — is closed to make room, and a new
// connection is refused (503, closed) only when every other one is busy. Event streams
// (markLongLived) are never closed for room. What a limit did is counted (ended()) and reported.
class CappedTcpServer final : public QTcpServer
{
public:
    enum class Ended { RequestTimeout, IdleTimeout, Evicted, Refused };
    static constexpr int kEndedKinds = 4;
    static const char *endedName(Ended e);

    CappedTcpServer(qint64 cap, QByteArray body, QObject *parent);
    // TCP_NODELAY on every accepted socket: small writes (an answer's head, one event of a stream) leave
    // at once instead of waiting for the previous segment's acknowledgement (Nagle).
    void setLowDelay(bool on) { m_lowDelay = on; }
    // Serve TLS: every accepted connection is a QSslSocket that starts the server handshake at once.
    // The HTTP server reads and writes it as any socket (the bytes it sees are the decrypted ones, and
    // those are what the cap counts); a connection whose handshake fails is closed.
    void setTls(const QSslConfiguration &configuration) { m_tls = configuration; }
    // Caps and timeouts as above; maxConnections is lowered to what the open-file limit leaves room for.
    void setLimits(const ConnectionLimits &limits);
    const std::optional<ConnectionLimits> &limits() const { return m_limits; }
    // Told once, then at most every 10 s while limits keep biting: what they did since the last report.
    void setReporter(std::function<void(const QString &)> report) { m_report = std::move(report); }
    // Told the status of every answer written here, before any route (413, 408, 503): the server's own
    // count of answers includes them.
    void setAnswerCounter(std::function<void(int status)> count) { m_countAnswer = std::move(count); }

    // What the head of a request said, as its bytes arrived (before the HTTP server's parser, which
    // keeps neither the version nor more than 100 fields).
    struct RequestHead
    {
        bool seen = false; // the head arrived whole while counted here (a pipelined request's may not)
        bool http10 = false; // "HTTP/1.0" on the request line
        int fields = 0; // header lines
    };
    static constexpr int kMaxHeadBytes = 64 * 1024; // a longer head is not read for its facts
    // A whole request arrived: the next one counts from zero. Returns what its head said.
    RequestHead requestWhole(QTcpSocket *socket);
    void markLongLived(QTcpSocket *socket); // an event stream: never closed for room or as idle
    int open() const { return static_cast<int>(m_connections.size()); }
    quint64 ended(Ended e) const { return m_ended[static_cast<int>(e)]; }

protected:
    void incomingConnection(qintptr fd) override;

private:
    struct Connection
    {
        QHostAddress peer;
        qint64 bytes = 0; // of the request being received; < 0: refused with 413, draining
        qint64 openedMs = 0;
        qint64 requestStartMs = -1; // first byte of the request being received
        qint64 activeMs = 0; // last byte in or out
        int requests = 0;
        bool answered = true; // something was written since the last whole request
        bool longLived = false;
        QByteArray head; // the request's first bytes, until its head ends (RequestHead)
        RequestHead facts;
    };
    static void readHead(Connection &c, const QByteArray &arrived);
    void onReadyRead(QTcpSocket *socket);
    bool makeRoom(const QHostAddress &peer);
    QTcpSocket *leastBusy(const QHostAddress *peer) const;
    void end(QTcpSocket *socket, Ended why, const QByteArray &answer = {});
    void sweep();
    void report();

    qint64 m_cap;
    QByteArray m_body;
    bool m_lowDelay = false;
    std::optional<QSslConfiguration> m_tls;
    std::optional<ConnectionLimits> m_limits;
    QHash<QTcpSocket *, Connection> m_connections;
    QElapsedTimer m_clock;
    QTimer m_sweep;
    std::function<void(const QString &)> m_report;
    std::function<void(int)> m_countAnswer;
    quint64 m_ended[kEndedKinds] = {};
    quint64 m_reported[kEndedKinds] = {};
    qint64 m_reportedMs = -1;
    bool m_reportScheduled = false;
    qint64 m_acceptErrorMs = -1;
};

} // namespace bullpen
