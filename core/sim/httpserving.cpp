// SPDX-License-Identifier: MIT
#include "httpserving.h"

#include <QHttpServerRequest>
#include <QTcpSocket>

namespace bullpen {

CappedTcpServer::CappedTcpServer(qint64 cap, QHash<QTcpSocket *, qint64> *pending, QByteArray body, QObject *parent)
    : QTcpServer(parent)
    , m_cap(cap)
    , m_pending(pending)
    , m_body(std::move(body))
{
}

void CappedTcpServer::incomingConnection(qintptr fd)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(fd)) {
        delete socket;
        return;
    }
    if (m_lowDelay)
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // Connected before the HTTP server's own readyRead handler: sees each arrival first.
    connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
        qint64 &count = (*m_pending)[socket];
        count += socket->bytesAvailable(); // the server drains the buffer after each arrival
        if (count > m_cap) {
            socket->readAll();
            socket->write("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                          + QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
            socket->disconnectFromHost();
        }
    });
    connect(socket, &QObject::destroyed, this, [this, socket] { m_pending->remove(socket); });
    addPendingConnection(socket);
}

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

QByteArray httpHeader(const QHttpServerRequest &request, QByteArrayView name)
{
    const auto headers = request.headers();
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

} // namespace bullpen
