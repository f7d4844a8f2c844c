// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

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
class AggregateDeltas final
{
public:
    static constexpr qint64 kHourMs = 3'600'000;
    static qint64 hourOf(qint64 ms) { return ms - (((ms % kHourMs) + kHourMs) % kHourMs); }

    void addAttempt(qint64 atMs, const QString &provider, const QString &role, const QString &stage, const QString &instance, bool success,
                    double durationMs);
    // A fallback attempt just written: its stage's primary attempts are read on `db` (the same transaction).
    bool addFallbackWait(QSqlDatabase &db, const QString &generationId, const QString &stage, const QString &fallbackProvider, qint64 atMs,
                         double fallbackMs, QString *error);
    // A generation that just got its final state: its row is read on `db` (the same transaction).
    bool addFinished(QSqlDatabase &db, const QString &generationId, QString *error);

    bool isEmpty() const { return m_generations.empty() && m_attempts.empty() && m_fallbackWaits.empty(); }
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
    // Prepared on first use, on the connection of that use (a writer keeps one AggregateDeltas per
    // connection).
    QString m_connection;
    std::optional<QSqlQuery> m_finishedRow, m_primaryOf, m_upsertGeneration, m_upsertAttempt, m_upsertFallbackWait;
    bool prepare(QSqlDatabase &db, QString *error);
};

} // namespace bullpen
