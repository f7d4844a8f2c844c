// SPDX-License-Identifier: MIT
#include "storedatabase.h"

#include "aggregates.h"
#include "engine/event.h"
#include "owner.h"
#include "privatefiles.h"
#include "storeschema.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QSqlError>
#include <QTemporaryFile>
#include <QThread>
#include <QUuid>

namespace bullpen {

const QString StoreDatabase::kFileName = QStringLiteral("bullpen.sqlite");

StoreDatabase::StoreDatabase(StoreLocation location)
    : m_location(std::move(location))
    , m_readConnectionPrefix(QStringLiteral("bullpen-read-") + QUuid::createUuid().toString(QUuid::Id128) + QLatin1Char('-'))
{
}

StoreDatabase::~StoreDatabase()
{
    const QStringList names = QSqlDatabase::connectionNames();
    for (const QString &name : names) {
        if (name.startsWith(m_readConnectionPrefix)) {
            QSqlDatabase::database(name, false).close();
            QSqlDatabase::removeDatabase(name);
        }
    }
}

std::unique_ptr<StoreDatabase> StoreDatabase::openReadOnly(const StoreLocation &location, QString *error)
{
    if (location.isPostgres())
        return openPostgres(location, true, error);
    // For commands that only read (history, export): nothing is created, migrated or written, so a
    // mistyped folder is refused instead of becoming an empty store, and a full disk does not matter.
    const QString dataDir = location.dataDir();
    const QString path = location.sqlitePath();
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("no store at %1 (no %2 there); check --data-dir or BULLPEN_DATA_DIR. Nothing was created.")
                     .arg(dataDir, kFileName);
        return nullptr;
    }
    if (!PrivateFiles::checkEntry(path, false, error))
        return nullptr;
    std::unique_ptr<StoreDatabase> store(new StoreDatabase(location));
    QString why;
    QSqlDatabase db = store->readConnection(&why);
    if (!db.isOpen()) {
        *error = why;
        return nullptr;
    }
    if (!StoreSchema::check(db, &why)) {
        *error = path + QStringLiteral(": ") + why;
        return nullptr;
    }
    return store;
}

// PostgreSQL: the server owns the files; Bullpen checks the schema, migrates it under the advisory lock
// (engines starting together migrate once: the others wait, then find it current) and finishes orphans.
std::unique_ptr<StoreDatabase> StoreDatabase::openPostgres(const StoreLocation &location, bool readOnly, QString *error)
{
    std::unique_ptr<StoreDatabase> store(new StoreDatabase(location));
    const QString name = QStringLiteral("bullpen-open-") + QUuid::createUuid().toString(QUuid::Id128);
    QString failure;
    {
        QSqlDatabase db = location.connect(name, readOnly ? StoreLocation::Access::ReadOnly : StoreLocation::Access::ReadWrite, &failure);
        if (!failure.isEmpty()) {
            *error = failure;
            return nullptr;
        }
        QString why;
        if (readOnly) {
            if (!StoreSchema::check(db, &why))
                failure = location.display() + QStringLiteral(": ") + why;
            else if (StoreSchema::version(db, &why) == 0)
                failure =
                    QStringLiteral("no Bullpen store in %1; check %2 (start bullpen-engine once with it to create the store). Nothing "
                                   "was created.")
                        .arg(location.display(), QString::fromLatin1(StoreLocation::kUrlVariable));
        } else if (!location.lockMigrations(db, &why)) {
            failure = location.display() + QStringLiteral(": ") + why;
        } else {
            if (!StoreSchema::migrate(db, &why))
                failure = location.display() + QStringLiteral(": ") + why;
            else
                store->m_abandoned = abandonOrphans(db);
            location.unlockMigrations(db);
        }
    }
    StoreLocation::disconnect(name);
    if (!failure.isEmpty()) {
        *error = failure;
        return nullptr;
    }
    return store;
}

