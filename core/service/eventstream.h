// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "storerelay.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QTimer>

#include <chrono>
#include <deque>
#include <functional>
#include <vector>

class QTcpSocket;

namespace bullpen {

// `GET /v1/events` (docs/api.md): every event the engine records, as Server-Sent Events, each with an
// `id:` cursor. A subscriber that sends `Last-Event-ID` gets every later event it would have seen, in
// order, then the live ones, with nothing lost or repeated. A comment line is written every `heartbeat`.
// A subscriber whose unsent bytes pass `backlogBytes` gets `event: overflow` and is closed: its socket
// never buffers without bound.
//
// Two kinds of cursor:
// - On its own (SQLite, or no store) the stream numbers the engine's events as they happen: "<epoch>-<n>",
//   the epoch random per engine start. The last `retention` events are kept in memory to resume from; a
//   cursor of another start, or older than that, gets `event: reset` first (events may be missing).
// - Following a PostgreSQL store (followStore), the stream carries every instance's events in the
//   store's order, as StoreRelay hands them on, and the cursor is the place in that order: "s<order>".
//   Every instance streams the same events in the same order, so a cursor from one instance resumes on
//   any other. What is older than the memory is read back from the store (`backfillLimit` events at
//   most, else `event: reset`).
//
// Besides a generation's events the stream carries this engine's notices (publishNotice: its breakers
// opening and closing, drains it learns of). They are live only: written without an `id:`, so a
// client's cursor stays on the last generation event, and neither kept nor replayed on resume (the
// state they announce is always at GET /v1/providers). A subscriber of one generation does not get them.
class EventStream final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::size_t retention = 65536;
        qint64 backlogBytes = 4 * 1024 * 1024;
        std::chrono::milliseconds heartbeat { 15000 };
        int maxSubscribers = 64;
        int maxPerToken = 16; // one token cannot take every slot
        // Of maxSubscribers, these only an operator's token may take: viewers' streams never lock the
        // operators out (an operator's CLI opens its stream before it starts a generation).
        int reservedForOperators = 16;
        int backfillLimit = 100000;
    };
    // What a read of the store for a resumed subscriber gave: rows after a place, in the store's order.
    struct Backfill
    {
        QList<StoredEvent> rows;
        qint64 oldest = 0; // the oldest row the store still holds
        QString error; // empty: read
    };
    // Reads rows `after < order <= through`, at most `limit`, somewhere off this thread, and calls `done`
    // on this object's thread.
    using BackfillReader = std::function<void(qint64 after, qint64 through, int limit, std::function<void(Backfill)> done)>;

    explicit EventStream(Options options, QObject *parent = nullptr);
    ~EventStream() override;

    // From now on the stream carries the store's events (publishStored), starting after `position`.
    void followStore(qint64 position, BackfillReader reader);
    bool followsStore() const { return static_cast<bool>(m_backfill); }

    void publish(const Event &event); // not following a store: numbered here
    void publishStored(const StoredEvent &row); // following a store: in the store's order
    void publishNotice(const QString &type, const QByteArray &json); // live only, no cursor (see above)
    // False when the subscriber limit is reached (the caller answers 429). `owner`: the token's name,
    // for subscribersOf() and closeOwnedBy().
    // `viewer`: a viewer's stream, which may not take the slots reserved for operators.
    bool subscribe(QTcpSocket *socket, const QString &generationFilter, const QString &lastEventId, const QString &owner = {},
                   bool viewer = false);
    int subscribers() const { return static_cast<int>(m_subscribers.size()); }
    int viewerSubscribers() const;
    int subscribersOf(const QString &owner) const;
    QSet<QString> owners() const;
    // Ends the streams of these owners at once (their tokens were revoked).
    int closeOwnedBy(const QSet<QString> &owners);
    quint64 overflows() const { return m_overflows; }
    quint64 backfilledEvents() const { return m_backfilled; }
    // Ends every stream (shutdown): subscribers see the connection close and reconnect elsewhere.
    void closeAll();

private:
    struct Entry
    {
        qint64 position = 0; // n, or the store's order
        QString generationId;
        QByteArray frame;
    };
    struct Subscriber
    {
        QPointer<QTcpSocket> socket;
        QString generation; // empty: all
        QString owner; // the token's name
        bool viewer = false; // holds one of the slots viewers may take
        quint64 id = 0;
        qint64 after = 0; // following a store: the last place this subscriber has had
        bool catchingUp = false; // resuming; live events wait in memory meanwhile
        int backfilled = 0;
    };
    Entry entry(qint64 position, const QString &generationId, const QString &type, const QByteArray &json) const;
    void append(Entry e);
    bool send(Subscriber &s, const QByteArray &frame); // false: overflowed and closed
    void close(Subscriber &s); // disconnects it now, aborts it in 2 s if it never reads the close
    void sendReset(Subscriber &s, const QByteArray &why, const QString &oldest);
    // A resumed subscriber catches up in rounds (from the store while older than the memory, then from
    // the memory), each once the socket has sent most of the last; live events wait in memory meanwhile.
    void resumeFrom(Subscriber &s, qint64 after);
    void resumeStored(Subscriber &s, const QString &lastEventId);
    int roundSize() const;
    void catchUp(quint64 subscriberId);
    void caughtUp(quint64 subscriberId, const Backfill &read, qint64 through, int limit);
    void paced(Subscriber &s);
    Subscriber *find(quint64 subscriberId);
    void heartbeat();
    void prune();

    Options m_options;
    QString m_epoch;
    qint64 m_next = 1;
    std::deque<Entry> m_kept;
    std::vector<Subscriber> m_subscribers;
    quint64 m_nextSubscriber = 1;
    QTimer m_heartbeat;
    quint64 m_overflows = 0;
    quint64 m_backfilled = 0;
    // Following a store:
    BackfillReader m_backfill;
    qint64 m_memoryFrom = 0; // m_kept holds every event handed on after this place
};

} // namespace bullpen
