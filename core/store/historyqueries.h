// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QSet>

namespace bullpen {

class Masking;
class StoreDatabase;

// The history's typed queries (HistoryReader) over the store's database, in portable SQL: failure
// pages with keyset paging, counts, fallback rate, latency samples, fallback waits, one generation's
// rows, comparisons. Each call reads on the calling thread's own connection. Counts, the fallback rate
// and the histograms read the hourly aggregates (aggregates.h) for whole hours and the rows for the
// partial hours at the edges, so their cost follows the hours asked for, not the traffic.
class HistoryQueries : public HistoryReader
{
public:
    explicit HistoryQueries(StoreDatabase &db);

    QString location() const override;
    QList<GenerationRow> generations(const HistoryFilter &filter, int limit, QString *error = nullptr) override;
    std::optional<GenerationRow> generation(const QString &id, QString *error = nullptr) override;
    std::optional<QJsonObject> storedResult(const QString &id, QString *error = nullptr) override;
    QList<QJsonObject> events(const QString &generationId, QString *error = nullptr) override;
    QList<QJsonObject> attempts(const QString &generationId, QString *error = nullptr) override;
    std::optional<Spend> spend(qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    // Whole hours inside one slice from the hourly spend (`agg_spend`, schema 17); the partial hours at the
    // range's ends and those a slice's end cuts from the rows (spendqueries.cpp).
    std::optional<QList<Spend>> spendSlices(qint64 fromMs, qint64 toMs, int slices, QString *error = nullptr) override;
    // The same from the attempt rows alone: one query over `attempts_spend` (schema 15), grouped by slice,
    // provider, stage, role and currency (a store older than schema 17; the reference tests compare with).
    std::optional<QList<Spend>> spendSlicesFromAttempts(qint64 fromMs, qint64 toMs, int slices, QString *error = nullptr);
    bool forEachAttempt(Stage stage, qint64 fromMs, qint64 toMs, const std::function<void(const TraceAttempt &)> &visit,
                        QString *error = nullptr) override;
    // forEachAttempt's query (stage, from, to bound in that order) and spendSlices' (from, slice length,
    // from, to): tests read their plans.
    static QString tuneReadSql();
    static QString spendReadSql();
    QList<LatencySample> latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error = nullptr,
                                        std::optional<Stage> stage = std::nullopt) override;
    QList<FallbackWait> fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    // From the hourly aggregates for whole hours of hour-multiple buckets, from the rows for the rest.
    QList<DurationCell> latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                         QString *error = nullptr) override;
    QList<FallbackWaitCell> fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                  QString *error = nullptr) override;
    // From the attempt rows of the window (minutes: no aggregates needed).
    QList<ProviderHealth> providerHealth(qint64 fromMs, qint64 toMs, QString *error = nullptr) override;
    qint64 count(const HistoryFilter &filter, QString *error = nullptr) override;
    std::optional<qint64> oldestGenerationMs(QString *error = nullptr) override;
    // Counts of generations per state, and per public code among failures, in a time range.
    QList<std::pair<QString, qint64>> countBy(HistoryGroup group, const HistoryFilter &filter, QString *error = nullptr) override;
    // Generations, and those the fallback answered, per time bucket (fallback rate over time).
    QList<RateBucket> fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error = nullptr,
                                   const HistoryFilter &scope = {}) override;
    // The installation's key, for filters that name a raw user id (HistoryFilter::userId).
    void setMasking(const Masking *masking) { m_masking = masking; }
    // Newest first; keyset paging with (beforeMs, beforeId).
    QList<ComparisonRow> comparisons(int limit, std::optional<qint64> beforeMs = std::nullopt, const QString &beforeId = {},
                                     QString *error = nullptr) override;
    std::optional<ComparisonRow> comparison(const QString &id, QString *error = nullptr) override;
    void releaseThreadConnection() override;

    // The engines that share this store, by their heartbeat rows (docs/contract.md §12.2), by name.
    struct InstanceRow
    {
        QString name;
        QString version;
        QString url;
        qint64 startedAtMs = 0;
        qint64 heartbeatMs = 0;
        int inFlight = 0;
        qint64 leaseMs = 0;
    };
    QList<InstanceRow> instances(QString *error = nullptr);

    // A comic kept in the store (PostgreSQL), by its SHA-256: its bytes and MIME type.
    struct Comic
    {
        QByteArray bytes;
        QString mime;
    };
    std::optional<Comic> comic(const QString &sha256, QString *error = nullptr);

private:
    HistoryFilter resolved(const HistoryFilter &filter) const;
    // Whether a range ending at `to` reaches the present: no row an aggregate counts is at or after it.
    bool reachesThePresent(qint64 to);

    StoreDatabase &m_db;
    const Masking *m_masking = nullptr;
};

} // namespace bullpen
