// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "engine/stageresult.h"
#include "finishedextras.h"
#include "historyqueries.h"
#include "resultcache.h"
#include "retention.h"
#include "storelocation.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace bullpen {

class StoreDatabase;
class StoreWriter;

// docs/contract.md §5: the durable store (SQLite in WAL mode, or PostgreSQL: storelocation.h), through Qt Sql, put
// together from its parts, one job each:
//   StoreDatabase   the database, its schema and migrations, orphans, per-thread read connections;
//   StoreWriter     a writer thread committing events, results and comparisons in batched transactions
//                   (record*() only queues: the engine and the GUI never wait on disk; a failed write is
//                   counted and reported through stats() and writeFailed(), never thrown at a generation);
//   HistoryQueries  the typed reads (HistoryReader), on the calling thread's connection;
//   ResultCache     docs/contract.md §6's lookup of an identical request's stored result.
class Store final : public HistoryWrites, public HistoryQueries
{
    Q_OBJECT
public:
    using Stats = HistoryWriteStats;
    using RateBucket = bullpen::RateBucket;

    static constexpr int kBatchSize = 512;

    // Read-only (no writer, no migration, nothing created): history and export. Refuses a folder (or
    // a database) without a store.
    static std::unique_ptr<Store> openReadOnly(const StoreLocation &location, QString *error);
    // Opens (or creates) the store. On failure says which one and what to do.
    static std::unique_ptr<Store> open(const StoreLocation &location, QString *error);
    // The SQLite file `<dataDir>/bullpen.sqlite`.
    static std::unique_ptr<Store> openReadOnly(const QString &dataDir, QString *error);
    static std::unique_ptr<Store> open(const QString &dataDir, QString *error);
    ~Store() override;

    const StoreLocation &storeLocation() const;
    // The SQLite file, or the PostgreSQL URL without its password: for messages.
    QString databasePath() const;

    // docs/contract.md §12.2: the store keeps the fingerprint of the masking key its user keys were made with. The
    // first opener's key is adopted; an opener with another key gets false and a message naming both.
    bool adoptMaskingKey(const QString &fingerprint, QString *error);

    // Who writes, and the lease of running generations (StoreWriter::setIdentity, setLease).
    void setIdentity(const QString &instance, const QString &version, const QString &url = {});
    void setLease(std::chrono::milliseconds lease);
    // Retention (retention.h): the writer purges between its batches. `imagesDir`: the data folder's comics.
    void setRetention(const RetentionPolicy &policy, const QString &imagesDir);
    RetentionStats retentionStats() const;
    QString instance() const;

    void recordEvent(const Event &event);
    void recordFinished(const StageResult &result, const QString &userKey, const QString &userMask, const FinishedExtras &extras = {});
    void recordComparison(const ComparisonRow &comparison, const QString &primaryGenerationId, const QString &fallbackGenerationId);
    // docs/contract.md §6 (ResultCache::lookup).
    std::optional<QJsonObject> cachedResult(const QString &cacheKey, qint64 sinceMs, QString *error = nullptr);
    // Waits (outside the engine) until everything queued so far is committed or has failed.
    bool flush(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    Stats stats() const;
    HistoryWriteStats writeStats() const override { return stats(); }

    // Generations found running with their process gone, finished as ABANDONED by this open.
    int abandonedAtOpen() const;
    // For invariant checks (StoreDatabase).
    int orphanedRunning();
    qint64 scalar(const QString &sql, QString *error = nullptr);
    QString integrityCheck();

private:
    explicit Store(std::unique_ptr<StoreDatabase> db);

    std::unique_ptr<StoreDatabase> m_db;
    std::unique_ptr<StoreWriter> m_writer;
    QString m_instance;
    ResultCache m_cache;
};

} // namespace bullpen
