// SPDX-License-Identifier: MIT
#include "storelocation.h"

#include <QDir>
#include <QFile>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

#ifdef BULLPEN_HAVE_SQLITE3
#include <chrono>
#include <sqlite3.h>
#include <thread>
#endif

namespace bullpen {

namespace {

// The key of the session advisory lock that migrations hold on PostgreSQL ("bullpen" in ASCII, an
// arbitrary constant every engine agrees on).
constexpr qint64 kMigrationLock = 0x62756c6c70656eLL;

// libpq keywords a URL may carry in its query (besides host and port, which are the server's
// address); anything else is refused by name, so that a typo is not silently ignored.
const QStringList &passedKeywords()
{
    static const QStringList keys { QStringLiteral("sslmode"),
                                    QStringLiteral("sslrootcert"),
                                    QStringLiteral("sslcert"),
                                    QStringLiteral("sslkey"),
                                    QStringLiteral("connect_timeout"),
                                    QStringLiteral("application_name"),
                                    QStringLiteral("target_session_attrs") };
    return keys;
}

#ifdef BULLPEN_HAVE_SQLITE3
// SQLite's own busy timeout sleeps 1, 2, 5, 10, 15, 20, 25… ms between tries at a lock: a write that
// finds the lock taken for 16 ms waits 18 ms, one that finds it taken for 34 ms waits 53 ms. This
// handler tries every millisecond instead, so a write waits about as long as the lock was held, and
// gives up after the same 5 s (the error then says the store is busy).
constexpr auto kLockWait = std::chrono::seconds(5);

int retryLockEveryMillisecond(void *, int tries)
{
    thread_local std::chrono::steady_clock::time_point firstTry;
    const auto now = std::chrono::steady_clock::now();
    if (tries == 0)
        firstTry = now;
    else if (now - firstTry >= kLockWait)
        return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return 1;
}
#endif

} // namespace

sqlite3 *StoreLocation::sqliteHandle(const QSqlDatabase &db)
{
#ifdef BULLPEN_HAVE_SQLITE3
    const QVariant handle = db.driver()->handle();
    if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0)
        return *static_cast<sqlite3 *const *>(handle.constData());
#else
    Q_UNUSED(db)
#endif
    return nullptr;
}

StoreLocation StoreLocation::sqliteIn(const QString &dataDir)
{
    StoreLocation l;
    l.m_backend = Backend::SQLite;
    l.m_dataDir = dataDir;
    l.m_database = QDir(dataDir).filePath(QStringLiteral("bullpen.sqlite"));
    return l;
}

std::optional<StoreLocation> StoreLocation::fromUrl(const QString &text, QString *error)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    const auto refuse = [&](const QString &why) {
        *error =
            QStringLiteral("%1 is not a PostgreSQL URL Bullpen can use: %2 (expected postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE)")
                .arg(QString::fromLatin1(kUrlVariable), why);
        return std::nullopt;
    };
    if (!url.isValid())
        return refuse(url.errorString().replace(url.password(QUrl::FullyEncoded), QStringLiteral("…")));
    if (url.scheme() != u"postgresql" && url.scheme() != u"postgres")
        return refuse(QStringLiteral("the scheme is \"%1\"").arg(url.scheme().left(20)));
    StoreLocation l;
    l.m_backend = Backend::PostgreSQL;
    l.m_database = url.path().mid(1);
    if (l.m_database.isEmpty() || l.m_database.contains(QLatin1Char('/')))
        return refuse(QStringLiteral("no database name after the host"));
    l.m_user = url.userName(QUrl::FullyDecoded);
    if (l.m_user.isEmpty())
        return refuse(QStringLiteral("no user name"));
    l.m_password = url.password(QUrl::FullyDecoded);
    l.m_host = url.host(QUrl::FullyDecoded);
    l.m_port = url.port(-1);
    QStringList options;
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == u"host") {
            if (!l.m_host.isEmpty())
                return refuse(QStringLiteral("the host is given twice"));
            l.m_host = value; // a unix socket's directory
        } else if (key == u"port") {
            bool ok = false;
            l.m_port = value.toInt(&ok);
            if (!ok || l.m_port <= 0 || l.m_port > 65535)
                return refuse(QStringLiteral("port \"%1\" is not a port").arg(value.left(20)));
        } else if (passedKeywords().contains(key)) {
            if (value.contains(QLatin1Char(';')) || value.contains(QLatin1Char(' ')) || value.contains(QLatin1Char('\'')))
                return refuse(QStringLiteral("the value of %1 holds a space, ';' or a quote").arg(key));
            options << key + QLatin1Char('=') + value;
        } else {
            return refuse(QStringLiteral("unknown parameter \"%1\" (known: host, port, %2)")
                              .arg(key.left(40), passedKeywords().join(QStringLiteral(", "))));
        }
    }
    if (l.m_host.isEmpty())
        return refuse(QStringLiteral("no host (a name, an address, or ?host=/path/to/socket/directory)"));
    if (!query.hasQueryItem(QStringLiteral("connect_timeout")))
        options << QStringLiteral("connect_timeout=5"); // an unreachable server is an error in seconds, not minutes
    l.m_options = options.join(QLatin1Char(';'));
    return l;
}

