// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <functional>
#include <optional>

namespace bullpen {

// What a stage handed to its fallback had already waited for (docs/store.md, "Fallback waits"): the
// durations of that stage's primary attempts of the same generation that ended no later than the
// fallback attempt, summed, and the primary provider (the least by id, should rounds have gone to
// several). None when no primary attempt came before: the primary was skipped (docs/contract.md §13)
// and the fallback added no wait.
//
// Schema 19 keeps it on each fallback attempt's row (`primary_wait_ms`, `primary_provider`), written by
// the writer with the row, so that a range of fallback waits is one scan of one index; the aggregates
// (agg_relief) count the same figure.
struct PrimaryWait
{
    double ms = 0;
    QString provider;

    // One attempt of the generation: counted when it is a primary attempt of `stage` that ended by `fallbackAtMs`.
    void take(const QString &attemptStage, const QString &role, qint64 atMs, const QString &attemptProvider, double durationMs,
              const QString &stage, qint64 fallbackAtMs);
    bool known() const { return !provider.isEmpty(); }
};

// A fallback attempt with its primary wait, as the rows give them.
struct FallbackAttemptWait
{
    QString generationId;
    qint64 attemptId = 0;
    QString stage;
    qint64 atMs = 0;
    QString provider; // the fallback's
    double ms = 0; // the fallback attempt's own duration
    PrimaryWait wait;
};

class PrimaryWaits final
{
public:
    // The query the writer prepares once per connection: every attempt of one generation, bound by its id.
    static QString attemptsOfSql();
    // The primary wait before a fallback attempt of `stage` that ended at `fallbackAtMs`, from `attemptsOf`
    // (prepared with attemptsOfSql(), run here on the caller's transaction). Nullopt on an error, in *error.
    static std::optional<PrimaryWait> of(QSqlQuery &attemptsOf, const QString &generationId, const QString &stage, qint64 fallbackAtMs,
                                         QString *error);
    // Every fallback attempt whose row matches `usersOnly` (synthetic = 0 when true), with its primary wait
    // found by two scans of the attempts joined here by generation and stage: a correlated subquery per
    // fallback attempt walked an index of every primary attempt on SQLite. Works at any schema from 8 on.
    static bool forEachFallback(QSqlDatabase &db, bool usersOnly, const std::function<void(const FallbackAttemptWait &)> &visit,
                                QString *error);
    // Schema 19's upgrade (and HistoryFiller's rows): writes every fallback attempt's primary wait on its row.
    static bool fill(QSqlDatabase &db, QString *error);
};

} // namespace bullpen
