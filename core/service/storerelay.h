// SPDX-License-Identifier: MIT
#pragma once

#include "store/storelocation.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <map>
#include <optional>

class QSqlDatabase;

namespace bullpen {

// One `events` row of a PostgreSQL store, with its place in the store's order (`events.store_order`):
// the event as the store holds it (`body`, compact JSON), streamed as it is, not read back into an Event.
struct StoredEvent
{
    qint64 order = 0;
    QString generationId;
    QString type;
    QByteArray json;
};

// The event stream of an engine on a PostgreSQL store (docs/store.md, "Live events across instances"):
// every engine's writer notifies `bullpen_events` when it commits events, and each engine's relay (a
// thread with its own connection, LISTENing) reads the new rows and hands them, its own engine's too, to
// the engine's event stream in the store's order. So every instance streams the same events in the same
// order, and a stream's cursor (a place in that order) means the same on every instance.
//
// The store's order is a sequence, taken when a row is inserted, so a row may become visible after a
// later one (two engines' transactions commit in another order than they drew), and a rolled-back
// transaction leaves a hole for ever. The relay hands on a row only once every row below it has been
// handed on or is known never to come: rows above a hole wait for it. A hole is known never to come once
// every transaction of the database that was open when the hole was seen has ended: the one that drew
// it was among them, and had it committed, its rows would be in the read that follows. Each read while a
// hole is open first asks the server for its clock and the start of its oldest open transaction
// (pg_stat_activity: the engines must connect as one role, as BULLPEN_DATABASE_URL makes them), then
// reads the rows. A transaction open for kHoleBackstopMs (a session left idle in a transaction) no
// longer holds the stream; should the question fail, a hole is given up after kGapPatienceMs. While a
// hole is open the relay reads again every kHoleRecheckMs; otherwise on each notification, and every
// kPollMs in case one was missed (a reconnect).
class StoreRelay final : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kGapPatienceMs = 5000;
    static constexpr qint64 kHoleBackstopMs = 60000;
    static constexpr int kHoleRecheckMs = 50;
    static constexpr int kPollMs = 1000;
    static constexpr int kBatch = 2000;

    explicit StoreRelay(StoreLocation location);
    ~StoreRelay() override;

    // The newest row's place in the store's order now (0: none), on a connection of the caller's thread.
    static std::optional<qint64> newestOrder(const StoreLocation &location, QString *why);
    // Rows with `after < store_order <= through`, in the store's order, at most `limit`; *oldest: the
    // oldest row the store still holds (0: none). False on a read error, said in *why.
    // Rows in `skip` come back with their place only (already read).
    static bool readRange(QSqlDatabase &db, qint64 after, qint64 through, int limit, QList<StoredEvent> *rows, qint64 *oldest, QString *why,
                          const std::map<qint64, StoredEvent> *skip = nullptr);

    // Runs the relay on a thread of its own from now on, handing on the rows after `cursor` (usually
    // newestOrder(): what is written from then on).
    void start(qint64 cursor);
    quint64 relayedCount() const { return m_relayed; }

Q_SIGNALS:
    // On the relay's thread, in the store's order; connect with a queued connection.
    void relayed(const QList<bullpen::StoredEvent> &events);
    void failed(const QString &why);

private:
    struct OpenTransactions
    {
        qint64 nowMs = 0; // the server's clock
        std::optional<qint64> oldestMs; // when the oldest open transaction of the database began
    };
    static std::optional<OpenTransactions> openTransactions(QSqlDatabase &db);
    void open();
    void read();
    void close();

    StoreLocation m_location;
    QString m_connection;
    QThread m_thread;
    QTimer *m_poll = nullptr; // on m_thread
    bool m_open = false;
    qint64 m_cursor = 0; // every row at or below it has been handed on (or given up)
    std::map<qint64, StoredEvent> m_waiting; // rows above the cursor, read, waiting for a hole below them
    struct Hole
    {
        qint64 noticedMs = 0; // monotonic
        quint64 noticedInRead = 0;
        std::optional<qint64> serverSeenMs; // the server's clock at the first question after the read that saw it
    };
    std::map<qint64, Hole> m_holes; // rows above the cursor not read yet
    bool m_recheckScheduled = false;
    quint64 m_reads = 0;
    QElapsedTimer m_clock;
    QString m_lastFailure;
    quint64 m_relayed = 0;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::StoredEvent)