// docs/contract.md §4.5, 11.10: a generation whose process is gone is finished once, as ABANDONED, by whoever
// opens the store next. Returns how many were.
int StoreDatabase::abandonOrphans(QSqlDatabase &db)
{
    QSqlQuery running(db);
    if (!running.exec(QStringLiteral("SELECT id, owner FROM generations WHERE state = 'running'")))
        return 0;
    QList<std::pair<QString, QString>> orphans;
    while (running.next()) {
        const QString owner = running.value(1).toString();
        if (!Owner::isAlive(owner))
            orphans.append({ running.value(0).toString(), owner });
    }
    running.finish();
    int done = 0;
    QSqlQuery finish(db);
    finish.prepare(QStringLiteral("UPDATE generations SET state = 'abandoned', public_code = 'INTERNAL_ERROR', kind = 'INTERNAL', "
                                  "detail = ?, finished_at_ms = ? WHERE id = ? AND state = 'running'"));
    for (const auto &[id, owner] : orphans) {
        finish.addBindValue(
            QStringLiteral("its process (%1) ended before it finished; recorded as abandoned when the store was next opened")
                .arg(owner.isEmpty() ? QStringLiteral("unknown") : owner));
        finish.addBindValue(QDateTime::currentMSecsSinceEpoch());
        finish.addBindValue(id);
        // With its count in the hourly aggregates, in one transaction.
        QString why;
        AggregateDeltas aggregates;
        if (!db.transaction())
            continue;
        const bool finished = finish.exec() && finish.numRowsAffected() == 1;
        if (finished && aggregates.addFinished(db, id, &why) && aggregates.apply(db, &why)
            && recordAbandonedEvent(db, id, QDateTime::currentMSecsSinceEpoch(), &why) && notifyEvents(db, &why) && db.commit())
            ++done;
        else
            db.rollback();
    }
    return done;
}

std::unique_ptr<StoreDatabase> StoreDatabase::open(const StoreLocation &location, QString *error)
{
    if (location.isPostgres())
        return openPostgres(location, false, error);
    const QString dataDir = location.dataDir();
    if (!PrivateFiles::ensureDirectory(dataDir, error))
        return nullptr;
    // Processes opening one folder together create and migrate the file one at a time (the others then
    // find it current); a lock left by a killed process is taken over after its owner is gone.
    QLockFile migrating(QDir(dataDir).filePath(kFileName + QStringLiteral(".lock")));
    migrating.setStaleLockTime(0);
    if (!migrating.tryLock(60'000)) {
        *error = QStringLiteral("%1: another process has been creating or upgrading the store for a minute (%2 is locked); if none "
                                "runs, delete that lock file")
                     .arg(dataDir, migrating.fileName());
        return nullptr;
    }
    // Owner-only files (the store lets anyone who reads it test guessed user ids against the masks):
    // refuse symlinks and foreign files, tighten our own older 0644 files, create the database 0600
    // (SQLite gives its -wal and -shm files the database's mode).
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") }) {
        const QString file = QDir(dataDir).filePath(kFileName + suffix);
        if (!PrivateFiles::checkEntry(file, false, error))
            return nullptr;
        if (QFile::exists(file))
            QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    if (const QString db = QDir(dataDir).filePath(kFileName); !QFile::exists(db)) {
        QString why;
        if (!PrivateFiles::createNew(db, {}, &why)) {
            *error = why;
            return nullptr;
        }
    }
    {
        QTemporaryFile probe(QDir(dataDir).filePath(QStringLiteral(".write-probe-XXXXXX")));
        if (!probe.open() || probe.write("x", 1) != 1 || !probe.flush()) {
            *error = QStringLiteral("%1: the data folder is not writable (%2); fix its permissions or free space, or choose another folder")
                         .arg(dataDir, probe.errorString());
            return nullptr;
        }
    }
    const QString path = location.sqlitePath();
    std::unique_ptr<StoreDatabase> store(new StoreDatabase(location));

    // Open, check and migrate on a short-lived connection on this thread.
    const QString name = QStringLiteral("bullpen-open-") + QUuid::createUuid().toString(QUuid::Id128);
    QString failure;
    {
        QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, &failure);
        if (failure.isEmpty()) {
            QSqlQuery q(db);
            QString refused;
            // Read-only checks first: a damaged, foreign or newer file is refused before anything
            // (even the switch to WAL) writes to it.
            if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")) || !q.next()) {
                failure = QStringLiteral("%1 is damaged or not a database (%2); move it aside (nothing was deleted) and restart to begin a "
                                         "new store")
                              .arg(path, q.lastError().text());
            } else if (const bool empty = q.value(0).toInt() == 0; q.finish(), !StoreSchema::check(db, &refused)) {
                failure = path + QStringLiteral(": ") + refused;
            } else if (empty && !q.exec(QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL"))) {
                // A new store gives purged pages back to the file system (retention.h); only possible
                // before its first table.
                failure = QStringLiteral("%1: cannot set incremental vacuum (%2)").arg(path, q.lastError().text());
            } else if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.next()) {
                failure = QStringLiteral("%1 is damaged or not a database (%2); move it aside (nothing was deleted) and restart to begin a "
                                         "new store")
                              .arg(path, q.lastError().text());
            } else if (q.value(0).toString().compare(u"wal", Qt::CaseInsensitive) != 0) {
                failure = QStringLiteral("%1: SQLite refused WAL mode (%2); put the data folder on a local disk")
                              .arg(path, q.value(0).toString());
            } else {
                q.finish(); // an unfinished statement would block the migration's commit
                QString why;
                if (!StoreSchema::migrate(db, &why))
                    failure = path + QStringLiteral(": ") + why;
                else
                    store->m_abandoned = abandonOrphans(db);
            }
            q.finish();
        }
    }
    StoreLocation::disconnect(name);
    if (!failure.isEmpty()) {
        *error = failure;
        return nullptr;
    }
    return store;
}

