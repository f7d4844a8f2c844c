// SPDX-License-Identifier: MIT
#include "connectproxy.h"

#include <QPointer>
#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <memory>

namespace bullpen::test {

class ConnectProxy::Worker final : public QObject
{
public:
    explicit Worker(ConnectProxy *owner)
        : m_owner(owner)
    {
    }

    bool listen(QString *error)
    {
        m_server = new QTcpServer(this);
        if (!m_server->listen(QHostAddress::LocalHost, 0)) {
            *error = m_server->errorString();
            return false;
        }
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server->nextPendingConnection())
                accept(client);
        });
        return true;
    }
    quint16 port() const { return m_server->serverPort(); }

private:
    void count(const QString &target, int ConnectProxy::Target::*field, int n = 1)
    {
        std::lock_guard lock(m_owner->m_mutex);
        m_owner->m_targets[target].*field += n;
    }

    static int requestLines(const QByteArray &bytes)
    {
        int n = 0;
        for (const char *method : { "POST /", "GET /" }) {
            for (qsizetype at = bytes.indexOf(method); at >= 0; at = bytes.indexOf(method, at + 1)) {
                if (at == 0 || bytes.at(at - 1) == '\n')
                    ++n;
            }
        }
        return n;
    }

    void accept(QTcpSocket *client)
    {
        client->setParent(this);
        // The head belongs to the read handler: it goes when the handler is disconnected or the client
        // dies. (A `destroyed` hook on the worker would leak it: ~QObject drops the worker's incoming
        // connections before it deletes its children.)
        auto head = std::make_shared<QByteArray>();
        connect(client, &QTcpSocket::readyRead, client, [this, client, head] {
            if (client->property("tunnel").toBool())
                return;
            head->append(client->readAll());
            const qsizetype end = head->indexOf("\r\n\r\n");
            if (end < 0) {
                if (head->size() > 8192)
                    client->abort();
                return;
            }
            const QList<QByteArray> line = head->left(head->indexOf("\r\n")).split(' ');
            if (line.size() != 3 || line.at(0) != "CONNECT") {
                {
                    std::lock_guard lock(m_owner->m_mutex);
                    ++m_owner->m_refused;
                }
                client->write("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            const QString target = QString::fromLatin1(line.at(1));
            const QByteArray rest = head->mid(end + 4);
            client->setProperty("tunnel", true);
            client->disconnect(client, &QTcpSocket::readyRead, nullptr, nullptr);
            openTunnel(client, target, rest);
        });
    }

    void openTunnel(QTcpSocket *client, const QString &target, const QByteArray &early)
    {
        count(target, &ConnectProxy::Target::tunnels);
        auto *upstream = new QTcpSocket(this);
        const qsizetype colon = target.lastIndexOf(QLatin1Char(':'));
        QPointer<QTcpSocket> c(client), u(upstream);
        auto closeBoth = [this, c, u, target, done = std::make_shared<bool>(false)] {
            if (*done)
                return;
            *done = true;
            count(target, &ConnectProxy::Target::closed);
            if (c) {
                c->disconnectFromHost();
                c->deleteLater();
            }
            if (u) {
                u->disconnectFromHost();
                u->deleteLater();
            }
        };
        connect(upstream, &QTcpSocket::connected, this, [this, c, u, target, early] {
            if (!c || !u)
                return;
            c->write("HTTP/1.1 200 Connection established\r\n\r\n");
            if (!early.isEmpty()) {
                count(target, &ConnectProxy::Target::requests, requestLines(early));
                u->write(early);
            }
            if (c->bytesAvailable() > 0) {
                const QByteArray bytes = c->readAll();
                count(target, &ConnectProxy::Target::requests, requestLines(bytes));
                u->write(bytes);
            }
        });
        connect(client, &QTcpSocket::readyRead, this, [this, c, u, target] {
            if (!c || !u || u->state() != QAbstractSocket::ConnectedState)
                return; // written once the upstream connects
            const QByteArray bytes = c->readAll();
            count(target, &ConnectProxy::Target::requests, requestLines(bytes));
            u->write(bytes);
        });
        connect(upstream, &QTcpSocket::readyRead, this, [c, u] {
            if (c && u)
                c->write(u->readAll());
        });
        connect(client, &QTcpSocket::disconnected, this, closeBoth);
        connect(upstream, &QTcpSocket::disconnected, this, closeBoth);
        connect(client, &QTcpSocket::errorOccurred, this, closeBoth);
        connect(upstream, &QTcpSocket::errorOccurred, this, [closeBoth, c] {
            if (c)
                c->write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
            closeBoth();
        });
        upstream->connectToHost(target.left(colon), static_cast<quint16>(target.mid(colon + 1).toUInt()));
    }

    ConnectProxy *m_owner;
    QTcpServer *m_server = nullptr;
};

ConnectProxy::ConnectProxy() = default;

ConnectProxy::~ConnectProxy()
{
    if (m_thread) {
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker] { delete w; }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
    }
}

bool ConnectProxy::start(QString *error)
{
    m_thread = std::make_unique<QThread>();
    m_thread->start();
    m_worker = new Worker(this);
    m_worker->moveToThread(m_thread.get());
    bool ok = false;
    QMetaObject::invokeMethod(
        m_worker,
        [&] {
            ok = m_worker->listen(error);
            m_port = ok ? m_worker->port() : 0;
        },
        Qt::BlockingQueuedConnection);
    return ok;
}

QMap<QString, ConnectProxy::Target> ConnectProxy::targets() const
{
    std::lock_guard lock(m_mutex);
    return m_targets;
}

int ConnectProxy::refused() const
{
    std::lock_guard lock(m_mutex);
    return m_refused;
}

} // namespace bullpen::test
