// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <memory>

namespace bullpen {

// The store's database file (SQLite in WAL mode, through Qt Sql): creating it owner-only, checking and
// migrating its schema (storeschema.h), finishing generations whose process is gone, and one read
// connection per thread. The history queries, the result cache and the writer work on top of it.
class StoreDatabase final
{
public:
    static const QString kFileName; // bullpen.sqlite

    // Opens (or creates) `<dataDir>/bullpen.sqlite`, checks and migrates it, and finishes orphans as
    // ABANDONED. On failure says which path and what to do.
    static std::unique_ptr<StoreDatabase> open(const QString &dataDir, QString *error);
    // Read-only: nothing created, migrated or written. Refuses a folder without a store.
    static std::unique_ptr<StoreDatabase> openReadOnly(const QString &dataDir, QString *error);
    ~StoreDatabase();

    QString path() const { return m_path; }
    // Generations found running with their process gone, finished as ABANDONED by this open.
    int abandonedAtOpen() const { return m_abandoned; }

    // The calling thread's read connection (Qt Sql connections belong to the thread that opened them).
    QSqlDatabase readConnection();
    // Closes it; a worker thread that read calls this before it ends.
    void releaseThreadConnection();

    // For invariant checks.
    qint64 scalar(const QString &sql, QString *error = nullptr);
    int orphanedRunning(); // generations still `running` whose process is gone (SPEC 11.10)
    QString integrityCheck();

    // Prepares, binds and runs a statement; false with the reason in *error.
    static bool run(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error);

private:
    explicit StoreDatabase(QString path);
    static int abandonOrphans(QSqlDatabase &db);

    QString m_path;
    QString m_readConnectionPrefix;
    int m_abandoned = 0;
};

} // namespace bullpen
