// SPDX-License-Identifier: MIT
#pragma once

#include "engine/storyboardresult.h"
#include "events/event.h"
#include "finishedextras.h"

#include <QJsonObject>
#include <QObject>
#include <QSqlDatabase>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace bullpen {

class StoreWriter;

// A generation as the history shows it: masked user, final state, relief metadata.
struct GenerationRow
{
    QString id;
    qint64 createdAtMs = 0;
    std::optional<qint64> finishedAtMs;
    QString userMask;
    QString userKey;
    QString policy;
    QString state; // running, succeeded, failed, cancelled
    QString publicCode;
    QString kind;
    QString stage;
    QString detail;
    QString decision;
    bool fallbackApplied = false;
    QString fallbackReason;
    QString primaryProvider;
    QString finalProvider;
    QString finalModel;
    qint64 tokensIn = -1;
    qint64 tokensOut = -1;
    double elapsedMs = 0;
    QString fallbackProvider; // configured relief provider, empty for none
    QString nextStep;         // SPEC 7 message of a final failure
    QString imagePath;
};

struct HistoryFilter
{
    std::optional<qint64> fromMs; // wall-clock milliseconds since the epoch, inclusive
    std::optional<qint64> toMs;   // exclusive
    QStringList states;           // empty: any
    QString publicCode;
    QString kind;
    QString stage;
    QString provider; // primary or final provider
    QString userKey;
    std::optional<bool> fallbackApplied; // only relieved (true) or only unrelieved (false) generations
    // Keyset paging: rows strictly older than (beforeMs, beforeId).
    std::optional<qint64> beforeMs;
    QString beforeId;
};

// A relieved stage: what the primary spent before it failed, and what the relief provider then took.
struct FallbackWait
{
    qint64 atMs = 0; // when the relief attempt completed
    QString primaryProvider;
    QString fallbackProvider;
    double primaryMs = 0;  // every primary attempt of that stage, summed
    double fallbackMs = 0; // the relief attempt
    bool fallbackSucceeded = false;
};

// A stored side-by-side comparison (SPEC 9.6).
struct ComparisonRow
{
    QString id;
    qint64 createdAtMs = 0;
    QString primaryProvider;
    QString fallbackProvider;
    QJsonObject body;
};

struct LatencySample
{
    qint64 atMs = 0;
    double durationMs = 0;
    bool success = false;
};

// SPEC 5 and issue 4: the durable store on SQLite (WAL), through Qt Sql. Writes go to a writer thread
// that commits in batched transactions; record*() only queues, so the engine and the GUI never wait
// on disk. A failed write is counted and reported (stats(), writeFailed()), never thrown back at a
// generation. Reads use their own connection on the calling thread.
class Store final : public QObject
{
    Q_OBJECT
public:
    struct Stats
    {
        quint64 queued = 0;
        quint64 written = 0;
        quint64 failed = 0;
        quint64 finalStateConflicts = 0; // a second final state for one generation (SPEC 11.6)
        QString lastError;
        QString firstError; // the first failure since the store was opened: usually the cause
    };

    static constexpr int kBatchSize = 512;

    // Read-only (no writer, no migration, nothing created): history and export. Refuses a folder
    // without a store.
    static std::unique_ptr<Store> openReadOnly(const QString &dataDir, QString *error);
    // Opens (or creates) `<dataDir>/bullpen.sqlite`. On failure says which path and what to do.
    static std::unique_ptr<Store> open(const QString &dataDir, QString *error);
    ~Store() override;

    QString databasePath() const { return m_path; }

    void recordEvent(const Event &event);
    void recordFinished(const StoryboardResult &result, const QString &userKey, const QString &userMask, const FinishedExtras &extras = {});
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

    // --- reads
    QList<GenerationRow> generations(const HistoryFilter &filter, int limit, QString *error = nullptr);
    std::optional<GenerationRow> generation(const QString &id, QString *error = nullptr);
    QList<QJsonObject> events(const QString &generationId, QString *error = nullptr);
    QList<QJsonObject> attempts(const QString &generationId, QString *error = nullptr);
    // Completed attempts of one provider in one role (and one stage, unless `stage` is empty).
    QList<LatencySample> latencySamples(const QString &provider, const QString &role, qint64 fromMs, qint64 toMs, QString *error = nullptr,
                                        const QString &stage = {});
    // Relieved attempts of one stage in a time range (for "the extra wait that fallback added").
    QList<FallbackWait> fallbackWaits(const QString &stage, qint64 fromMs, qint64 toMs, QString *error = nullptr);
    qint64 count(const HistoryFilter &filter, QString *error = nullptr);

    void recordComparison(const ComparisonRow &comparison, const QString &primaryGenerationId, const QString &fallbackGenerationId);
    // Newest first; keyset paging with (beforeMs, beforeId).
    QList<ComparisonRow> comparisons(int limit, std::optional<qint64> beforeMs = std::nullopt, const QString &beforeId = {},
                                     QString *error = nullptr);
    std::optional<ComparisonRow> comparison(const QString &id, QString *error = nullptr);

    // Closes the calling thread's read connection. A worker thread that read from the store calls this
    // before it ends (Qt Sql connections belong to the thread that opened them).
    void releaseThreadConnection();
    // Counts of generations per state, and per public code among failures, in a time range.
    QList<std::pair<QString, qint64>> countBy(const QString &column, const HistoryFilter &filter, QString *error = nullptr);
    struct RateBucket
    {
        qint64 startMs = 0;
        qint64 generations = 0;
        qint64 fallbacks = 0;
    };
    // Generations and relief per time bucket (fallback rate over time).
    QList<RateBucket> fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error = nullptr);

    // For invariant checks: generations not yet final, attempts without a completed record, etc.
    qint64 scalar(const QString &sql, QString *error = nullptr);
    QString integrityCheck();

Q_SIGNALS:
    void writeFailed(const QString &error);
    // Final states now durable on disk (committed; survives the process being killed).
    void finalStatesCommitted(const QStringList &generationIds);

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
