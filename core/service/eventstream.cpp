// SPDX-License-Identifier: MIT
#include "eventstream.h"

#include <QRandomGenerator>
#include <QTcpSocket>

#include <algorithm>

namespace bullpen {

namespace {

constexpr int kBackfillBatch = 5000; // rows per read of the store for a resumed subscriber

} // namespace

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

void EventStream::followStore(qint64 position, BackfillReader reader)
{
    m_backfill = std::move(reader);
    m_memoryFrom = position;
    m_kept.clear();
}

EventStream::Entry EventStream::entry(qint64 position, const Event &event) const
{
    Entry e;
    e.position = position;
    e.generationId = event.generationId;
    const QByteArray id = m_backfill ? QByteArray('s' + QByteArray::number(position)) : QByteArray(m_epoch.toLatin1() + '-' + QByteArray::number(position));
    // One line of JSON per event: `data:` must not contain a line break, and compact JSON has none.
    e.frame = "id: " + id + "\nevent: " + event.type().toLatin1() + "\ndata: " + event.compactJson() + "\n\n";
    return e;
}

void EventStream::publish(const Event &event)
{
    Q_ASSERT(!m_backfill);
    append(entry(m_next++, event));
}

void EventStream::publishStored(const StoredEvent &row)
{
    Q_ASSERT(m_backfill);
    append(entry(row.order, row.event));
}

void EventStream::append(Entry e)
{
    for (Subscriber &s : m_subscribers) {
        if (!s.socket || s.catchingUp || e.position <= s.after)
            continue;
        s.after = e.position;
        if (s.generation.isEmpty() || s.generation == e.generationId)
            send(s, e.frame);
    }
    m_kept.push_back(std::move(e));
    while (m_kept.size() > m_options.retention) {
        m_memoryFrom = m_kept.front().position;
        m_kept.pop_front();
    }
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
    connect(socket, &QTcpSocket::disconnected, this, &EventStream::prune, Qt::QueuedConnection);
    Subscriber added;
    added.socket = socket;
    added.generation = generationFilter;
    added.id = m_nextSubscriber++;
    added.after = m_kept.empty() ? (m_backfill ? m_memoryFrom : m_next - 1) : m_kept.back().position;
    m_subscribers.push_back(std::move(added));
    Subscriber &s = m_subscribers.back();
    if (lastEventId.isEmpty())
        return true;
    if (m_backfill) {
        resumeStored(s, lastEventId);
        return true;
    }
    // Resume: replay what came after the cursor, when it is one of ours and still kept.
    const qsizetype dash = lastEventId.lastIndexOf(QLatin1Char('-'));
    bool ok = false;
    const qint64 n = dash > 0 ? lastEventId.mid(dash + 1).toLongLong(&ok) : 0;
    const bool ours = ok && n >= 0 && QStringView(lastEventId).left(dash) == m_epoch;
    const qint64 oldest = m_kept.empty() ? m_next : m_kept.front().position;
    if (ours && n + 1 >= oldest && n < m_next)
        resumeFromMemory(s, n);
    else
        sendReset(s, ours ? "older than the events this engine keeps" : "from another start of this engine, or not a cursor",
                  m_epoch + QLatin1Char('-') + QString::number(oldest));
    return true;
}

void EventStream::resumeFromMemory(Subscriber &s, qint64 after)
{
    s.after = after;
    const auto from = std::upper_bound(m_kept.begin(), m_kept.end(), after, [](qint64 v, const Entry &e) { return v < e.position; });
    for (auto it = from; it != m_kept.end(); ++it) {
        s.after = it->position;
        if ((s.generation.isEmpty() || s.generation == it->generationId) && !send(s, it->frame))
            return; // overflowed during the replay: closed, as any slow subscriber
    }
}

void EventStream::resumeStored(Subscriber &s, const QString &lastEventId)
{
    bool ok = false;
    const qint64 after = lastEventId.startsWith(QLatin1Char('s')) ? lastEventId.mid(1).toLongLong(&ok) : 0;
    if (!ok || after < 0) {
        sendReset(s, "not a cursor of this store (one of another engine's own?)", QString());
        return;
    }
    if (after >= m_memoryFrom) {
        resumeFromMemory(s, after); // a cursor ahead of this engine: the live events after it follow
        return;
    }
    s.after = after;
    s.catchingUp = true;
    catchUp(s.id);
}

void EventStream::catchUp(quint64 subscriberId)
{
    Subscriber *s = find(subscriberId);
    if (!s)
        return;
    const qint64 through = m_memoryFrom;
    const int limit = std::min(kBackfillBatch, std::max(1, m_options.backfillLimit - s->backfilled));
    m_backfill(s->after, through, limit, [self = QPointer<EventStream>(this), subscriberId, through, limit](const Backfill &read) {
        if (self)
            self->caughtUp(subscriberId, read, through, limit);
    });
}

void EventStream::caughtUp(quint64 subscriberId, const Backfill &read, qint64 through, int limit)
{
    Subscriber *s = find(subscriberId);
    if (!s)
        return;
    const QString oldestKept = QStringLiteral("s%1").arg(m_memoryFrom + 1);
    if (!read.error.isEmpty()) {
        sendReset(*s, "older than this engine's memory, and the store could not be read (" + read.error.toUtf8().replace('"', '\'') + ")", oldestKept);
        s->catchingUp = false;
        resumeFromMemory(*s, m_memoryFrom);
        return;
    }
    if (s->backfilled == 0 && read.oldest > s->after + 1)
        sendReset(*s, "older than the history the store keeps", QStringLiteral("s%1").arg(read.oldest));
    for (const StoredEvent &row : read.rows) {
        s->after = row.order;
        if (row.event.generationId.isEmpty())
            continue; // a row this build cannot read
        const Entry e = entry(row.order, row.event);
        if ((s->generation.isEmpty() || s->generation == e.generationId) && !send(*s, e.frame))
            return;
    }
    s->backfilled += static_cast<int>(read.rows.size());
    m_backfilled += static_cast<quint64>(read.rows.size());
    if (read.rows.size() < limit)
        s->after = through; // every row up to `through` is final: nothing more below it will appear
    if (s->after < m_memoryFrom) { // more to read (or the memory moved on meanwhile)
        if (s->backfilled < m_options.backfillLimit) {
            catchUp(subscriberId);
            return;
        }
        sendReset(*s, "more than " + QByteArray::number(m_options.backfillLimit) + " events behind", oldestKept);
        s->after = m_memoryFrom;
    }
    s->catchingUp = false;
    resumeFromMemory(*s, s->after);
}

EventStream::Subscriber *EventStream::find(quint64 subscriberId)
{
    const auto it = std::find_if(m_subscribers.begin(), m_subscribers.end(), [subscriberId](const Subscriber &s) { return s.id == subscriberId; });
    return it != m_subscribers.end() && it->socket ? &*it : nullptr;
}

void EventStream::sendReset(Subscriber &s, const QByteArray &why, const QString &oldest)
{
    QByteArray data = "{\"reason\":\"the cursor is " + why + "; events may be missing: read each generation's result\"";
    if (!oldest.isEmpty())
        data += ",\"oldest\":\"" + oldest.toLatin1() + '"';
    send(s, "event: reset\ndata: " + data + "}\n\n");
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
