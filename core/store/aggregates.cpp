// SPDX-License-Identifier: MIT
#include "aggregates.h"

#include "analytics/durationhistogram.h"

#include <QSqlError>
#include <QVariant>

namespace bullpen {

namespace {

// A dimension is never NULL in the aggregates ('' for none): Qt binds a null QString as NULL.
QVariant dimension(const QString &s) { return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s); }

bool run(QSqlQuery &q, QString *error)
{
    if (q.exec())
        return true;
    *error = q.lastError().text();
    return false;
}

} // namespace

void AggregateDeltas::clear()
{
    m_generations.clear();
    m_attempts.clear();
    m_relief.clear();
}

bool AggregateDeltas::prepare(QSqlDatabase &db, QString *error)
{
    if (m_finishedRow && m_connection == db.connectionName())
        return true;
    m_connection = db.connectionName();
    auto make = [&](std::optional<QSqlQuery> &q, const char *sql) {
        q.emplace(db);
        if (!q->prepare(QString::fromLatin1(sql))) {
            *error = q->lastError().text();
            return false;
        }
        return true;
    };
    const bool ok = make(m_finishedRow,
                         "SELECT created_at_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, fallback_applied "
                         "FROM generations WHERE id = ? AND state <> 'running'")
                    && make(m_primaryOf,
                            "SELECT COALESCE(SUM(duration_ms), 0), MIN(provider) FROM attempts WHERE generation_id = ? AND stage = ? AND "
                            "role = 'primary' AND at_ms <= ?")
                    && make(m_upsertGeneration,
                            "INSERT INTO agg_generations (hour_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, "
                            "fallback_applied, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hour_ms, state, public_code, kind, stage, "
                            "primary_provider, final_provider, instance, fallback_applied) DO UPDATE SET n = agg_generations.n + excluded.n")
                    && make(m_upsertAttempt,
                            "INSERT INTO agg_attempts (provider, role, stage, hour_ms, instance, success, bin, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                            "ON CONFLICT (provider, role, stage, hour_ms, instance, success, bin) DO UPDATE SET n = agg_attempts.n + excluded.n")
                    && make(m_upsertRelief,
                            "INSERT INTO agg_relief (stage, hour_ms, primary_provider, fallback_provider, bin, n) VALUES (?, ?, ?, ?, ?, ?) "
                            "ON CONFLICT (stage, hour_ms, primary_provider, fallback_provider, bin) DO UPDATE SET n = agg_relief.n + excluded.n");
    if (!ok)
        m_finishedRow.reset();
    return ok;
}

void AggregateDeltas::addAttempt(qint64 atMs, const QString &provider, const QString &role, const QString &stage, const QString &instance,
                                 bool success, double durationMs)
{
    ++m_attempts[{provider, role, stage, hourOf(atMs), instance, success ? 1 : 0, DurationHistogram::binOf(durationMs)}];
}

bool AggregateDeltas::addRelief(QSqlDatabase &db, const QString &generationId, const QString &stage, const QString &fallbackProvider,
                                qint64 atMs, double fallbackMs, QString *error)
{
    if (!prepare(db, error))
        return false;
    QSqlQuery &q = *m_primaryOf;
    q.addBindValue(generationId);
    q.addBindValue(stage);
    q.addBindValue(atMs);
    if (!run(q, error))
        return false;
    double primaryMs = 0;
    QString primary;
    if (q.next()) {
        primaryMs = q.value(0).toDouble();
        primary = q.value(1).toString();
    }
    q.finish();
    ++m_relief[{stage, hourOf(atMs), primary, fallbackProvider, DurationHistogram::binOf(primaryMs + fallbackMs)}];
    return true;
}

bool AggregateDeltas::addFinished(QSqlDatabase &db, const QString &generationId, QString *error)
{
    if (!prepare(db, error))
        return false;
    QSqlQuery &q = *m_finishedRow;
    q.addBindValue(generationId);
    if (!run(q, error))
        return false;
    if (q.next()) {
        ++m_generations[{hourOf(q.value(0).toLongLong()), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                         q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString(), q.value(8).toInt()}];
    }
    q.finish();
    return true;
}

bool AggregateDeltas::apply(QSqlDatabase &db, QString *error)
{
    if (isEmpty())
        return true;
    if (!prepare(db, error))
        return false;
    for (const auto &[k, n] : m_generations) {
        QSqlQuery &q = *m_upsertGeneration;
        q.addBindValue(std::get<0>(k));
        q.addBindValue(dimension(std::get<1>(k)));
        q.addBindValue(dimension(std::get<2>(k)));
        q.addBindValue(dimension(std::get<3>(k)));
        q.addBindValue(dimension(std::get<4>(k)));
        q.addBindValue(dimension(std::get<5>(k)));
        q.addBindValue(dimension(std::get<6>(k)));
        q.addBindValue(dimension(std::get<7>(k)));
        q.addBindValue(std::get<8>(k));
        q.addBindValue(n);
        if (!run(q, error))
            return false;
    }
    for (const auto &[k, n] : m_attempts) {
        QSqlQuery &q = *m_upsertAttempt;
        q.addBindValue(dimension(std::get<0>(k)));
        q.addBindValue(dimension(std::get<1>(k)));
        q.addBindValue(dimension(std::get<2>(k)));
        q.addBindValue(std::get<3>(k));
        q.addBindValue(dimension(std::get<4>(k)));
        q.addBindValue(std::get<5>(k));
        q.addBindValue(std::get<6>(k));
        q.addBindValue(n);
        if (!run(q, error))
            return false;
    }
    for (const auto &[k, n] : m_relief) {
        QSqlQuery &q = *m_upsertRelief;
        q.addBindValue(dimension(std::get<0>(k)));
        q.addBindValue(std::get<1>(k));
        q.addBindValue(dimension(std::get<2>(k)));
        q.addBindValue(dimension(std::get<3>(k)));
        q.addBindValue(std::get<4>(k));
        q.addBindValue(n);
        if (!run(q, error))
            return false;
    }
    clear();
    return true;
}

bool AggregateDeltas::rebuild(QSqlDatabase &db, QString *error)
{
    QSqlQuery q(db);
    auto exec = [&](const QString &sql) {
        if (q.exec(sql))
            return true;
        *error = q.lastError().text();
        return false;
    };
    if (!exec(QStringLiteral("DELETE FROM agg_generations")) || !exec(QStringLiteral("DELETE FROM agg_attempts"))
        || !exec(QStringLiteral("DELETE FROM agg_relief")))
        return false;
    AggregateDeltas d;
    q.setForwardOnly(true);
    // Generations: grouped by the database (an hour is integer arithmetic in both dialects).
    if (!exec(QStringLiteral("SELECT created_at_ms - created_at_ms % 3600000, state, COALESCE(public_code, ''), COALESCE(kind, ''), "
                             "COALESCE(stage, ''), COALESCE(primary_provider, ''), COALESCE(final_provider, ''), COALESCE(instance, ''), "
                             "fallback_applied, COUNT(*) FROM generations WHERE state <> 'running' GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9")))
        return false;
    while (q.next()) {
        d.m_generations[{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString(),
                         q.value(5).toString(), q.value(6).toString(), q.value(7).toString(), q.value(8).toInt()}] += q.value(9).toLongLong();
    }
    // Attempts: binned here (no portable logarithm in SQL).
    if (!exec(QStringLiteral("SELECT at_ms, provider, role, stage, COALESCE(instance, ''), success, duration_ms FROM attempts")))
        return false;
    while (q.next())
        d.addAttempt(q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString(),
                     q.value(5).toInt() != 0, q.value(6).toDouble());
    // Relieved stages: each relief attempt with the primary attempts of its stage before it.
    if (!exec(QStringLiteral("SELECT f.at_ms, f.stage, f.provider, f.duration_ms, "
                             "(SELECT COALESCE(SUM(p.duration_ms), 0) FROM attempts p WHERE p.generation_id = f.generation_id AND "
                             "p.stage = f.stage AND p.role = 'primary' AND p.at_ms <= f.at_ms), "
                             "(SELECT MIN(p.provider) FROM attempts p WHERE p.generation_id = f.generation_id AND p.stage = f.stage AND "
                             "p.role = 'primary' AND p.at_ms <= f.at_ms) "
                             "FROM attempts f WHERE f.role = 'fallback'")))
        return false;
    while (q.next()) {
        ++d.m_relief[{q.value(1).toString(), hourOf(q.value(0).toLongLong()), q.value(5).toString(), q.value(2).toString(),
                      DurationHistogram::binOf(q.value(4).toDouble() + q.value(3).toDouble())}];
    }
    q.finish();
    return d.apply(db, error);
}

} // namespace bullpen
