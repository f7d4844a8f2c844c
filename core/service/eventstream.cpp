// SPDX-License-Identifier: MIT
#include "eventstream.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpSocket>

#include <algorithm>

namespace bullpen {

EventStream::EventStream(Options options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_epoch(QString::number(QRandomGenerator::system()->generate(), 16).rightJustified(8, QLatin1Char('0')))
{
    m_heartbeat.setInterval(m_options.heartbeat);
    connect(&m_heartbeat, &QTimer::timeout, this, &EventStream::heartbeat);
    m_heartbeat.start();
}

EventStream::~EventStream() = default;

void EventStream::publish(const Event &event)
{
    Entry e;
    e.n = m_next++;
    e.generationId = event.generationId;
    // One line of JSON per event: `data:` must not contain a line break, and compact JSON has none.
    e.frame = "id: " + m_epoch.toLatin1() + '-' + QByteArray::number(e.n) + "\nevent: " + event.type().toLatin1() + "\ndata: "
              + event.compactJson() + "\n\n";
    for (Subscriber &s : m_subscribers) {
        if (s.socket && (s.generation.isEmpty() || s.generation == e.generationId))
            send(s, e.frame);
    }
    m_kept.push_back(std::move(e));
    while (m_kept.size() > m_options.retention)
        m_kept.pop_front();
    prune();
}

bool EventStream::subscribe(QTcpSocket *socket, const QString &generationFilter, const QString &lastEventId)
{
    prune();
    if (static_cast<int>(m_subscribers.size()) >= m_options.maxSubscribers)
        return false;
    // A small kernel send buffer: a reader that stops reading shows as our own unsent bytes soon, not
    // after the kernel has quietly taken megabytes for it (Linux grows it to 4 MiB on its own).
    socket->setSocketOption(QAbstractSocket::SendBufferSizeSocketOption, 64 * 1024);
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
                  "X-Accel-Buffering: no\r\nConnection: close\r\n\r\nretry: 1000\n\n");
    Subscriber s{QPointer<QTcpSocket>(socket), generationFilter};
    connect(socket, &QTcpSocket::disconnected, this, &EventStream::prune, Qt::QueuedConnection);

    // Resume: replay what came after the cursor, when it is one of ours and still kept.
    if (!lastEventId.isEmpty()) {
        const qsizetype dash = lastEventId.lastIndexOf(QLatin1Char('-'));
        bool ok = false;
        const quint64 n = dash > 0 ? lastEventId.mid(dash + 1).toULongLong(&ok) : 0;
        const bool ours = ok && QStringView(lastEventId).left(dash) == m_epoch;
        const quint64 oldest = m_kept.empty() ? m_next : m_kept.front().n;
        if (ours && n + 1 >= oldest && n < m_next) {
            const auto from = std::lower_bound(m_kept.begin(), m_kept.end(), n + 1, [](const Entry &e, quint64 v) { return e.n < v; });
            for (auto it = from; it != m_kept.end(); ++it) {
                if ((generationFilter.isEmpty() || generationFilter == it->generationId) && !send(s, it->frame))
                    return true; // overflowed during the replay: closed, as any slow subscriber
            }
        } else {
            const QByteArray why = ours ? "older than the events this engine keeps" : "from another start of this engine, or not a cursor";
            socket->write("event: reset\ndata: {\"reason\":\"the cursor is " + why + "; events may be missing: read each generation's result\","
                          "\"oldest\":\"" + (m_epoch + QLatin1Char('-') + QString::number(oldest)).toLatin1() + "\"}\n\n");
        }
    }
    m_subscribers.push_back(std::move(s));
    return true;
}

bool EventStream::send(Subscriber &s, const QByteArray &frame)
{
    QTcpSocket *socket = s.socket;
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return false;
    if (socket->bytesToWrite() + frame.size() > m_options.backlogBytes) {
        ++m_overflows;
        socket->write("event: overflow\ndata: {\"reason\":\"this subscriber read too slowly; reconnect with Last-Event-ID to resume\"}\n\n");
        socket->disconnectFromHost();
        // A reader that stopped reading never drains even the goodbye: drop it after a grace period.
        QTimer::singleShot(2000, socket, [socket] { socket->abort(); });
        s.socket = nullptr;
        return false;
    }
    socket->write(frame);
    return true;
}

void EventStream::heartbeat()
{
    for (Subscriber &s : m_subscribers)
        send(s, QByteArrayLiteral(": heartbeat\n\n"));
    prune();
}

void EventStream::prune()
{
    std::erase_if(m_subscribers, [](const Subscriber &s) { return !s.socket || s.socket->state() != QAbstractSocket::ConnectedState; });
}

void EventStream::closeAll()
{
    for (Subscriber &s : m_subscribers) {
        if (s.socket)
            s.socket->disconnectFromHost();
    }
    m_subscribers.clear();
}

} // namespace bullpen
