// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <map>
#include <optional>
#include <tuple>

namespace bullpen {

// The store's hourly aggregates (schema 8; docs/store.md, "Hourly aggregates"): finished generations
// counted by hour and state, code, kind, stage, providers, instance and fallback; attempt durations by
// hour, provider, role, stage, instance and outcome in DurationHistogram's log-spaced bins; the waits of
// stages handed to the fallback (primary time + fallback time) likewise. They are changed in the same transaction as the
// rows they count, so they are never behind.
//
// A writer collects a transaction's changes here and applies them once before it commits, in key
// order: engines that write the same hours at once then take the rows' locks in one order and never
// deadlock (PostgreSQL), and a batch of 512 records costs one upsert per distinct key.
//
// Spend (schema 17, `agg_spend`): users' attempts' cost by hour, provider, stage, role and currency ('' for
// an unknown cost), with the attempts counted and those of unknown cost counted apart (never priced at
// 0). Unlike the other aggregates it follows the attempt rows exactly: a purge of attempts subtracts them
// (dropSpendOf) and the aggregates' own retention leaves it alone, so that the Spend panel reads whole
// hours here and gets the answer the rows give.
class AggregateDeltas final
{
public:
    static constexpr qint64 kHourMs = 3'600'000;
    static qint64 hourOf(qint64 ms) { return ms - (((ms % kHourMs) + kHourMs) % kHourMs); }

    void addAttempt(qint64 atMs, const QString &provider, const QString &role, const QString &stage, const QString &instance, bool success,
                    double durationMs);
    // A fallback attempt just written whose primary was tried (primarywait.h): its stage's wait, primary time + fallback time.
    void addFallbackWait(const QString &stage, qint64 atMs, const QString &primaryProvider, const QString &fallbackProvider, double waitMs);
    // A generation that just got its final state: its row is read on `db` (the same transaction).
    bool addFinished(QSqlDatabase &db, const QString &generationId, QString *error);

    // A user's attempt just written (not a probe's or a replay's): its cost, or nullopt when unknown.
    void addSpend(qint64 atMs, const QString &provider, const QString &stage, const QString &role, const QString &currency,
                  std::optional<double> cost);
    // Subtracts the spend of the attempts of these generations, before the caller deletes them in the same
    // transaction (retention, `bullpen-cli purge`). An hour whose count reaches 0 loses its row.
    static bool dropSpendOf(QSqlDatabase &db, const QString &placeholders, const QVariantList &generationIds, QString *error);
    // Recomputes `agg_spend` from the rows (the migration to schema 17; part of rebuild()).
    static bool rebuildSpend(QSqlDatabase &db, QString *error);

    bool isEmpty() const { return m_generations.empty() && m_attempts.empty() && m_fallbackWaits.empty() && m_spend.empty(); }
    void clear();
    // Upserts every change on `db`, in key order, and clears. Call inside the rows' transaction.
    bool apply(QSqlDatabase &db, QString *error);

    // Recomputes every aggregate from the rows, in the caller's transaction (the migration to schema 8;
    // a history written by HistoryFiller).
    static bool rebuild(QSqlDatabase &db, QString *error);

private:
    using GenerationKey = std::tuple<qint64, QString, QString, QString, QString, QString, QString, QString, int>;
    using AttemptKey = std::tuple<QString, QString, QString, qint64, QString, int, int>;
    using FallbackWaitKey = std::tuple<QString, qint64, QString, QString, int>;
    std::map<GenerationKey, qint64> m_generations;
    std::map<AttemptKey, qint64> m_attempts;
    std::map<FallbackWaitKey, qint64> m_fallbackWaits;
    using SpendKey = std::tuple<qint64, QString, QString, QString, QString>; // hour, provider, stage, role, currency
    struct SpendSum
    {
        double cost = 0;
        qint64 attempts = 0;
        qint64 unknown = 0;
    };
    std::map<SpendKey, SpendSum> m_spend;
    // Prepared on first use, on the connection of that use (a writer keeps one AggregateDeltas per
    // connection).
    QString m_connection;
    std::optional<QSqlQuery> m_finishedRow, m_upsertGeneration, m_upsertAttempt, m_upsertFallbackWait, m_upsertSpend;
    bool prepare(QSqlDatabase &db, QString *error);
    bool applySpend(QSqlDatabase &db, QString *error);
};

} // namespace bullpen
