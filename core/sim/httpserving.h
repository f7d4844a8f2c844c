// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QTcpServer>

class QHttpServerRequest;
class QTcpSocket;

namespace bullpen {

// Pieces both of Bullpen's HTTP servers (the provider simulator and bullpen-engine) use.

// Counts the bytes of each request as they arrive, before QAbstractHttpServer buffers them: once a
// connection has sent more than `cap` bytes since its last whole request, it is answered 413 with
// `body` (JSON) and closed, so a 1 GB POST never reaches memory. The server resets a socket's count to
// zero in its handleRequest (`(*pending)[socket] = 0`).
class CappedTcpServer final : public QTcpServer
{
public:
    CappedTcpServer(qint64 cap, QHash<QTcpSocket *, qint64> *pending, QByteArray body, QObject *parent);
    // TCP_NODELAY on every accepted socket: small writes (an answer's head, one event of a stream) leave
    // at once instead of waiting for the previous segment's acknowledgement (Nagle).
    void setLowDelay(bool on) { m_lowDelay = on; }

protected:
    void incomingConnection(qintptr fd) override;

private:
    qint64 m_cap;
    QHash<QTcpSocket *, qint64> *m_pending;
    QByteArray m_body;
    bool m_lowDelay = false;
};

QByteArray httpReasonPhrase(int status);
// A request header's value, the name compared without case; empty when absent.
QByteArray httpHeader(const QHttpServerRequest &request, QByteArrayView name);

} // namespace bullpen
