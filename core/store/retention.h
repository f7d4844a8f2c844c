// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace bullpen {

// How long the store keeps what it holds (docs/store.md, "Retention"). Generations are kept
// `generations` long with their attempts, events and comparisons, and the comics nothing refers to any
// more; the hourly aggregates and the audit trail are kept `aggregates` long, so that the dashboards
// still show a year once the rows are gone. nullopt: kept for ever.
struct RetentionPolicy
{
    std::optional<std::chrono::milliseconds> generations = std::chrono::hours(24 * 30);
    std::optional<std::chrono::milliseconds> aggregates = std::chrono::hours(24 * 400);
    // How often an engine's writer looks for work (a pass ends when nothing is older than the cutoff).
    std::chrono::milliseconds interval = std::chrono::minutes(15);

    static constexpr std::chrono::milliseconds kShortest = std::chrono::hours(1);
    bool isOff() const { return !generations && !aggregates; }
};

// "30d", "400d", "12h", "2w", or "off". Shorter than an hour is refused: the writers' memory of the
// comics already in the store lasts ten minutes, and a purge must never be quicker than that
// (docs/store.md). nullopt with `*why` said: refused; `*off`: the text was "off".
std::optional<std::chrono::milliseconds> parseRetention(QStringView text, bool *off, QString *why);
QString formatRetention(std::optional<std::chrono::milliseconds> period);

// A comic's digest from its file's name (`<imagesDir>/ab/<sha256>.png`); empty if the name is not one.
QString comicDigestOf(const QString &path);

// What a purge removed (or, dry, would remove).
struct PurgeCounts
{
    qint64 generations = 0;
    qint64 attempts = 0;
    qint64 events = 0;
    qint64 comparisons = 0;
    qint64 images = 0; // rows of the `images` table (comics kept in a PostgreSQL store)
    qint64 imageFiles = 0; // comic files in the data folder no generation refers to any more
    qint64 aggregateRows = 0;
    qint64 auditRows = 0;
    qint64 total() const { return generations + attempts + events + comparisons + images + imageFiles + aggregateRows + auditRows; }
    PurgeCounts &operator+=(const PurgeCounts &o);
};

// What a writer's purges did since it started (Store::retentionStats).
struct RetentionStats
{
    PurgeCounts purged;
    qint64 lastPassDoneMs = 0; // when a pass last found nothing more to remove (0: none yet)
    double longestStepMs = 0; // the longest a step held the store; writes queue behind it
};

// Removes what a RetentionPolicy no longer keeps, in small transactions (Purger::step), so that a purge
// running beside the writers never holds the store for long: each step takes at most `batch` finished
// generations (never a running one), oldest first, with their attempts and events; then comparisons,
// unreferenced comics, aggregate hours and audit rows, likewise in batches. The batch adapts to keep a
// step near kStepTarget. On PostgreSQL a step first takes a transaction-scoped advisory lock, so that of
// several engines on one store one purges at a time (the others' steps return Busy).
class Purger final
{
public:
    enum class Step { More, Done, Busy, Failed };

    static constexpr std::chrono::milliseconds kStepTarget { 15 };
    static constexpr int kMinBatch = 16;
    static constexpr int kMaxBatch = 2000;

    // `nowMs` fixes the cutoffs for the whole pass. `imagesDir`: the data folder's comics (empty: none).
    Purger(QSqlDatabase db, const RetentionPolicy &policy, qint64 nowMs, QString imagesDir = {});

    // One small transaction. Done when nothing is left to remove.
    Step step(QString *error);
    // How long to leave the store to others before the next step: twice the last step, 10 to 200 ms.
    // SQLite's locks are not fair: a purge stepping back to back would starve every other writer of
    // the file (another process waits in growing sleeps and always finds the lock taken again).
    std::chrono::milliseconds pause() const;
    // Runs steps, pausing between them, until Done (or Failed); for the CLI, benchmarks and tests.
    bool runToEnd(QString *error);
    // What a pass would remove, counted without removing anything.
    bool countOnly(PurgeCounts *counts, QString *error);

    const PurgeCounts &counts() const { return m_counts; }
    int steps() const { return m_steps; }
    double longestStepMs() const { return m_longestStepMs; }
    // SQLite: the longest checkpoint after a step (no write lock held; other writers go on meanwhile).
    double longestCheckpointMs() const { return m_longestCheckpointMs; }
    qint64 generationCutoffMs() const { return m_generationCutoff; }
    qint64 aggregateCutoffMs() const { return m_aggregateCutoff; }

private:
    enum class Phase { Generations, Comparisons, Images, ImageFiles, Aggregates, Audit, Vacuum, Done };
    bool stepGenerations(int *removed, QString *error);
    bool stepComparisons(int *removed, QString *error);
    bool stepImages(int *removed, QString *error);
    bool stepImageFiles(int *removed, QString *error);
    bool stepAggregates(int *removed, QString *error);
    bool stepAudit(int *removed, QString *error);
    bool stepVacuum(int *removed, QString *error);

    QSqlDatabase m_db;
    bool m_postgres = false;
    qint64 m_generationCutoff = 0; // 0: generations are kept
    qint64 m_aggregateCutoff = 0; // 0: aggregates are kept
    QString m_imagesDir;
    QStringList m_imageFiles; // the comic files older than the cutoff, listed once per pass
    bool m_imageFilesListed = false;
    Phase m_phase = Phase::Generations;
    int m_batch = 64; // grows while steps stay short
    PurgeCounts m_counts;
    int m_steps = 0;
    double m_longestStepMs = 0;
    double m_lastStepMs = 0;
    double m_longestCheckpointMs = 0;
};

} // namespace bullpen
