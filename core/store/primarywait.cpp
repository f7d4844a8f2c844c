// SPDX-License-Identifier: MIT
#include "primarywait.h"

#include <QHash>
#include <QSqlError>
#include <QSqlRecord>
#include <QVariant>

#include <vector>

namespace bullpen {

void PrimaryWait::take(const QString &attemptStage, const QString &role, qint64 atMs, const QString &attemptProvider, double durationMs,
                       const QString &stage, qint64 fallbackAtMs)
{
    if (attemptStage != stage || role != u"primary" || atMs > fallbackAtMs)
        return;
    ms += durationMs;
    if (provider.isEmpty() || attemptProvider < provider)
        provider = attemptProvider;
}

QString PrimaryWaits::attemptsOfSql()
{
    // By the generation alone (the primary key's first column), filtered in take(): a condition on role
    // and stage could lead a planner onto an index led by them and walk every primary attempt before it.
    return QStringLiteral("SELECT stage, role, at_ms, provider, duration_ms FROM attempts WHERE generation_id = ?");
}

std::optional<PrimaryWait> PrimaryWaits::of(QSqlQuery &attemptsOf, const QString &generationId, const QString &stage, qint64 fallbackAtMs,
                                            QString *error)
{
    attemptsOf.addBindValue(generationId);
    if (!attemptsOf.exec()) {
        *error = attemptsOf.lastError().text();
        return std::nullopt;
    }
    PrimaryWait wait;
    while (attemptsOf.next())
        wait.take(attemptsOf.value(0).toString(), attemptsOf.value(1).toString(), attemptsOf.value(2).toLongLong(),
                  attemptsOf.value(3).toString(), attemptsOf.value(4).toDouble(), stage, fallbackAtMs);
    attemptsOf.finish();
    return wait;
}

bool PrimaryWaits::forEachFallback(QSqlDatabase &db, bool usersOnly, const std::function<void(const FallbackAttemptWait &)> &visit,
                                   QString *error)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Users' rows only where asked; schema 8's upgrade rebuilds before `synthetic` (schema 11) exists.
    const bool hasSynthetic = db.record(QStringLiteral("attempts")).contains(QStringLiteral("synthetic"));
    const QString users = usersOnly && hasSynthetic ? QStringLiteral(" AND synthetic = 0") : QString();
    const auto read = [&](const char *role) {
        if (q.exec(QStringLiteral("SELECT generation_id, attempt_id, stage, at_ms, provider, duration_ms FROM attempts WHERE role = '%1'%2")
                       .arg(QLatin1StringView(role), users)))
            return true;
        *error = q.lastError().text();
        return false;
    };
    std::vector<FallbackAttemptWait> waits;
    QHash<QString, std::vector<std::size_t>> fallbacksOf; // generation + stage → its fallback attempts
    if (!read("fallback"))
        return false;
    while (q.next()) {
        FallbackAttemptWait w;
        w.generationId = q.value(0).toString();
        w.attemptId = q.value(1).toLongLong();
        w.stage = q.value(2).toString();
        w.atMs = q.value(3).toLongLong();
        w.provider = q.value(4).toString();
        w.ms = q.value(5).toDouble();
        fallbacksOf[w.generationId + QLatin1Char('\n') + w.stage].push_back(waits.size());
        waits.push_back(std::move(w));
    }
    if (!waits.empty()) {
        if (!read("primary"))
            return false;
        const QString primary = QStringLiteral("primary");
        while (q.next()) {
            const QString stage = q.value(2).toString();
            const auto it = fallbacksOf.constFind(q.value(0).toString() + QLatin1Char('\n') + stage);
            if (it == fallbacksOf.constEnd())
                continue;
            for (std::size_t i : *it)
                waits[i].wait.take(stage, primary, q.value(3).toLongLong(), q.value(4).toString(), q.value(5).toDouble(), waits[i].stage,
                                   waits[i].atMs);
        }
    }
    q.finish();
    for (const FallbackAttemptWait &w : waits)
        visit(w);
    return true;
}

bool PrimaryWaits::fill(QSqlDatabase &db, QString *error)
{
    // Read whole first: on PostgreSQL a second statement on the connection ends a result still being read.
    std::vector<FallbackAttemptWait> known;
    if (!forEachFallback(
            db, false,
            [&](const FallbackAttemptWait &w) {
                if (w.wait.known())
                    known.push_back(w);
            },
            error))
        return false;
    QSqlQuery u(db);
    if (!u.prepare(
            QStringLiteral("UPDATE attempts SET primary_wait_ms = ?, primary_provider = ? WHERE generation_id = ? AND attempt_id = ?"))) {
        *error = u.lastError().text();
        return false;
    }
    for (const FallbackAttemptWait &w : known) {
        u.addBindValue(w.wait.ms);
        u.addBindValue(w.wait.provider);
        u.addBindValue(w.generationId);
        u.addBindValue(w.attemptId);
        if (!u.exec()) {
            *error = u.lastError().text();
            return false;
        }
    }
    return true;
}

} // namespace bullpen
