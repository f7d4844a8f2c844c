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

EventStream::Entry EventStream::entry(qint64 position, const QString &generationId, const QString &type, const QByteArray &json) const
{
    Entry e;
    e.position = position;
    e.generationId = generationId;
    const QByteArray id =
        m_backfill ? QByteArray('s' + QByteArray::number(position)) : QByteArray(m_epoch.toLatin1() + '-' + QByteArray::number(position));
    // One line of JSON per event: `data:` must not contain a line break, and compact JSON has none (the
    // store's bodies are the engine's compact JSON too).
    e.frame = "id: " + id + "\nevent: " + type.toLatin1() + "\ndata: " + json + "\n\n";
    return e;
}

void EventStream::publish(const Event &event)
{
    Q_ASSERT(!m_backfill);
    const qint64 n = m_next++;
    append(entry(n, event.generationId, event.type(), event.compactJson()));
}

void EventStream::publishStored(const StoredEvent &row)
{
    Q_ASSERT(m_backfill);
    append(entry(row.order, row.generationId, row.type, row.json));
}

void EventStream::publishNotice(const QString &type, const QByteArray &json)
{
    const QByteArray frame = "event: " + type.toLatin1() + "\ndata: " + json + "\n\n";
    for (Subscriber &s : m_subscribers) {
        // One still catching up gets the notice now, ahead of the older events it is being sent: a
        // notice says what holds now and has no place in the order.
        if (s.socket && s.generation.isEmpty())
            send(s, frame);
    }
    prune();
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

int EventStream::subscribersOf(const QString &owner) const
{
    return static_cast<int>(
        std::count_if(m_subscribers.begin(), m_subscribers.end(), [&](const Subscriber &s) { return s.socket && s.owner == owner; }));
}

int EventStream::viewerSubscribers() const
{
    return static_cast<int>(
        std::count_if(m_subscribers.begin(), m_subscribers.end(), [](const Subscriber &s) { return s.socket && s.viewer; }));
}

QSet<QString> EventStream::owners() const
{
    QSet<QString> out;
    for (const Subscriber &s : m_subscribers)
        if (s.socket)
            out.insert(s.owner);
    return out;
}

int EventStream::closeOwnedBy(const QSet<QString> &owners)
{
    int closed = 0;
    for (Subscriber &s : m_subscribers) {
        if (s.socket && owners.contains(s.owner)) {
            close(s);
            ++closed;
        }
    }
    prune();
    return closed;
}

bool EventStream::subscribe(QTcpSocket *socket, const QString &generationFilter, const QString &lastEventId, const QString &owner,
                            bool viewer)
{
    prune();
    if (static_cast<int>(m_subscribers.size()) >= m_options.maxSubscribers)
        return false;
    if (viewer && viewerSubscribers() >= m_options.maxSubscribers - m_options.reservedForOperators)
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
    added.owner = owner;
    added.viewer = viewer;
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
        resumeFrom(s, n);
    else
        sendReset(s, ours ? "older than the events this engine keeps" : "from another start of this engine, or not a cursor",
                  m_epoch + QLatin1Char('-') + QString::number(oldest));
    return true;
}

void EventStream::resumeFrom(Subscriber &s, qint64 after)
{
    s.after = after;
    s.catchingUp = true;
    catchUp(s.id);
}

void EventStream::resumeStored(Subscriber &s, const QString &lastEventId)
{
    bool ok = false;
    const qint64 after = lastEventId.startsWith(QLatin1Char('s')) ? lastEventId.mid(1).toLongLong(&ok) : 0;
    if (!ok || after < 0) {
        sendReset(s, "not a cursor of this store (one of another engine's own?)", QString());
        return;
    }
    resumeFrom(s, after); // a cursor ahead of this engine: the live events after it follow
}

int EventStream::roundSize() const
{
    // A round's frames stay well inside the backlog (events are ~0.5–1 KiB of JSON).
    return static_cast<int>(std::clamp<qint64>(m_options.backlogBytes / 2 / 1024, 10, kBackfillBatch));
}

void EventStream::catchUp(quint64 subscriberId)
{
    Subscriber *s = find(subscriberId);
    if (!s)
        return;
    if (s->after < m_memoryFrom) {
        if (!m_backfill) {
            sendReset(*s, "older than the events this engine keeps", m_epoch + QLatin1Char('-') + QString::number(m_memoryFrom + 1));
            s->after = m_memoryFrom;
        } else if (s->backfilled >= m_options.backfillLimit) {
            sendReset(*s, "more than " + QByteArray::number(m_options.backfillLimit) + " events behind",
                      QStringLiteral("s%1").arg(m_memoryFrom + 1));
            s->after = m_memoryFrom;
        } else {
            // Older than the memory: from the store, a round at a time.
            const qint64 through = m_memoryFrom;
            const int limit = std::min(roundSize(), m_options.backfillLimit - s->backfilled);
            m_backfill(s->after, through, limit, [self = QPointer<EventStream>(this), subscriberId, through, limit](const Backfill &read) {
                if (self)
                    self->caughtUp(subscriberId, read, through, limit);
            });
            return;
        }
    }
    // From memory, a round at a time.
    auto it = std::upper_bound(m_kept.begin(), m_kept.end(), s->after, [](qint64 v, const Entry &e) { return v < e.position; });
    for (int n = 0; it != m_kept.end() && n < roundSize(); ++it, ++n) {
        s->after = it->position;
        if ((s->generation.isEmpty() || s->generation == it->generationId) && !send(*s, it->frame))
            return; // overflowed: closed, as any slow subscriber
    }
    if (it == m_kept.end())
        s->catchingUp = false; // live from here on
    else
        paced(*s);
}

void EventStream::caughtUp(quint64 subscriberId, const Backfill &read, qint64 through, int limit)
{
    Subscriber *s = find(subscriberId);
    if (!s)
        return;
    if (!read.error.isEmpty()) {
        sendReset(*s, "older than this engine's memory, and the store could not be read (" + read.error.toUtf8().replace('"', '\'') + ")",
                  QStringLiteral("s%1").arg(m_memoryFrom + 1));
        s->after = std::max(s->after, m_memoryFrom);
        paced(*s);
        return;
    }
    if (s->backfilled == 0 && read.oldest > s->after + 1)
        sendReset(*s, "older than the history the store keeps", QStringLiteral("s%1").arg(read.oldest));
    for (const StoredEvent &row : read.rows) {
        s->after = row.order;
        const Entry e = entry(row.order, row.generationId, row.type, row.json);
        if ((s->generation.isEmpty() || s->generation == e.generationId) && !send(*s, e.frame))
            return;
    }
    s->backfilled += static_cast<int>(read.rows.size());
    m_backfilled += static_cast<quint64>(read.rows.size());
    if (read.rows.size() < limit)
        s->after = std::max(s->after, through); // every row up to `through` is final: nothing more below it will appear
    paced(*s);
}

void EventStream::paced(Subscriber &s)
{
    // The next round once the socket has sent most of this one: a resuming subscriber is never closed
    // for the size of its own replay, only for reading slowly.
    const quint64 id = s.id;
    QTcpSocket *socket = s.socket;
    const auto next = [this, id] {
        QMetaObject::invokeMethod(
            this, [this, id] { catchUp(id); }, Qt::QueuedConnection);
    };
    if (socket->bytesToWrite() <= m_options.backlogBytes / 4) {
        next();
        return;
    }
    auto drained = std::make_shared<QMetaObject::Connection>();
    *drained = connect(socket, &QTcpSocket::bytesWritten, this, [this, socket, drained, next] {
        if (socket->bytesToWrite() > m_options.backlogBytes / 4)
            return;
        disconnect(*drained);
        next();
    });
}

EventStream::Subscriber *EventStream::find(quint64 subscriberId)
{
    const auto it =
        std::find_if(m_subscribers.begin(), m_subscribers.end(), [subscriberId](const Subscriber &s) { return s.id == subscriberId; });
    return it != m_subscribers.end() && it->socket ? &*it : nullptr;
}

void EventStream::sendReset(Subscriber &s, const QByteArray &why, const QString &oldest)
{
    QByteArray data = "{\"reason\":\"the cursor is " + why + "; events may be missing: read each generation's result\"";
    if (!oldest.isEmpty())
        data += ",\"oldest\":\"" + oldest.toLatin1() + '"';
    send(s, "event: reset\ndata: " + data + "}\n\n");
}

void EventStream::close(Subscriber &s)
{
    QTcpSocket *socket = s.socket;
    socket->disconnectFromHost();
    // A reader that stopped reading never drains even the goodbye: drop it after a grace period.
    QTimer::singleShot(2000, socket, [socket] { socket->abort(); });
    s.socket = nullptr;
}

bool EventStream::send(Subscriber &s, const QByteArray &frame)
{
    QTcpSocket *socket = s.socket;
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return false;
    if (socket->bytesToWrite() + frame.size() > m_options.backlogBytes) {
        ++m_overflows;
        socket->write(
            "event: overflow\ndata: {\"reason\":\"this subscriber read too slowly; reconnect with Last-Event-ID to resume\"}\n\n");
        close(s);
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
        if (!s.socket)
            continue;
        // What is still buffered goes to the kernel now: the engine may exit right after this (a drain),
        // and Qt's own buffer would go with the process.
        s.socket->flush();
        s.socket->disconnectFromHost();
    }
    m_subscribers.clear();
}

} // namespace bullpen