std::optional<StoreLocation> StoreLocation::resolve(const QString &dataDir, const QProcessEnvironment &environment, QString *error)
{
    QString url = environment.value(QString::fromLatin1(kUrlVariable));
    // BULLPEN_DATABASE_URL_FILE: the URL (with its password) in a file, e.g. a systemd credential
    // ($CREDENTIALS_DIRECTORY/database.url), so it is in no environment a process listing shows.
    if (const QString file = environment.value(QString::fromLatin1(kUrlFileVariable)); url.trimmed().isEmpty() && !file.isEmpty()) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            if (error)
                *error = QStringLiteral("%1=%2 cannot be read (%3); it should hold the postgresql:// URL")
                             .arg(QString::fromLatin1(kUrlFileVariable), file, f.errorString());
            return std::nullopt;
        }
        url = QString::fromUtf8(f.read(4096)).trimmed();
        if (url.isEmpty()) {
            if (error)
                *error =
                    QStringLiteral("%1=%2 is empty; it should hold the postgresql:// URL").arg(QString::fromLatin1(kUrlFileVariable), file);
            return std::nullopt;
        }
    }
    if (url.trimmed().isEmpty())
        return sqliteIn(dataDir);
    std::optional<StoreLocation> l = fromUrl(url, error);
    if (l)
        l->m_dataDir = dataDir; // images and keys stay in the data folder
    return l;
}

StoreLocation StoreLocation::withDatabase(const QString &name) const
{
    StoreLocation l = *this;
    l.m_database = name;
    return l;
}

QString StoreLocation::display() const
{
    if (m_backend == Backend::SQLite)
        return m_database;
    const QString host = m_host.startsWith(QLatin1Char('/')) ? QStringLiteral("[%1]").arg(m_host) : m_host;
    return QStringLiteral("postgresql://%1@%2%3/%4")
        .arg(m_user, host, m_port > 0 ? QStringLiteral(":%1").arg(m_port) : QString(), m_database);
}

QString StoreLocation::url() const
{
    if (m_backend == Backend::SQLite)
        return {};
    QUrl u;
    u.setScheme(QStringLiteral("postgresql"));
    u.setUserName(m_user);
    u.setPassword(m_password);
    u.setPath(QLatin1Char('/') + m_database);
    QUrlQuery query;
    if (m_host.startsWith(QLatin1Char('/')))
        query.addQueryItem(QStringLiteral("host"), m_host);
    else
        u.setHost(m_host);
    if (m_port > 0)
        query.addQueryItem(QStringLiteral("port"), QString::number(m_port));
    for (const QString &option : m_options.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype eq = option.indexOf(QLatin1Char('='));
        query.addQueryItem(option.left(eq), option.mid(eq + 1));
    }
    u.setQuery(query);
    return u.toString(QUrl::FullyEncoded);
}

bool StoreLocation::isPostgres(const QSqlDatabase &db)
{
    return db.driverName() == u"QPSQL";
}

