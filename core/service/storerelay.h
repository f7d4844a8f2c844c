// SPDX-License-Identifier: MIT
#pragma once

#include "events/event.h"
#include "store/storelocation.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <map>
#include <set>

namespace bullpen {

// Live events across instances (docs/store.md, "Live events across instances"): on a PostgreSQL store,
// every engine's writer notifies `bullpen_events` when it commits events, and each engine's relay
// (a thread with its own connection, LISTENing) reads the new rows in the store's order and hands the
// other instances' events to the engine's event stream. So any instance's `/v1/events` carries every
// instance's generations.
//
// The store's order is a sequence, taken when a row is inserted, so a row may become visible after a
// later one (two engines' transactions commit in another order than they drew). The relay keeps a
// cursor below which it has seen every row, reads everything above it, and steps over a missing row
// only once it has stayed missing for kGapPatienceMs (a rolled-back transaction leaves a hole forever).
// A notification may be missed (a reconnect): the relay also reads every kPollMs.
class StoreRelay final : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kGapPatienceMs = 5000;
    static constexpr int kPollMs = 1000;
    static constexpr int kBatch = 2000;

    // `instance`: this engine's; its own rows are not relayed (its stream has them already).
    StoreRelay(StoreLocation location, QString instance);
    ~StoreRelay() override;

    // Runs the relay on a thread of its own from now on (only rows written after this are relayed).
    void start();
    quint64 relayedCount() const { return m_relayed; }

Q_SIGNALS:
    // On the relay's thread; connect with a queued connection.
    void relayed(const QList<bullpen::Event> &events);
    void failed(const QString &why);

private:
    void open();
    void read();
    void close();

    StoreLocation m_location;
    QString m_instance;
    QString m_connection;
    QThread m_thread;
    QTimer *m_poll = nullptr; // on m_thread
    bool m_open = false;
    qint64 m_cursor = 0;              // every row at or below it has been seen (or given up)
    std::set<qint64> m_seenAbove;     // rows above the cursor already seen
    std::map<qint64, qint64> m_missingSince; // a hole above the cursor → when it was first noticed (ms, monotonic)
    QElapsedTimer m_clock;
    QString m_lastFailure;
    quint64 m_relayed = 0;
};

} // namespace bullpen
