// SPDX-License-Identifier: MIT
#include "aggregates.h"

#include "history/durationhistogram.h"
#include "primarywait.h"
#include "storedatabase.h"

#include <QSqlError>
#include <QSqlRecord>
#include <QVariant>

#include <set>

namespace bullpen {

namespace {

// A dimension is never NULL in the aggregates ('' for none): Qt binds a null QString as NULL.
QVariant dimension(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

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
    m_fallbackWaits.clear();
    m_spend.clear();
}

bool AggregateDeltas::prepare(QSqlDatabase &db, QString *error)
{
    if (m_finishedRow && m_connection == db.connectionName())
        return true;
    m_connection = db.connectionName();
    m_upsertSpend.reset(); // prepared by applySpend: `agg_spend` is schema 17's, and schema 8's upgrade applies too
    auto make = [&](std::optional<QSqlQuery> &q, const char *sql) {
        q.emplace(db);
        if (!q->prepare(QString::fromLatin1(sql))) {
            *error = q->lastError().text();
            return false;
        }
        return true;
    };
    const bool ok =
        make(m_finishedRow,
             "SELECT created_at_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, fallback_applied "
             "FROM generations WHERE id = ? AND state <> 'running' AND synthetic = 0")
        && make(m_upsertGeneration,
                "INSERT INTO agg_generations (hour_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, "
                "fallback_applied, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hour_ms, state, public_code, kind, stage, "
                "primary_provider, final_provider, instance, fallback_applied) DO UPDATE SET n = agg_generations.n + excluded.n")
        && make(m_upsertAttempt,
                "INSERT INTO agg_attempts (provider, role, stage, hour_ms, instance, success, bin, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (provider, role, stage, hour_ms, instance, success, bin) DO UPDATE SET n = agg_attempts.n + excluded.n")
        && make(m_upsertFallbackWait,
                "INSERT INTO agg_relief (stage, hour_ms, primary_provider, fallback_provider, bin, n) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (stage, hour_ms, primary_provider, fallback_provider, bin) DO UPDATE SET n = agg_relief.n + excluded.n");
    if (!ok)
        m_finishedRow.reset();
    return ok;
}

void AggregateDeltas::addAttempt(qint64 atMs, const QString &provider, const QString &role, const QString &stage, const QString &instance,
                                 bool success, double durationMs)
{
    ++m_attempts[{ provider, role, stage, hourOf(atMs), instance, success ? 1 : 0, DurationHistogram::binOf(durationMs) }];
}

void AggregateDeltas::addSpend(qint64 atMs, const QString &provider, const QString &stage, const QString &role, const QString &currency,
                               std::optional<double> cost)
{
    SpendSum &sum = m_spend[{ hourOf(atMs), provider, stage, role, cost ? currency : QString() }];
    sum.cost += cost.value_or(0);
    ++sum.attempts;
    sum.unknown += cost ? 0 : 1;
}

void AggregateDeltas::addFallbackWait(const QString &stage, qint64 atMs, const QString &primaryProvider, const QString &fallbackProvider,
                                      double waitMs)
{
    ++m_fallbackWaits[{ stage, hourOf(atMs), primaryProvider, fallbackProvider, DurationHistogram::binOf(waitMs) }];
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
        ++m_generations[{ hourOf(q.value(0).toLongLong()), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                          q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString(), q.value(8).toInt() }];
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
    const auto upsert = [&](QSqlQuery &q, const QVariantList &values) {
        for (const QVariant &v : values)
            q.addBindValue(v);
        return run(q, error);
    };
    for (const auto &[k, n] : m_generations) {
        const auto &[hour, state, code, kind, stage, primary, final, instance, fallbackApplied] = k;
        if (!upsert(*m_upsertGeneration,
                    { hour, dimension(state), dimension(code), dimension(kind), dimension(stage), dimension(primary), dimension(final),
                      dimension(instance), fallbackApplied, n }))
            return false;
    }
    for (const auto &[k, n] : m_attempts) {
        const auto &[provider, role, stage, hour, instance, success, bin] = k;
        if (!upsert(*m_upsertAttempt,
                    { dimension(provider), dimension(role), dimension(stage), hour, dimension(instance), success, bin, n }))
            return false;
    }
    for (const auto &[k, n] : m_fallbackWaits) {
        const auto &[stage, hour, primary, fallback, bin] = k;
        if (!upsert(*m_upsertFallbackWait, { dimension(stage), hour, dimension(primary), dimension(fallback), bin, n }))
            return false;
    }
    if (!applySpend(db, error))
        return false;
    clear();
    return true;
}

bool AggregateDeltas::applySpend(QSqlDatabase &db, QString *error)
{
    if (m_spend.empty())
        return true;
    if (!m_upsertSpend) {
        m_upsertSpend.emplace(db);
        if (!m_upsertSpend->prepare(QStringLiteral(
                "INSERT INTO agg_spend (hour_ms, provider, stage, role, currency, cost, attempts, unknown_cost) VALUES (?, ?, ?, ?, ?, ?, "
                "?, ?) "
                "ON CONFLICT (hour_ms, provider, stage, role, currency) DO UPDATE SET cost = agg_spend.cost + excluded.cost, "
                "attempts = agg_spend.attempts + excluded.attempts, unknown_cost = agg_spend.unknown_cost + excluded.unknown_cost"))) {
            *error = m_upsertSpend->lastError().text();
            m_upsertSpend.reset();
            return false;
        }
    }
    QSqlQuery &q = *m_upsertSpend;
    for (const auto &[k, sum] : m_spend) {
        const auto &[hour, provider, stage, role, currency] = k;
        for (const QVariant &v : QVariantList { hour, dimension(provider), dimension(stage), dimension(role), dimension(currency), sum.cost,
                                                sum.attempts, sum.unknown })
            q.addBindValue(v);
        if (!run(q, error))
            return false;
    }
    m_spend.clear();
    return true;
}

bool AggregateDeltas::dropSpendOf(QSqlDatabase &db, const QString &placeholders, const QVariantList &generationIds, QString *error)
{
    QSqlQuery q(db);
    if (!StoreDatabase::run(
            q,
            QStringLiteral("SELECT at_ms - at_ms % 3600000, provider, stage, role, COALESCE(currency, ''), SUM(cost), COUNT(*), "
                           "SUM(CASE WHEN cost IS NULL THEN 1 ELSE 0 END) FROM attempts WHERE generation_id IN (%1) AND "
                           "synthetic = 0 GROUP BY 1, 2, 3, 4, 5")
                .arg(placeholders),
            generationIds, error))
        return false;
    AggregateDeltas d;
    std::set<qint64> hours;
    while (q.next()) {
        const qint64 hour = q.value(0).toLongLong();
        hours.insert(hour);
        d.m_spend[{ hour, q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString() }] =
            SpendSum { -q.value(5).toDouble(), -q.value(6).toLongLong(), -q.value(7).toLongLong() };
    }
    q.finish();
    if (!d.applySpend(db, error))
        return false;
    for (qint64 hour : hours) {
        if (!StoreDatabase::run(q, QStringLiteral("DELETE FROM agg_spend WHERE hour_ms = ? AND attempts <= 0"), { hour }, error))
            return false;
    }
    return true;
}

bool AggregateDeltas::rebuildSpend(QSqlDatabase &db, QString *error)
{
    QSqlQuery q(db);
    for (const char *sql : { "DELETE FROM agg_spend",
                             "INSERT INTO agg_spend (hour_ms, provider, stage, role, currency, cost, attempts, unknown_cost) "
                             "SELECT at_ms - at_ms % 3600000, provider, stage, role, COALESCE(currency, ''), COALESCE(SUM(cost), 0), "
                             "COUNT(*), SUM(CASE WHEN cost IS NULL THEN 1 ELSE 0 END) FROM attempts WHERE synthetic = 0 "
                             "GROUP BY 1, 2, 3, 4, 5" }) {
        if (!q.exec(QString::fromLatin1(sql))) {
            *error = q.lastError().text();
            return false;
        }
    }
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
    // Users' rows only; probes (schema 11) are not in the aggregates. Schema 8's upgrade rebuilds too, before the column exists.
    const bool probes = db.record(QStringLiteral("attempts")).contains(QStringLiteral("synthetic"));
    const QString users = probes ? QStringLiteral(" AND synthetic = 0") : QString();
    // Generations: grouped by the database (an hour is integer arithmetic in both dialects).
    if (!exec(QStringLiteral("SELECT created_at_ms - created_at_ms % 3600000, state, COALESCE(public_code, ''), COALESCE(kind, ''), "
                             "COALESCE(stage, ''), COALESCE(primary_provider, ''), COALESCE(final_provider, ''), COALESCE(instance, ''), "
                             "fallback_applied, COUNT(*) FROM generations WHERE state <> 'running'%1 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9")
                  .arg(users)))
        return false;
    while (q.next()) {
        d.m_generations[{ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                          q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString(),
                          q.value(8).toInt() }] += q.value(9).toLongLong();
    }
    // Attempts: binned here (no portable logarithm in SQL).
    if (!exec(
            QStringLiteral("SELECT at_ms, provider, role, stage, COALESCE(instance, ''), success, duration_ms FROM attempts WHERE 1 = 1%1")
                .arg(users)))
        return false;
    while (q.next())
        d.addAttempt(q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString(),
                     q.value(5).toInt() != 0, q.value(6).toDouble());
    // Stages handed to the fallback: each fallback attempt with the primary attempts of its stage before it.
    q.finish();
    if (!PrimaryWaits::forEachFallback(
            db, true,
            [&d](const FallbackAttemptWait &w) {
                if (w.wait.known()) // a skipped primary added no wait
                    d.addFallbackWait(w.stage, w.atMs, w.wait.provider, w.provider, w.wait.ms + w.ms);
            },
            error))
        return false;
    // Spend (schema 17) is grouped by the database; schema 8's upgrade rebuilds before the table exists.
    if (db.tables().contains(QStringLiteral("agg_spend")) && !rebuildSpend(db, error))
        return false;
    return d.apply(db, error);
}

} // namespace bullpen
