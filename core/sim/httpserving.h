// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QSslConfiguration>
#include <QTcpServer>

#include <optional>

class QHttpServerRequest;
class QTcpSocket;

namespace bullpen {

// Pieces both of Bullpen's HTTP servers (the provider simulator and bullpen-engine) use.

// Counts the bytes of each request as they arrive, before QAbstractHttpServer buffers them: once a
// connection has sent more than `cap` bytes since its last whole request, it is answered 413 with
// `body` (JSON) and closed, so a 1 GB POST never reaches memory (what still arrives is read and
// dropped, at most one more cap's worth for at most 2 s, so that the client reads the answer before
// the connection ends). The
// server resets a socket's count to zero in its handleRequest (`(*pending)[socket] = 0`).
class CappedTcpServer final : public QTcpServer
{
public:
    CappedTcpServer(qint64 cap, QHash<QTcpSocket *, qint64> *pending, QByteArray body, QObject *parent);
    // TCP_NODELAY on every accepted socket: small writes (an answer's head, one event of a stream) leave
    // at once instead of waiting for the previous segment's acknowledgement (Nagle).
    void setLowDelay(bool on) { m_lowDelay = on; }
    // Serve TLS: every accepted connection is a QSslSocket that starts the server handshake at once.
    // The HTTP server reads and writes it as any socket (the bytes it sees are the decrypted ones, and
    // those are what the cap counts); a connection whose handshake fails is closed.
    void setTls(const QSslConfiguration &configuration) { m_tls = configuration; }

protected:
    void incomingConnection(qintptr fd) override;

private:
    qint64 m_cap;
    QHash<QTcpSocket *, qint64> *m_pending;
    QByteArray m_body;
    bool m_lowDelay = false;
    std::optional<QSslConfiguration> m_tls;
};

// A server certificate (PEM, its chain after it) and its private key (PEM, RSA or EC, no passphrase)
// as a server-side TLS configuration. Refused, with what to do in *error: an unreadable or empty
// file, a certificate that has expired or is not yet valid, a key that is not a private key, or a key
// file that anyone but its owner may read (chmod 600, as ssh asks).
std::optional<QSslConfiguration> loadServerTls(const QString &certificatePath, const QString &keyPath, QString *error);

QByteArray httpReasonPhrase(int status);
// A request header's value, the name compared without case; empty when absent.
QByteArray httpHeader(const QHttpServerRequest &request, QByteArrayView name);

} // namespace bullpen