QSqlDatabase StoreDatabase::readConnection(QString *error)
{
    // One read connection per thread (Qt Sql connections belong to the thread that made them).
    const QString name = m_readConnectionPrefix + QString::number(reinterpret_cast<quintptr>(QThread::currentThread()), 16);
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name);
    QString why;
    QSqlDatabase db = m_location.connect(name, StoreLocation::Access::ReadOnly, &why);
    if (!why.isEmpty()) {
        qWarning("bullpen: %s", qUtf8Printable(why));
        if (error)
            *error = why;
    }
    return db;
}

void StoreDatabase::releaseThreadConnection()
{
    StoreLocation::disconnect(m_readConnectionPrefix + QString::number(reinterpret_cast<quintptr>(QThread::currentThread()), 16));
}

qint64 StoreDatabase::scalar(const QString &sql, QString *error)
{
    QSqlQuery q;
    if (!read(q, sql, {}, error) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

bool StoreDatabase::read(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error)
{
    QString why;
    q = QSqlQuery(readConnection(&why));
    if (run(q, sql, binds, error))
        return true;
    if (!m_location.isPostgres())
        return false;
    // PostgreSQL may have dropped this thread's connection (a restart, a network cut; libpq reports it
    // on the next statement): once more on a new connection. A statement that fails on its own merits
    // fails twice, at the cost of one reconnection.
    q = QSqlQuery();
    releaseThreadConnection();
    q = QSqlQuery(readConnection(&why));
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    if (error)
        error->clear();
    return run(q, sql, binds, error);
}

int StoreDatabase::orphanedRunning()
{
    QSqlQuery q;
    if (!read(q, QStringLiteral("SELECT owner FROM generations WHERE state = 'running'"), {}, nullptr))
        return -1;
    int n = 0;
    while (q.next())
        n += Owner::isAlive(q.value(0).toString()) ? 0 : 1;
    return n;
}

QString StoreDatabase::integrityCheck()
{
    QSqlDatabase db = readConnection();
    return m_location.integrityCheck(db);
}

bool StoreDatabase::recordAbandonedEvent(QSqlDatabase &db, const QString &id, qint64 nowMs, QString *error)
{
    QSqlQuery q(db);
    if (!run(q,
             QStringLiteral(
                 "SELECT g.detail, g.created_at_ms, g.instance, (SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE generation_id = g.id) "
                 "FROM generations g WHERE g.id = ?"),
             { id }, error))
        return false;
    if (!q.next()) {
        if (error)
            *error = QStringLiteral("generation %1 is not in the store").arg(id);
        return false;
    }
    Event e;
    e.generationId = id;
    e.sequence = static_cast<quint64>(q.value(3).toLongLong());
    e.at = std::chrono::milliseconds(std::max<qint64>(0, nowMs - q.value(1).toLongLong()));
    e.wallTime = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
    GenerationFinished finished;
    finished.state = FinalState::Abandoned;
    finished.publicCode = PublicCode::INTERNAL_ERROR;
    finished.kind = FailureKind::INTERNAL;
    finished.detail = q.value(0).toString();
    e.body = finished;
    const QVariant instance = q.value(2);
    q.finish();
    return run(q, QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body, instance) VALUES (?, ?, ?, ?, ?, ?)"),
               { id, static_cast<qint64>(e.sequence), e.type(), nowMs, QString::fromUtf8(e.compactJson()), instance }, error);
}

bool StoreDatabase::notifyEvents(QSqlDatabase &db, QString *error)
{
    if (!StoreLocation::isPostgres(db))
        return true;
    QSqlQuery q(db);
    if (q.exec(QStringLiteral("NOTIFY bullpen_events"))) // not prepared: PostgreSQL cannot PREPARE a NOTIFY
        return true;
    if (error)
        *error = q.lastError().text();
    return false;
}

bool StoreDatabase::run(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error)
{
    q.setForwardOnly(true);
    if (!q.prepare(sql)) {
        if (error)
            *error = q.lastError().text();
        return false;
    }
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec()) {
        if (error)
            *error = q.lastError().text();
        return false;
    }
    return true;
}

} // namespace bullpen
