// SPDX-License-Identifier: MIT
#pragma once

#include "storelocation.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <memory>

namespace bullpen {

// The store's database (storelocation.h: the SQLite file in WAL mode, or a PostgreSQL database),
// through Qt Sql: creating the file owner-only, checking and migrating the schema (storeschema.h) under
// the migration lock, finishing generations whose process is gone, and one read connection per thread.
// The history queries, the result cache and the writer work on top of it.
class StoreDatabase final
{
public:
    static const QString kFileName; // bullpen.sqlite

    // Opens (or creates) the store, checks and migrates it, and finishes orphans as ABANDONED. On
    // failure says which store and what to do.
    static std::unique_ptr<StoreDatabase> open(const StoreLocation &location, QString *error);
    // Read-only: nothing created, migrated or written. Refuses a folder (or a database) without a store.
    static std::unique_ptr<StoreDatabase> openReadOnly(const StoreLocation &location, QString *error);
    ~StoreDatabase();

    const StoreLocation &location() const { return m_location; }
    // The SQLite file, or the PostgreSQL URL without its password: for messages.
    QString path() const { return m_location.display(); }
    // Generations found running with their process gone, finished as ABANDONED by this open.
    int abandonedAtOpen() const { return m_abandoned; }

    // The calling thread's read connection (Qt Sql connections belong to the thread that opened them).
    // If it cannot be opened, the reason goes to *error (and the log); the handle is then invalid.
    QSqlDatabase readConnection(QString *error = nullptr);
    // Closes it; a worker thread that read calls this before it ends.
    void releaseThreadConnection();

    // For invariant checks.
    qint64 scalar(const QString &sql, QString *error = nullptr);
    int orphanedRunning(); // generations still `running` whose process is gone (docs/contract.md §11.10)
    QString integrityCheck();

    // Runs a read on the calling thread's connection into `q`. On PostgreSQL, a failed read is tried
    // once more on a new connection (the server may have restarted or dropped it).
    bool read(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error);
    // Prepares, binds and runs a statement; false with the reason in *error.
    static bool run(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error);
    // After generation `id` was just finished as ABANDONED (in the caller's transaction): its last event,
    // `generation_finished` with the row's detail, so that every event stream and timeline shows the end
    // (docs/contract.md §11.10). On PostgreSQL the caller's transaction also notifies the relays.
    static bool recordAbandonedEvent(QSqlDatabase &db, const QString &id, qint64 nowMs, QString *error);
    // PostgreSQL: `NOTIFY bullpen_events`, delivered to the engines' relays when the caller's transaction
    // commits (docs/store.md, "Live events across instances"). SQLite: nothing to do.
    static bool notifyEvents(QSqlDatabase &db, QString *error);

private:
    explicit StoreDatabase(StoreLocation location);
    static int abandonOrphans(QSqlDatabase &db);
    static std::unique_ptr<StoreDatabase> openPostgres(const StoreLocation &location, bool readOnly, QString *error);

    StoreLocation m_location;
    QString m_readConnectionPrefix;
    int m_abandoned = 0;
};

} // namespace bullpen
