// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "engine/stageresult.h"
#include "finishedextras.h"
#include "retention.h"
#include "storelocation.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace bullpen {

// The store's one writer: a thread with its own connection that takes whatever has been queued
// and commits it in one transaction (batches grow with load, up to kMaxBatch rows). enqueue() never
// touches the disk. A batch that fails is rolled back and retried record by record; a record that
// fails alone is counted, and writing goes on. A lost connection (PostgreSQL) is re-made with backoff
// while the queue holds the records, in order: none is counted as failed for it.
class StoreWriter final
{
public:
    struct Finished
    {
        StageResult result;
        QString userKey;
        QString userMask;
        FinishedExtras extras;
    };
    struct Comparison
    {
        QString id;
        qint64 createdAtMs = 0;
        QString primaryProvider;
        QString fallbackProvider;
        QString primaryGenerationId;
        QString fallbackGenerationId;
        QByteArray body; // compact JSON
    };
    using Item = std::variant<Event, Finished, Comparison>;

    struct Counters
    {
        quint64 queued = 0;
        quint64 written = 0;
        quint64 failed = 0;
        quint64 finalStateConflicts = 0;
        QString lastError;
        QString firstError; // the first failure since the writer started: usually the cause
        qint64 unreachableSinceMs = 0; // the connection is lost and being re-made (0: connected)
        quint64 abandonedByLease = 0; // other processes' generations this writer finished as ABANDONED
        quint64 dropped = 0; // of `failed`: refused because kMaxQueued records were already waiting
        RetentionStats retention; // what this writer's purges removed, and how long a step held the store
    };

    struct Statements; // one connection's prepared statements (storewriter.cpp)

    static constexpr std::size_t kMaxBatch = 512;
    // Records held while the store cannot be reached (about 100 MB of events at most); past it, new
    // records are dropped, counted and said: the engine never waits for the store.
    static constexpr std::size_t kMaxQueued = 200'000;

    // onFailure: records not written (with why). onFinalCommitted: final states now durable.
    // onReachability: the connection was lost (false) or is back (true), with a sentence for people.
    // All are called on the writer's thread.
    StoreWriter(StoreLocation location, std::function<void(const QString &)> onFailure,
                std::function<void(const QStringList &)> onFinalCommitted = {},
                std::function<void(bool reachable, const QString &message)> onReachability = {});
    ~StoreWriter(); // writes what is queued, then stops

    // Who writes (docs/contract.md §12.2): stamped on generations and attempts, and this process's heartbeat row in
    // `instances`. Set before start(), or any time after (the next rows and heartbeat carry it).
    struct Identity
    {
        QString instance;
        QString version;
        QString url;
    };
    void setIdentity(const Identity &identity);
    // How long a running generation's lease lasts; renewed every third of it. Default 15 s.
    void setLease(std::chrono::milliseconds lease);
    static constexpr std::chrono::milliseconds kDefaultLease { 15'000 };
    // Retention (retention.h): this writer purges between its batches, one short step at a time, a pass
    // every policy.interval (the first a minute after start). Off until set. `imagesDir`: the data
    // folder's comics.
    void setRetention(const RetentionPolicy &policy, const QString &imagesDir);

    bool start(QString *error);
    void enqueue(Item item);
    bool flush(std::chrono::milliseconds timeout);
    Counters counters() const;

private:
    void run();
    // Writes batches until stopped (true) or the connection is lost (false: the batch is back in the
    // queue).
    bool writeUntilLost(QSqlDatabase &db, Statements &statements);
    enum class Take { Batch, Nothing, Stopped };
    Take takeBatch(Statements &statements, std::deque<Item> *batch);
    // What writing one batch came to: counted once it is over.
    struct BatchOutcome
    {
        quint64 written = 0;
        quint64 failed = 0;
        quint64 conflicts = 0;
        QString failure; // the first record's failure
        QStringList finals; // generations whose final state was committed
        bool lostBeforeWriting = false; // the connection was gone: the whole batch is back in the queue
        bool lost = false; // lost part way: the rest is back in the queue
    };
    BatchOutcome writeBatch(QSqlDatabase &db, Statements &statements, std::deque<Item> &batch);
    bool writeRange(QSqlDatabase &db, Statements &statements, const std::deque<Item> &batch, std::size_t from, std::size_t to,
                    quint64 *conflicts, QString *failure);
    bool requeueIfLost(QSqlDatabase &db, std::deque<Item> &batch, std::size_t from, const QString &failure);
    // When due: renews this process's leases, finishes expired ones, beats the instance's heart. False
    // if the connection is gone.
    bool keepLeases(QSqlDatabase &db);
    // When a pass is due or under way: one purge step. False if the connection is gone.
    bool purgeWhenDue(QSqlDatabase &db);
    // The connection is lost: counted from now (unless already), and said through onReachability.
    void noteUnreachable(const QString &failure);

    StoreLocation m_location;
    std::function<void(const QString &)> m_onFailure;
    std::function<void(const QStringList &)> m_onFinalCommitted;
    std::function<void(bool, const QString &)> m_onReachability;
    Identity m_identity;
    std::chrono::milliseconds m_lease = kDefaultLease;
    qint64 m_leasesKeptAtMs = 0;
    QString m_leaseFailure; // the last reason the leases could not be kept (writer thread only)
    bool m_upkeepNow = false; // identity or lease changed: keep the leases (and beat) at once
    std::optional<RetentionPolicy> m_retention;
    QString m_imagesDir;
    std::unique_ptr<Purger> m_purger; // the pass under way (writer thread only)
    std::chrono::steady_clock::time_point m_nextPurge; // monotonic: a wall-clock step never delays or hurries a pass
    QString m_purgeFailure; // said once per cause
    QElapsedTimer m_unreachableFor; // since the store became unreachable (under m_mutex)
    qint64 m_startedAtMs = 0;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::deque<Item> m_queue;
    Counters m_counters;
    bool m_stop = false;
    bool m_ready = false;
    QString m_startError;
    std::thread m_thread;
};

} // namespace bullpen
