// SPDX-License-Identifier: MIT
#pragma once

#include <QProcessEnvironment>
#include <QSqlDatabase>
#include <QString>

#include <optional>

struct sqlite3;

namespace bullpen {

// Where the store lives, and everything about a connection that depends on it (docs/store.md):
//   SQLite      `<data folder>/bullpen.sqlite`, WAL, the embedded default;
//   PostgreSQL  `BULLPEN_DATABASE_URL=postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?host=/socket/dir&…]`,
//               one database shared by every engine of a deployment (QPSQL).
// The SQL above this class is the same for both; what differs (drivers, PRAGMAs, the migration lock,
// read-only sessions, what "integrity" means) is answered here, so no other file names a driver.
class StoreLocation final
{
public:
    enum class Backend { SQLite, PostgreSQL };
    enum class Access { ReadWrite, ReadOnly };

    static constexpr const char *kUrlVariable = "BULLPEN_DATABASE_URL";
    static constexpr const char *kUrlFileVariable = "BULLPEN_DATABASE_URL_FILE"; // the URL in a file (a systemd credential)

    // The SQLite file in `dataDir`.
    static StoreLocation sqliteIn(const QString &dataDir);
    // A postgresql:// (or postgres://) URL; nullopt with the reason (never echoing a password).
    static std::optional<StoreLocation> fromUrl(const QString &url, QString *error);
    // BULLPEN_DATABASE_URL from `environment` when set, else the URL in the file BULLPEN_DATABASE_URL_FILE
    // names, else the SQLite file in `dataDir`.
    static std::optional<StoreLocation> resolve(const QString &dataDir, const QProcessEnvironment &environment, QString *error);

    // The same server and credentials, another database (PostgreSQL only; tests and tools).
    StoreLocation withDatabase(const QString &name) const;
    void setDataDir(const QString &dataDir) { m_dataDir = dataDir; }

    Backend backend() const { return m_backend; }
    // The backend of an open connection (the schema's PostgreSQL-only steps).
    static bool isPostgres(const QSqlDatabase &db);
    // The sqlite3 handle under a Qt SQLite connection (Qt's driver and Bullpen link the same system
    // libsqlite3), or nullptr: another backend, or Bullpen built without SQLite's headers.
    static sqlite3 *sqliteHandle(const QSqlDatabase &db);
    bool isPostgres() const { return m_backend == Backend::PostgreSQL; }
    // SQLite: the file. PostgreSQL: empty.
    QString sqlitePath() const { return m_backend == Backend::SQLite ? m_database : QString(); }
    QString dataDir() const { return m_dataDir; }
    // For messages and /v1/config: the file, or postgresql://USER@HOST:PORT/DB (never the password).
    QString display() const;
    // PostgreSQL: the whole URL again, password included, to hand to a child process's environment
    // (never to print). SQLite: empty.
    QString url() const;

    // Adds connection `name` on the calling thread and opens it: busy timeouts, read-only sessions,
    // SQLite's durability setting for writers. On failure the connection is removed again, and the
    // reason says what to check.
    QSqlDatabase connect(const QString &name, Access access, QString *error) const;
    // Closes and removes connection `name` (every QSqlDatabase handle to it must be gone).
    static void disconnect(const QString &name);

    // Serialises schema migrations across processes on PostgreSQL: a session advisory lock (released by
    // unlockMigrations or by the connection's end). No-ops on SQLite, where StoreDatabase::open holds a
    // lock file beside the database while it creates and migrates it.
    bool lockMigrations(QSqlDatabase &db, QString *error) const;
    void unlockMigrations(QSqlDatabase &db) const;

    // SQLite's `PRAGMA integrity_check` ("ok" when whole); PostgreSQL checks its own pages, so there it
    // is "ok" once the server answers.
    QString integrityCheck(QSqlDatabase &db) const;

private:
    Backend m_backend = Backend::SQLite;
    QString m_dataDir;
    QString m_database; // SQLite: the file; PostgreSQL: the database name
    QString m_host;
    int m_port = -1;
    QString m_user;
    QString m_password;
    QString m_options; // QPSQL connect options (libpq keywords), ';'-separated
};

} // namespace bullpen
