// SPDX-License-Identifier: MIT
#include "ops/storepurge.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QTimeZone>

#include <cmath>

namespace bullpen::ops {

namespace {

// Removes what the retention no longer keeps, step by step, pausing between steps.
StorePurge::Code purgeSteps(Purger &purger, QString *error)
{
    for (;;) {
        switch (purger.step(error)) {
        case Purger::Step::More:
            QThread::msleep(static_cast<unsigned long>(purger.pause().count()));
            break;
        case Purger::Step::Done:
            return StorePurge::Code::Done;
        case Purger::Step::Busy:
            return StorePurge::Code::Busy;
        case Purger::Step::Failed:
            return StorePurge::Code::Failed;
        }
    }
}

// --vacuum: SQLite VACUUM (to incremental vacuum) and a checkpoint, or PostgreSQL VACUUM ANALYZE.
bool vacuumStore(QSqlDatabase &db, bool postgres, QString *error)
{
    QSqlQuery q(db);
    const QStringList statements = postgres ? QStringList { QStringLiteral("VACUUM ANALYZE") }
                                            : QStringList { QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL"), QStringLiteral("VACUUM"),
                                                            QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)") };
    for (const QString &sql : statements) {
        if (!q.exec(sql)) {
            *error = q.lastError().text();
            return false;
        }
        while (q.next()) { }
    }
    return true;
}

// What purge prints: the store, the cut-offs, what was (or would be) removed, and how long it took.
QJsonObject purgeReport(const StoreLocation &location, bool dryRun, const RetentionPolicy &policy, const Purger &purger,
                        const PurgeCounts &counts, qint64 elapsedMs)
{
    const auto cutoff = [](qint64 ms) {
        return ms ? QJsonValue(QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODate)) : QJsonValue();
    };
    return QJsonObject { { QStringLiteral("store"), location.display() },
                         { QStringLiteral("dry_run"), dryRun },
                         { QStringLiteral("retention"), formatRetention(policy.generations) },
                         { QStringLiteral("aggregate_retention"), formatRetention(policy.aggregates) },
                         { QStringLiteral("generations_before"), cutoff(purger.generationCutoffMs()) },
                         { QStringLiteral("aggregates_before"), cutoff(purger.aggregateCutoffMs()) },
                         { dryRun ? QStringLiteral("would_remove") : QStringLiteral("removed"),
                           QJsonObject { { QStringLiteral("generations"), counts.generations },
                                         { QStringLiteral("attempts"), counts.attempts },
                                         { QStringLiteral("events"), counts.events },
                                         { QStringLiteral("comparisons"), counts.comparisons },
                                         { QStringLiteral("images"), counts.images },
                                         { QStringLiteral("image_files"), counts.imageFiles },
                                         { QStringLiteral("aggregate_rows"), counts.aggregateRows },
                                         { QStringLiteral("audit_rows"), counts.auditRows } } },
                         { QStringLiteral("steps"), purger.steps() },
                         { QStringLiteral("longest_step_ms"), std::round(purger.longestStepMs() * 100) / 100 },
                         { QStringLiteral("seconds"), std::round(double(elapsedMs) / 10) / 100 } };
}

} // namespace

std::optional<RetentionPolicy> StorePurge::policy(RetentionPolicy configured, const std::optional<QString> &olderThan,
                                                  const std::optional<QString> &aggregatesOlderThan, QString *why)
{
    RetentionPolicy policy = configured;
    for (const auto &[flag, given, into] : { std::tuple { "older-than", &olderThan, &policy.generations },
                                             std::tuple { "aggregates-older-than", &aggregatesOlderThan, &policy.aggregates } }) {
        if (!*given)
            continue;
        QString refused;
        bool off = false;
        *into = parseRetention(**given, &off, &refused);
        if (!*into && !off) {
            *why = QStringLiteral("--%1: %2").arg(QLatin1StringView(flag), refused);
            return std::nullopt;
        }
    }
    // The dashboards read whole hours from the aggregates: never drop them before the rows they count.
    if (policy.aggregates && policy.generations && *policy.aggregates < *policy.generations)
        policy.aggregates = policy.generations;
    if (policy.aggregates && !policy.generations)
        policy.aggregates.reset();
    if (policy.isOff()) {
        *why = QStringLiteral("retention is off%1, nothing to remove; give --older-than PERIOD")
                   .arg(olderThan ? QString() : QStringLiteral(" (BULLPEN_RETENTION=off)"));
        return std::nullopt;
    }
    return policy;
}

StorePurge::Outcome StorePurge::run(const StoreLocation &location, const Request &request)
{
    const auto fileBytes = [&] {
        qint64 n = 0;
        for (const char *suffix : { "", "-wal" })
            n += QFileInfo(location.sqlitePath() + QLatin1StringView(suffix)).size();
        return n;
    };
    const qint64 bytesBefore = location.isPostgres() ? -1 : fileBytes();
    const QString name = QStringLiteral("bullpen-purge");
    Outcome outcome;
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, &outcome.error);
        if (!outcome.error.isEmpty()) {
            outcome.code = Code::NoStore;
            return outcome;
        }
        Purger purger(db, request.policy, request.nowMs, request.imagesDir);
        QElapsedTimer timer;
        timer.start();
        PurgeCounts counts;
        if (request.dryRun) {
            if (!purger.countOnly(&counts, &outcome.error))
                outcome.code = Code::Failed;
        } else {
            outcome.code = purgeSteps(purger, &outcome.error);
            counts = purger.counts();
            if (outcome.code == Code::Done && request.vacuum && !vacuumStore(db, location.isPostgres(), &outcome.error))
                outcome.code = Code::Failed;
        }
        outcome.report = purgeReport(location, request.dryRun, request.policy, purger, counts, timer.elapsed());
    }
    StoreLocation::disconnect(name);
    if (bytesBefore >= 0) {
        outcome.report.insert(QStringLiteral("file_bytes_before"), bytesBefore);
        outcome.report.insert(QStringLiteral("file_bytes_after"), fileBytes());
    }
    return outcome;
}

} // namespace bullpen::ops