QSqlDatabase StoreLocation::connect(const QString &name, Access access, QString *error) const
{
    const bool pg = m_backend == Backend::PostgreSQL;
    const QString driver = pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        *error = pg ? QStringLiteral("Qt's PostgreSQL driver (QPSQL) is not installed; install libqt6sql6-psql, or unset %1 to use SQLite")
                          .arg(QString::fromLatin1(kUrlVariable))
                    : QStringLiteral("Qt's SQLite driver (QSQLITE) is not installed; install libqt6sql6-sqlite");
        return {};
    }
    QString failure;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(driver, name);
        db.setDatabaseName(m_database);
        if (pg) {
            db.setHostName(m_host);
            if (m_port > 0)
                db.setPort(m_port);
            db.setUserName(m_user);
            db.setPassword(m_password);
            db.setConnectOptions(m_options);
        } else {
            db.setConnectOptions(access == Access::ReadOnly ? QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000;QSQLITE_OPEN_READONLY")
                                                            : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        }
        if (!db.open()) {
            failure = pg ? QStringLiteral("cannot reach the PostgreSQL store at %1 (%2); check %3, that the server runs, and that it "
                                          "accepts this user")
                               .arg(display(), db.lastError().text().trimmed(), QString::fromLatin1(kUrlVariable))
                         : QStringLiteral("%1: cannot open (%2)").arg(m_database, db.lastError().text());
        } else {
            QSqlQuery q(db);
            // PostgreSQL: a reader cannot write by mistake, and notices stay out of the log. SQLite: the
            // writer's durability (WAL commits are not fsynced; a crash of the process loses nothing,
            // a power cut may lose the last moment's rows), and the WAL file cut back to 64 MiB once
            // checkpointed (a burst or a purge may grow it; months of running must not keep that).
            const QStringList setup = pg
                ? (access == Access::ReadOnly ? QStringList { QStringLiteral("SET client_min_messages = warning"),
                                                              QStringLiteral("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
                                              : QStringList { QStringLiteral("SET client_min_messages = warning") })
                : (access == Access::ReadOnly
                       ? QStringList {}
                       : QStringList { QStringLiteral("PRAGMA synchronous=NORMAL"), QStringLiteral("PRAGMA journal_size_limit=67108864") });
            for (const QString &sql : setup) {
                if (!q.exec(sql)) {
                    // SQLite reads the file's header here: a file that is not a database fails first.
                    failure = pg
                        ? QStringLiteral("%1: %2 failed (%3)").arg(display(), sql, q.lastError().text())
                        : QStringLiteral("%1 is damaged or not a database (%2); move it aside (nothing was deleted) and restart to "
                                         "begin a new store")
                              .arg(m_database, q.lastError().text());
                    break;
                }
            }
        }
        if (failure.isEmpty()) {
#ifdef BULLPEN_HAVE_SQLITE3
            // Waits for another connection's lock in 1 ms steps (above); without SQLite's headers at
            // build time, SQLite's own busy timeout (QSQLITE_BUSY_TIMEOUT) stays.
            if (sqlite3 *connection = sqliteHandle(db))
                sqlite3_busy_handler(connection, retryLockEveryMillisecond, nullptr);
#endif
            return db;
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    *error = failure;
    return {};
}

void StoreLocation::disconnect(const QString &name)
{
    if (!QSqlDatabase::contains(name))
        return;
    QSqlDatabase::database(name, false).close();
    QSqlDatabase::removeDatabase(name);
}

bool StoreLocation::lockMigrations(QSqlDatabase &db, QString *error) const
{
    if (m_backend != Backend::PostgreSQL)
        return true;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(kMigrationLock))) {
        *error = QStringLiteral("could not take the migration lock (%1)").arg(q.lastError().text());
        return false;
    }
    return true;
}

void StoreLocation::unlockMigrations(QSqlDatabase &db) const
{
    if (m_backend != Backend::PostgreSQL)
        return;
    QSqlQuery q(db);
    q.exec(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(kMigrationLock));
}

QString StoreLocation::integrityCheck(QSqlDatabase &db) const
{
    QSqlQuery q(db);
    const QString sql = m_backend == Backend::PostgreSQL ? QStringLiteral("SELECT 'ok'") : QStringLiteral("PRAGMA integrity_check");
    if (!q.exec(sql) || !q.next())
        return q.lastError().text();
    return q.value(0).toString();
}

} // namespace bullpen
