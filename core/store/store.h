// SPDX-License-Identifier: MIT
#pragma once

#include "engine/stageresult.h"
#include "events/event.h"
#include "finishedextras.h"
#include "history/historyreader.h"

#include <QJsonObject>
#include <QObject>
#include <QSqlDatabase>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace bullpen {

class StoreWriter;

// SPEC 5 and issue 4: the durable store on SQLite (WAL), through Qt Sql. Writes go to a writer thread
// that commits in batched transactions; record*() only queues, so the engine and the GUI never wait
// on disk. A failed write is counted and reported (stats(), writeFailed()), never thrown back at a
// generation. Reads use their own connection on the calling thread.
class Store final : public HistoryWrites, public HistoryReader
{
    Q_OBJECT
public:
    using Stats = HistoryWriteStats;
    using RateBucket = bullpen::RateBucket;

    static constexpr int kBatchSize = 512;

    // Read-only (no writer, no migration, nothing created): history and export. Refuses a folder
    // without a store.
    static std::unique_ptr<Store> openReadOnly(const QString &dataDir, QString *error);
    // Opens (or creates) `<dataDir>/bullpen.sqlite`. On failure says which path and what to do.
    static std::unique_ptr<Store> open(const QString &dataDir, QString *error);
    ~Store() override;

    QString databasePath() const { return m_path; }
    QString location() const override { return m_path; }

    void recordEvent(const Event &event);
    void recordFinished(const StageResult &result, const QString &userKey, const QString &userMask, const FinishedExtras &extras = {});
    // SPEC 6: the stored result of a succeeded, non-degraded, non-cached generation with this key,
    // created at or after sinceMs; nothing if there is none.
    std::optional<QJsonObject> cachedResult(const QString &cacheKey, qint64 sinceMs, QString *error = nullptr);
    // Waits (outside the engine) until everything queued so far is committed or has failed.
    bool flush(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    // Generations found running with their process gone, finished as ABANDONED by this open.
    int abandonedAtOpen() const { return m_abandoned; }
    // Generations still `running` whose process is gone (SPEC 11.10: 0 after any open).
    int orphanedRunning();
    Stats stats() const;
    HistoryWriteStats writeStats() const override { return stats(); }

    // --- reads
    QList<GenerationRow> generations(const HistoryFilter &filter, int limit, QString *error = nullptr) override;
    std::optional<GenerationRow> generation(const QString &id, QString *error = nullptr) override;
    QList<QJsonObject> events(const QString &generationId, QString *error = nullptr) override;
    QList<QJsonObject> attempts(const QString &generationId, QString *error = nullptr) override;
    // Completed attempts of one provider in one role (and one stage, unless `stage` is empty).
    QList<LatencySample> latencySamples(const QString &provider, const QString &role, qint64 fromMs, qint64 toMs, QString *error = nullptr,
                                        const QString &stage = {}) override;
    // Relieved attempts of one stage in a time range (for "the extra wait that fallback added").
    QList<FallbackWait> fallbackWaits(const QString &stage, qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    qint64 count(const HistoryFilter &filter, QString *error = nullptr) override;
    std::optional<qint64> oldestGenerationMs(QString *error = nullptr) override;

    void recordComparison(const ComparisonRow &comparison, const QString &primaryGenerationId, const QString &fallbackGenerationId);
    // Newest first; keyset paging with (beforeMs, beforeId).
    QList<ComparisonRow> comparisons(int limit, std::optional<qint64> beforeMs = std::nullopt, const QString &beforeId = {},
                                     QString *error = nullptr) override;
    std::optional<ComparisonRow> comparison(const QString &id, QString *error = nullptr) override;

    // Closes the calling thread's read connection. A worker thread that read from the store calls this
    // before it ends (Qt Sql connections belong to the thread that opened them).
    void releaseThreadConnection() override;
    // Counts of generations per state, and per public code among failures, in a time range.
    QList<std::pair<QString, qint64>> countBy(const QString &column, const HistoryFilter &filter, QString *error = nullptr);
    QList<std::pair<QString, qint64>> countBy(HistoryGroup group, const HistoryFilter &filter, QString *error = nullptr) override;
    // Generations and relief per time bucket (fallback rate over time).
    QList<RateBucket> fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error = nullptr) override;

    // For invariant checks: generations not yet final, attempts without a completed record, etc.
    qint64 scalar(const QString &sql, QString *error = nullptr);
    QString integrityCheck();


private:
    static int abandonOrphans(QSqlDatabase &db);
    explicit Store(QString path);
    QSqlDatabase readConnection();

    QString m_path;
    QString m_readConnectionPrefix;
    std::unique_ptr<StoreWriter> m_writer;
    int m_abandoned = 0;
};

} // namespace bullpen
