// SPDX-License-Identifier: MIT
#include "hostileserver.h"

#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <zlib.h>

namespace bullpen::test {

namespace {

QByteArray gzipBomb()
{
    // 4 GiB of zeros deflate to ~4 MiB; 64 MiB of them (~64 KiB compressed) already exceed any sane
    // ratio, which is what Qt's safety check looks at.
    QByteArray out;
    z_stream z {};
    deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 9, Z_DEFAULT_STRATEGY);
    QByteArray zeros(1 << 20, '\0');
    QByteArray buf(1 << 16, '\0');
    for (int i = 0; i < 64; ++i) {
        z.next_in = reinterpret_cast<Bytef *>(zeros.data());
        z.avail_in = static_cast<uInt>(zeros.size());
        do {
            z.next_out = reinterpret_cast<Bytef *>(buf.data());
            z.avail_out = static_cast<uInt>(buf.size());
            deflate(&z, i == 63 ? Z_FINISH : Z_NO_FLUSH);
            out.append(buf.constData(), buf.size() - static_cast<int>(z.avail_out));
        } while (z.avail_out == 0);
    }
    deflateEnd(&z);
    return out;
}

} // namespace

class HostileWorker final : public QTcpServer
{
public:
    explicit HostileWorker(HostileServer *owner)
        : m_owner(owner)
    {
    }
    // The sockets are children, and a socket says `disconnected` on its way out, which counts a close
    // here. Deleted by ~QObject they would say it to a worker already torn down to a QObject (UBSan:
    // "member call on address ... which does not point to an object of type 'HostileWorker'"); deleted
    // first, they say it to this one, while the owner still waits for the thread to end.
    ~HostileWorker() override { qDeleteAll(findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly)); }

protected:
    void incomingConnection(qintptr fd) override
    {
        auto *s = new QTcpSocket(this);
        s->setSocketDescriptor(fd);
        bump([](HostileServer::Record &r) { ++r.connections; });
        auto *head = new QByteArray;
        connect(s, &QTcpSocket::destroyed, this, [head] { delete head; });
        connect(s, &QTcpSocket::readyRead, s, [this, s, head] {
            if (m_owner->m_mode == HostileServer::Mode::KeepAlive)
                return serveEach(s, head);
            if (head->contains("\r\n\r\n"))
                return (void)s->readAll();
            *head += s->readAll();
            if (!head->contains("\r\n\r\n"))
                return;
            bump([h = *head](HostileServer::Record &r) {
                ++r.requests;
                r.lastRequestHead = h.left(h.indexOf("\r\n\r\n"));
            });
            answer(s);
        });
        connect(s, &QTcpSocket::disconnected, s, [this, s] {
            const auto now = HostileServer::Clock::now();
            bump([now](HostileServer::Record &r) {
                ++r.closes;
                if (!r.firstClose)
                    r.firstClose = now;
            });
            s->deleteLater();
        });
    }

private:
    // KeepAlive: every complete request (head and Content-Length body) in `buffer` gets the answer.
    void serveEach(QTcpSocket *s, QByteArray *buffer)
    {
        *buffer += s->readAll();
        for (;;) {
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buffer->left(end);
            qint64 length = 0;
            for (const QByteArray &line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer->size() < end + 4 + length)
                return;
            buffer->remove(0, end + 4 + length);
            bump([head](HostileServer::Record &r) {
                ++r.requests;
                r.lastRequestHead = head;
            });
            send(s, m_owner->m_answer);
            if (m_owner->m_idleClose.count() > 0)
                QTimer::singleShot(m_owner->m_idleClose, s, [s] { s->disconnectFromHost(); });
        }
    }

    template<typename F> void bump(F f)
    {
        QMutexLocker lock(&m_owner->m_mutex);
        f(m_owner->m_record);
    }

    void send(QTcpSocket *s, const QByteArray &bytes)
    {
        s->write(bytes);
        bump([n = bytes.size()](HostileServer::Record &r) { r.bytesSent += n; });
    }

    // Writes `chunk` again whenever the socket has room: as fast as the client drains it.
    void flood(QTcpSocket *s, const QByteArray &chunk)
    {
        auto refill = [this, s, chunk] {
            while (s->state() == QAbstractSocket::ConnectedState && s->bytesToWrite() < 4 * chunk.size())
                send(s, chunk);
        };
        connect(s, &QTcpSocket::bytesWritten, s, refill);
        refill();
    }

    void answer(QTcpSocket *s)
    {
        using M = HostileServer::Mode;
        switch (m_owner->m_mode) {
        case M::ContinueFlood:
            return flood(s, QByteArray("HTTP/1.1 100 Continue\r\n\r\n").repeated(2000));
        case M::HeaderFlood:
            send(s, "HTTP/1.1 200 OK\r\n");
            return flood(s, QByteArray("X-Padding: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n").repeated(2000));
        case M::EndlessHeaderLine:
            send(s, "HTTP/1.1 200 OK\r\nX-Endless: ");
            return flood(s, QByteArray(64 * 1024, 'a'));
        case M::EndlessStatusLine:
            send(s, "HTTP/1.1 200 ");
            return flood(s, QByteArray(64 * 1024, 'a'));
        case M::HeaderDrip: {
            send(s, "HTTP/1.1 200 OK\r\n");
            auto *t = new QTimer(s);
            connect(t, &QTimer::timeout, s, [this, s] { send(s, "X-Drip: 1\r\n"); });
            t->start(20);
            return;
        }
        case M::SseDataFlood:
            send(s, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
            return flood(s, QByteArray("data: {}\n\n").repeated(6000));
        case M::SseCrFlood:
            send(s, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
            return flood(s, QByteArray(64 * 1024, '\r'));
        case M::JsonBodyFlood:
            send(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"candidates\":[");
            return flood(s, QByteArray("{},").repeated(20000));
        case M::GzipBomb: {
            const QByteArray body = gzipBomb();
            send(s,
                 "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            return;
        }
        case M::KeepAlive:
            return; // serveEach
        case M::Fixed: {
            QPointer<QTcpSocket> guarded(s);
            QTimer::singleShot(m_owner->m_answerDelay, Qt::PreciseTimer, s, [this, guarded] {
                if (!guarded)
                    return;
                send(guarded, m_owner->m_answer);
                guarded->disconnectFromHost();
            });
            return;
        }
        }
    }

    HostileServer *m_owner;
};

HostileServer::HostileServer(Mode mode)
    : m_mode(mode)
{
}

HostileServer::~HostileServer()
{
    m_thread.quit(); // the worker (a child of m_home) goes with the thread's last deleteLater
    m_thread.wait();
}

bool HostileServer::start(QString *error)
{
    m_home = new QObject;
    m_home->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_home, &QObject::deleteLater);
    m_thread.start();
    QString why;
    QMetaObject::invokeMethod(
        m_home,
        [&] {
            auto *w = new HostileWorker(this);
            w->setParent(m_home);
            if (!w->listen(QHostAddress::LocalHost, 0)) {
                why = w->errorString();
                delete w;
                return;
            }
            m_port = w->serverPort();
            m_worker = w;
        },
        Qt::BlockingQueuedConnection);
    if (!m_worker && error)
        *error = why;
    return m_worker != nullptr;
}

QUrl HostileServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

HostileServer::Record HostileServer::record() const
{
    QMutexLocker lock(&m_mutex);
    return m_record;
}

} // namespace bullpen::test
