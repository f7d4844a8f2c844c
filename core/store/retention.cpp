// SPDX-License-Identifier: MIT
#include "retention.h"

#include "aggregates.h"
#include "contract/sha256.h"
#include "storedatabase.h"
#include "storelocation.h"

#include <QDateTime>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QVariantList>

#include <algorithm>
#include <cmath>

namespace bullpen {

using std::chrono::milliseconds;

namespace {

// pg_try_advisory_xact_lock's key for "a purge step is running" (any constant all engines share).
constexpr qint64 kPurgeLockKey = 0x42756c6c70656e; // "Bullpen"
constexpr int kVacuumPagesPerStep = 2048; // 8 MiB of 4 KiB pages

QString placeholders(qsizetype n)
{
    QString out;
    out.reserve(n * 2);
    for (qsizetype i = 0; i < n; ++i)
        out += i ? QStringLiteral(",?") : QStringLiteral("?");
    return out;
}

// The first column of every row.
bool column(QSqlQuery &q, const QString &sql, const QVariantList &binds, QVariantList *out, QString *error)
{
    if (!StoreDatabase::run(q, sql, binds, error))
        return false;
    while (q.next())
        out->append(q.value(0));
    q.finish();
    return true;
}

qint64 count(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error)
{
    if (!StoreDatabase::run(q, sql, binds, error) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

// The comic files in `imagesDir` last written or reused before `cutoff`, by name digest.
QStringList comicFilesBefore(const QString &imagesDir, const QDateTime &cutoff)
{
    QStringList out;
    QDirIterator it(imagesDir, { QStringLiteral("*.png"), QStringLiteral("*.jpg"), QStringLiteral("*.webp") }, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (it.fileInfo().lastModified() < cutoff && !comicDigestOf(it.filePath()).isEmpty())
            out << it.filePath();
    }
    return out;
}

} // namespace

// `<imagesDir>/ab/<sha256>.<ext>` (generationpipeline.cpp): the name is the digest.
QString comicDigestOf(const QString &path)
{
    const QString base = QFileInfo(path).completeBaseName();
    return isSha256Hex(base) ? base : QString();
}

std::optional<milliseconds> parseRetention(QStringView text, bool *off, QString *why)
{
    *off = false;
    const QString t = text.trimmed().toString().toLower();
    if (t == u"off" || t == u"never" || t == u"forever") {
        *off = true;
        return std::nullopt;
    }
    static const QRegularExpression re(QStringLiteral(R"(^([0-9]+(?:\.[0-9]+)?)\s*(h|d|w)$)"));
    const auto m = re.match(t);
    if (!m.hasMatch()) {
        *why =
            QStringLiteral("\"%1\" is not a retention period; write hours, days or weeks (e.g. 12h, 30d, 2w) or off").arg(text.toString());
        return std::nullopt;
    }
    const double hours = m.captured(1).toDouble() * (m.captured(2) == u"h" ? 1.0 : m.captured(2) == u"d" ? 24.0 : 168.0);
    if (!std::isfinite(hours) || hours > 24.0 * 366 * 20) {
        *why = QStringLiteral("\"%1\" is longer than 20 years; write off to keep everything").arg(text.toString());
        return std::nullopt;
    }
    const milliseconds period(std::llround(hours * 3'600'000.0));
    if (period < RetentionPolicy::kShortest) {
        *why = QStringLiteral("\"%1\" is shorter than an hour, the shortest retention").arg(text.toString());
        return std::nullopt;
    }
    return period;
}

QString formatRetention(std::optional<milliseconds> period)
{
    if (!period)
        return QStringLiteral("off");
    const qint64 hours = period->count() / 3'600'000;
    if (period->count() % 3'600'000 == 0 && hours % 24 == 0)
        return QStringLiteral("%1d").arg(hours / 24);
    if (period->count() % 3'600'000 == 0)
        return QStringLiteral("%1h").arg(hours);
    return QStringLiteral("%1h").arg(double(period->count()) / 3'600'000.0, 0, 'g', 6);
}

PurgeCounts &PurgeCounts::operator+=(const PurgeCounts &o)
{
    generations += o.generations;
    attempts += o.attempts;
    events += o.events;
    comparisons += o.comparisons;
    images += o.images;
    imageFiles += o.imageFiles;
    aggregateRows += o.aggregateRows;
    auditRows += o.auditRows;
    return *this;
}

Purger::Purger(QSqlDatabase db, const RetentionPolicy &policy, qint64 nowMs, QString imagesDir)
    : m_db(std::move(db))
    , m_postgres(StoreLocation::isPostgres(m_db))
    , m_generationCutoff(policy.generations ? nowMs - policy.generations->count() : 0)
    , m_aggregateCutoff(policy.aggregates ? nowMs - policy.aggregates->count() : 0)
    , m_imagesDir(std::move(imagesDir))
{
    if (!m_generationCutoff)
        m_phase = Phase::Aggregates;
}

Purger::Step Purger::step(QString *error)
{
    if (m_phase == Phase::Done)
        return Step::Done;
    QElapsedTimer timer;
    timer.start();
    int removed = 0;
    bool ok = true;
    const bool transactional = m_phase != Phase::ImageFiles && m_phase != Phase::Vacuum;
    if (transactional) {
        // SQLite: the write lock from the start. A transaction that reads first and then writes fails at
        // once (SQLITE_BUSY_SNAPSHOT, no waiting) when another connection committed in between.
        QSqlQuery begin(m_db);
        if (m_postgres ? !m_db.transaction() : !begin.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
            *error = m_postgres ? m_db.lastError().text() : begin.lastError().text();
            return Step::Failed;
        }
        if (m_postgres) {
            QSqlQuery lock(m_db);
            if (!StoreDatabase::run(lock, QStringLiteral("SELECT pg_try_advisory_xact_lock(?)"), { kPurgeLockKey }, error)
                || !lock.next()) {
                m_db.rollback();
                return Step::Failed;
            }
            if (!lock.value(0).toBool()) {
                lock.finish();
                m_db.rollback();
                return Step::Busy; // another engine is purging
            }
        }
    }
    switch (m_phase) {
    case Phase::Generations:
        ok = stepGenerations(&removed, error);
        break;
    case Phase::Comparisons:
        ok = stepComparisons(&removed, error);
        break;
    case Phase::Images:
        ok = stepImages(&removed, error);
        break;
    case Phase::ImageFiles:
        ok = stepImageFiles(&removed, error);
        break;
    case Phase::Aggregates:
        ok = stepAggregates(&removed, error);
        break;
    case Phase::Audit:
        ok = stepAudit(&removed, error);
        break;
    case Phase::Vacuum:
        ok = stepVacuum(&removed, error);
        break;
    case Phase::Done:
        break;
    }
    if (transactional) {
        if (ok && !m_db.commit()) {
            ok = false;
            *error = m_db.lastError().text();
        }
        if (!ok)
            m_db.rollback();
    }
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    // SQLite: the purge checkpoints what it wrote to the WAL itself, without the write lock (PASSIVE),
    // so that the next writer's commit does not pay for copying the purge's pages into the file.
    if (ok && transactional && !m_postgres && removed > 0) {
        QElapsedTimer checkpoint;
        checkpoint.start();
        QSqlQuery q(m_db);
        if (q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")))
            while (q.next()) { }
        m_longestCheckpointMs = std::max(m_longestCheckpointMs, double(checkpoint.nsecsElapsed()) / 1e6);
    }
    ++m_steps;
    m_lastStepMs = ms;
    m_longestStepMs = std::max(m_longestStepMs, ms);
    if (!ok)
        return Step::Failed;
    // The batch follows the time a step takes: near kStepTarget, so writers queue behind one for little.
    if (ms > double(kStepTarget.count()))
        m_batch = std::max(kMinBatch, m_batch / 2);
    else if (ms < double(kStepTarget.count()) / 3 && removed >= m_batch)
        m_batch = std::min(kMaxBatch, m_batch * 2);
    if (removed == 0) {
        // This phase has nothing more: the next one (skipping what the policy keeps).
        switch (m_phase) {
        case Phase::Generations:
            m_phase = Phase::Comparisons;
            break;
        case Phase::Comparisons:
            m_phase = Phase::Images;
            break;
        case Phase::Images:
            m_phase = Phase::ImageFiles;
            break;
        case Phase::ImageFiles:
            m_phase = m_aggregateCutoff ? Phase::Aggregates : Phase::Vacuum;
            break;
        case Phase::Aggregates:
            m_phase = Phase::Audit;
            break;
        case Phase::Audit:
            m_phase = Phase::Vacuum;
            break;
        case Phase::Vacuum:
        case Phase::Done:
            m_phase = Phase::Done;
            break;
        }
        if (m_phase == Phase::Aggregates && !m_aggregateCutoff)
            m_phase = Phase::Vacuum;
    }
    return m_phase == Phase::Done ? Step::Done : Step::More;
}

milliseconds Purger::pause() const
{
    return std::clamp(milliseconds(std::llround(2 * m_lastStepMs)), milliseconds(10), milliseconds(200));
}

bool Purger::runToEnd(QString *error)
{
    for (;;) {
        switch (step(error)) {
        case Step::Done:
            return true;
        case Step::Failed:
            return false;
        case Step::Busy:
            *error = QStringLiteral("another engine is purging this store now; try again when it is done");
            return false;
        case Step::More:
            break;
        }
        QThread::msleep(static_cast<unsigned long>(pause().count()));
    }
}

// The oldest finished generations (never a running one) with their attempts and events.
bool Purger::stepGenerations(int *removed, QString *error)
{
    QSqlQuery q(m_db);
    QVariantList ids;
    if (!column(q,
                QStringLiteral("SELECT id FROM generations WHERE created_at_ms < ? AND state <> 'running' ORDER BY created_at_ms LIMIT ?"),
                { m_generationCutoff, m_batch }, &ids, error))
        return false;
    if (ids.isEmpty())
        return true;
    const QString in = placeholders(ids.size());
    // The hourly spend follows the attempts (aggregates.h): subtracted in this transaction.
    if (!AggregateDeltas::dropSpendOf(m_db, in, ids, error))
        return false;
    if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM attempts WHERE generation_id IN (%1)").arg(in), ids, error))
        return false;
    m_counts.attempts += q.numRowsAffected();
    if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM events WHERE generation_id IN (%1)").arg(in), ids, error))
        return false;
    m_counts.events += q.numRowsAffected();
    if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM generations WHERE state <> 'running' AND id IN (%1)").arg(in), ids, error))
        return false;
    m_counts.generations += q.numRowsAffected();
    *removed = static_cast<int>(ids.size());
    return true;
}

bool Purger::stepComparisons(int *removed, QString *error)
{
    QSqlQuery q(m_db);
    QVariantList ids;
    if (!column(q, QStringLiteral("SELECT id FROM comparisons WHERE created_at_ms < ? ORDER BY created_at_ms LIMIT ?"),
                { m_generationCutoff, m_batch }, &ids, error))
        return false;
    if (ids.isEmpty())
        return true;
    if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM comparisons WHERE id IN (%1)").arg(placeholders(ids.size())), ids, error))
        return false;
    m_counts.comparisons += q.numRowsAffected();
    *removed = static_cast<int>(ids.size());
    return true;
}

// Comics kept in the store (PostgreSQL) that no generation refers to any more, and that are older than
// the cutoff: a comic made again keeps its row.
bool Purger::stepImages(int *removed, QString *error)
{
    QSqlQuery q(m_db);
    QVariantList ids;
    if (!column(q,
                QStringLiteral("SELECT sha256 FROM images WHERE created_at_ms < ? AND NOT EXISTS "
                               "(SELECT 1 FROM generations g WHERE g.image_sha256 = images.sha256) LIMIT ?"),
                { m_generationCutoff, m_batch }, &ids, error))
        return false;
    if (ids.isEmpty())
        return true;
    // Checked again in the delete: a generation written since the select keeps its comic.
    if (!StoreDatabase::run(q,
                            QStringLiteral("DELETE FROM images WHERE sha256 IN (%1) AND NOT EXISTS "
                                           "(SELECT 1 FROM generations g WHERE g.image_sha256 = images.sha256)")
                                .arg(placeholders(ids.size())),
                            ids, error))
        return false;
    m_counts.images += q.numRowsAffected();
    *removed = static_cast<int>(ids.size());
    return true;
}

// Comic files in this data folder, last made or reused before the cutoff, that no generation refers to.
// The pipeline touches a file it reuses, so a comic made again is not taken from under it.
bool Purger::stepImageFiles(int *removed, QString *error)
{
    if (m_imagesDir.isEmpty())
        return true;
    const QDateTime cutoff = QDateTime::fromMSecsSinceEpoch(m_generationCutoff);
    if (!m_imageFilesListed) {
        m_imageFilesListed = true;
        m_imageFiles = comicFilesBefore(m_imagesDir, cutoff);
    }
    QSqlQuery q(m_db);
    if (!q.prepare(QStringLiteral("SELECT 1 FROM generations WHERE image_sha256 = ? LIMIT 1"))) {
        *error = q.lastError().text();
        return false;
    }
    int taken = 0;
    while (!m_imageFiles.isEmpty() && taken < m_batch) {
        const QString path = m_imageFiles.takeLast();
        ++taken;
        q.addBindValue(comicDigestOf(path));
        if (!q.exec()) {
            *error = q.lastError().text();
            return false;
        }
        const bool referenced = q.next();
        q.finish();
        if (!referenced && QFileInfo(path).lastModified() < cutoff && QFile::remove(path))
            ++m_counts.imageFiles;
    }
    *removed = taken;
    return true;
}

// One hour of each aggregate table per step, oldest first. Not `agg_spend`: it follows the attempts
// (stepGenerations), so that spend read from it equals the rows'.
bool Purger::stepAggregates(int *removed, QString *error)
{
    QSqlQuery q(m_db);
    for (const char *table : { "agg_generations", "agg_attempts", "agg_relief" }) {
        const QString t = QLatin1StringView(table);
        if (!StoreDatabase::run(q, QStringLiteral("SELECT MIN(hour_ms) FROM %1").arg(t), {}, error))
            return false;
        const QVariant oldest = q.next() ? q.value(0) : QVariant();
        q.finish();
        if (oldest.isNull() || oldest.toLongLong() >= m_aggregateCutoff)
            continue;
        if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM %1 WHERE hour_ms = ?").arg(t), { oldest.toLongLong() }, error))
            return false;
        m_counts.aggregateRows += q.numRowsAffected();
        *removed += std::max(q.numRowsAffected(), 1);
    }
    return true;
}

bool Purger::stepAudit(int *removed, QString *error)
{
    QSqlQuery q(m_db);
    if (!StoreDatabase::run(
            q, QStringLiteral("DELETE FROM audit WHERE at_ms IN (SELECT at_ms FROM audit WHERE at_ms < ? ORDER BY at_ms LIMIT ?)"),
            { m_aggregateCutoff, m_batch }, error))
        return false;
    m_counts.auditRows += q.numRowsAffected();
    *removed = q.numRowsAffected();
    return true;
}

// SQLite stores made with incremental vacuum (every store this version creates) give freed pages back to
// the file system a few MiB per step. Older stores reuse their free pages: the file stops growing but
// does not shrink (`bullpen-cli purge --vacuum` converts one, once). PostgreSQL's autovacuum follows
// the deletes on its own.
bool Purger::stepVacuum(int *removed, QString *error)
{
    if (m_postgres)
        return true;
    QSqlQuery q(m_db);
    if (!StoreDatabase::run(q, QStringLiteral("PRAGMA auto_vacuum"), {}, error))
        return false;
    const bool incremental = q.next() && q.value(0).toInt() == 2;
    q.finish();
    if (!incremental)
        return true;
    const qint64 free = count(q, QStringLiteral("PRAGMA freelist_count"), {}, error);
    q.finish();
    if (free <= 0)
        return free == 0;
    // Through Qt each run of the pragma frees one page (SQLite frees a page per row step, and Qt steps a
    // statement without a result set once): run it again, within the step's time.
    if (!q.prepare(QStringLiteral("PRAGMA incremental_vacuum(1)"))) {
        *error = q.lastError().text();
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    qint64 freed = 0;
    while (freed < std::min<qint64>(free, kVacuumPagesPerStep) && timer.elapsed() < kStepTarget.count()) {
        if (!q.exec()) {
            *error = q.lastError().text();
            return false;
        }
        ++freed;
    }
    *removed = static_cast<int>(freed);
    return true;
}

bool Purger::countOnly(PurgeCounts *counts, QString *error)
{
    QSqlQuery q(m_db);
    PurgeCounts c;
    if (m_generationCutoff) {
        const QVariantList cut { m_generationCutoff };
        const QString old = QStringLiteral("g.created_at_ms < ? AND g.state <> 'running'");
        c.generations = count(q, QStringLiteral("SELECT COUNT(*) FROM generations g WHERE %1").arg(old), cut, error);
        c.attempts =
            count(q, QStringLiteral("SELECT COUNT(*) FROM attempts a JOIN generations g ON g.id = a.generation_id WHERE %1").arg(old), cut,
                  error);
        c.events = count(q, QStringLiteral("SELECT COUNT(*) FROM events e JOIN generations g ON g.id = e.generation_id WHERE %1").arg(old),
                         cut, error);
        c.comparisons = count(q, QStringLiteral("SELECT COUNT(*) FROM comparisons WHERE created_at_ms < ?"), cut, error);
        // Comics that only generations about to go refer to.
        const QString kept =
            QStringLiteral("SELECT 1 FROM generations g WHERE g.image_sha256 = %1 AND (g.created_at_ms >= ? OR g.state = 'running')");
        c.images = count(q,
                         QStringLiteral("SELECT COUNT(*) FROM images WHERE created_at_ms < ? AND NOT EXISTS (%1)")
                             .arg(kept.arg(QStringLiteral("images.sha256"))),
                         { m_generationCutoff, m_generationCutoff }, error);
        if (!m_imagesDir.isEmpty()) {
            const QDateTime cutoff = QDateTime::fromMSecsSinceEpoch(m_generationCutoff);
            if (!q.prepare(kept.arg(QStringLiteral("?")))) {
                *error = q.lastError().text();
                return false;
            }
            for (const QString &path : comicFilesBefore(m_imagesDir, cutoff)) {
                q.addBindValue(comicDigestOf(path));
                q.addBindValue(m_generationCutoff);
                if (!q.exec()) {
                    *error = q.lastError().text();
                    return false;
                }
                if (!q.next())
                    ++c.imageFiles;
                q.finish();
            }
        }
    }
    if (m_aggregateCutoff) {
        for (const char *table : { "agg_generations", "agg_attempts", "agg_relief" })
            c.aggregateRows += count(q, QStringLiteral("SELECT COUNT(*) FROM %1 WHERE hour_ms < ?").arg(QLatin1StringView(table)),
                                     { m_aggregateCutoff }, error);
        c.auditRows = count(q, QStringLiteral("SELECT COUNT(*) FROM audit WHERE at_ms < ?"), { m_aggregateCutoff }, error);
    }
    if (!error->isEmpty())
        return false;
    *counts = c;
    return true;
}

} // namespace bullpen
