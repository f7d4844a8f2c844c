// SPDX-License-Identifier: MIT
#include "store.h"

#include "owner.h"
#include "privatefiles.h"
#include "storeschema.h"
#include "storewriter.h"

#include <QDateTime>

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryFile>
#include <QThread>
#include <QUuid>

namespace bullpen {

namespace {

const QString kFileName = QStringLiteral("bullpen.sqlite");

GenerationRow rowFrom(const QSqlQuery &q)
{
    const QSqlRecord rec = q.record();
    auto text = [&](const char *c) { return q.value(rec.indexOf(QLatin1StringView(c))).toString(); };
    auto num = [&](const char *c, qint64 missing) {
        const QVariant v = q.value(rec.indexOf(QLatin1StringView(c)));
        return v.isNull() ? missing : v.toLongLong();
    };
    GenerationRow r;
    r.id = text("id");
    r.createdAtMs = num("created_at_ms", 0);
    if (const qint64 f = num("finished_at_ms", -1); f >= 0)
        r.finishedAtMs = f;
    r.userMask = text("user_mask");
    r.userKey = text("user_key");
    r.policy = text("policy");
    r.state = text("state");
    r.publicCode = text("public_code");
    r.kind = text("kind");
    r.stage = text("stage");
    r.detail = text("detail");
    r.decision = text("decision");
    r.fallbackApplied = num("fallback_applied", 0) != 0;
    r.fallbackReason = text("fallback_reason");
    r.primaryProvider = text("primary_provider");
    r.finalProvider = text("final_provider");
    r.finalModel = text("final_model");
    r.tokensIn = num("tokens_in", -1);
    r.tokensOut = num("tokens_out", -1);
    r.elapsedMs = q.value(rec.indexOf(QLatin1StringView("elapsed_ms"))).toDouble();
    r.fallbackProvider = text("fallback_provider");
    r.nextStep = text("next_step");
    r.imagePath = text("image_path");
    return r;
}

// WHERE clause and bound values for a history filter (portable SQL).
QString whereFor(const HistoryFilter &f, QVariantList &binds)
{
    QStringList where;
    if (f.fromMs) {
        where << QStringLiteral("created_at_ms >= ?");
        binds << *f.fromMs;
    }
    if (f.toMs) {
        where << QStringLiteral("created_at_ms < ?");
        binds << *f.toMs;
    }
    if (!f.states.isEmpty()) {
        QStringList marks;
        for (const QString &s : f.states) {
            marks << QStringLiteral("?");
            binds << s;
        }
        where << QStringLiteral("state IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    const std::pair<const QString *, const char *> exact[] = {
        {&f.publicCode, "public_code"}, {&f.kind, "kind"}, {&f.stage, "stage"}, {&f.userKey, "user_key"}};
    for (const auto &[value, column] : exact) {
        if (!value->isEmpty()) {
            where << QLatin1StringView(column) + QStringLiteral(" = ?");
            binds << *value;
        }
    }
    if (!f.provider.isEmpty()) {
        where << QStringLiteral("(primary_provider = ? OR final_provider = ?)");
        binds << f.provider << f.provider;
    }
    if (f.fallbackApplied) {
        where << QStringLiteral("fallback_applied = ?");
        binds << (*f.fallbackApplied ? 1 : 0);
    }
    if (f.beforeMs) {
        where << QStringLiteral("(created_at_ms < ? OR (created_at_ms = ? AND id < ?))");
        binds << *f.beforeMs << *f.beforeMs << f.beforeId;
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

bool run(QSqlQuery &q, const QString &sql, const QVariantList &binds, QString *error)
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

} // namespace

Store::Store(QString path)
    : m_path(std::move(path))
    , m_readConnectionPrefix(QStringLiteral("bullpen-read-") + QUuid::createUuid().toString(QUuid::Id128) + QLatin1Char('-'))
{
}

std::unique_ptr<Store> Store::openReadOnly(const QString &dataDir, QString *error)
{
    // For commands that only read (history, export): nothing is created, migrated or written, so a
    // mistyped folder is refused instead of becoming an empty store, and a full disk does not matter.
    const QString path = QDir(dataDir).filePath(kFileName);
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("no store at %1 (no %2 there); check --data-dir or BULLPEN_DATA_DIR. Nothing was created.").arg(dataDir, kFileName);
        return nullptr;
    }
    if (!PrivateFiles::checkEntry(path, false, error))
        return nullptr;
    std::unique_ptr<Store> store(new Store(path));
    QSqlDatabase db = store->readConnection();
    if (!db.isOpen()) {
        *error = QStringLiteral("%1: cannot open (%2)").arg(path, db.lastError().text());
        return nullptr;
    }
    QString why;
    if (!StoreSchema::check(db, &why)) {
        *error = path + QStringLiteral(": ") + why;
        return nullptr;
    }
    return store;
}

// SPEC 4.5, 11.10: a generation whose process is gone is finished once, as ABANDONED, by whoever
// opens the store next. Returns how many were.
int Store::abandonOrphans(QSqlDatabase &db)
{
    QSqlQuery running(db);
    if (!running.exec(QStringLiteral("SELECT id, owner FROM generations WHERE state = 'running'")))
        return 0;
    QList<std::pair<QString, QString>> orphans;
    while (running.next()) {
        const QString owner = running.value(1).toString();
        if (!Owner::isAlive(owner))
            orphans.append({running.value(0).toString(), owner});
    }
    running.finish();
    int done = 0;
    QSqlQuery finish(db);
    finish.prepare(QStringLiteral("UPDATE generations SET state = 'abandoned', public_code = 'INTERNAL_ERROR', kind = 'INTERNAL', "
                                  "detail = ?, finished_at_ms = ? WHERE id = ? AND state = 'running'"));
    for (const auto &[id, owner] : orphans) {
        finish.addBindValue(QStringLiteral("its process (%1) ended before it finished; recorded as abandoned when the store was next opened")
                                .arg(owner.isEmpty() ? QStringLiteral("unknown") : owner));
        finish.addBindValue(QDateTime::currentMSecsSinceEpoch());
        finish.addBindValue(id);
        if (finish.exec())
            done += finish.numRowsAffected() == 1 ? 1 : 0;
    }
    return done;
}

std::unique_ptr<Store> Store::open(const QString &dataDir, QString *error)
{
    if (!PrivateFiles::ensureDirectory(dataDir, error))
        return nullptr;
    // Owner-only files (the store lets anyone who reads it test guessed user ids against the masks):
    // refuse symlinks and foreign files, tighten our own older 0644 files, create the database 0600
    // (SQLite gives its -wal and -shm files the database's mode).
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
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
    const QString path = QDir(dataDir).filePath(kFileName);
    std::unique_ptr<Store> store(new Store(path));

    // Open, check and migrate on a short-lived connection on this thread.
    const QString name = QStringLiteral("bullpen-open-") + QUuid::createUuid().toString(QUuid::Id128);
    QString failure;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            failure = QStringLiteral("%1: cannot open (%2)").arg(path, db.lastError().text());
        } else {
            QSqlQuery q(db);
            QString refused;
            // Read-only checks first: a damaged, foreign or newer file is refused before anything
            // (even the switch to WAL) writes to it.
            if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")) || !q.next()) {
                failure = QStringLiteral("%1 is damaged or not a database (%2); move it aside (nothing was deleted) and restart to begin a "
                                         "new store")
                              .arg(path, q.lastError().text());
            } else if (q.finish(); !StoreSchema::check(db, &refused)) {
                failure = path + QStringLiteral(": ") + refused;
            } else if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.next()) {
                failure = QStringLiteral("%1 is damaged or not a database (%2); move it aside (nothing was deleted) and restart to begin a "
                                         "new store")
                              .arg(path, q.lastError().text());
            } else if (q.value(0).toString().compare(u"wal", Qt::CaseInsensitive) != 0) {
                failure = QStringLiteral("%1: SQLite refused WAL mode (%2); put the data folder on a local disk").arg(path, q.value(0).toString());
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
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (!failure.isEmpty()) {
        *error = failure;
        return nullptr;
    }

    Store *raw = store.get();
    store->m_writer = std::make_unique<StoreWriter>(
        path,
        [raw](const QString &why) { QMetaObject::invokeMethod(raw, [raw, why] { Q_EMIT raw->writeFailed(why); }, Qt::QueuedConnection); },
        [raw](const QStringList &ids) {
            QMetaObject::invokeMethod(raw, [raw, ids] { Q_EMIT raw->finalStatesCommitted(ids); }, Qt::QueuedConnection);
        });
    if (!store->m_writer->start(&failure)) {
        *error = QStringLiteral("%1: the writer cannot open the store (%2)").arg(path, failure);
        return nullptr;
    }
    return store;
}

Store::~Store()
{
    m_writer.reset(); // writes what is queued, then stops
    const QStringList names = QSqlDatabase::connectionNames();
    for (const QString &name : names) {
        if (name.startsWith(m_readConnectionPrefix)) {
            QSqlDatabase::database(name, false).close();
            QSqlDatabase::removeDatabase(name);
        }
    }
}

void Store::recordEvent(const Event &event)
{
    if (m_writer)
        m_writer->enqueue(event);
}

void Store::recordFinished(const StageResult &result, const QString &userKey, const QString &userMask, const FinishedExtras &extras)
{
    if (m_writer)
        m_writer->enqueue(StoreWriter::Finished{result, userKey, userMask, extras});
}

std::optional<QJsonObject> Store::cachedResult(const QString &cacheKey, qint64 sinceMs, QString *error)
{
    QSqlQuery q(readConnection());
    if (!run(q,
             QStringLiteral("SELECT result_json FROM generations WHERE cache_key = ? AND created_at_ms >= ? AND state = 'succeeded' "
                            "AND degraded = 0 AND from_cache = 0 ORDER BY created_at_ms DESC LIMIT 1"),
             {cacheKey, sinceMs}, error)
        || !q.next())
        return std::nullopt;
    return QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
}

bool Store::flush(std::chrono::milliseconds timeout) { return !m_writer || m_writer->flush(timeout); }

Store::Stats Store::stats() const
{
    if (!m_writer)
        return {};
    const StoreWriter::Counters c = m_writer->counters();
    return Stats{c.queued, c.written, c.failed, c.finalStateConflicts, c.lastError, c.firstError};
}

QSqlDatabase Store::readConnection()
{
    // One read connection per thread (Qt Sql connections belong to the thread that made them).
    const QString name = m_readConnectionPrefix + QString::number(reinterpret_cast<quintptr>(QThread::currentThread()), 16);
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000;QSQLITE_OPEN_READONLY"));
    db.open();
    return db;
}

QList<GenerationRow> Store::generations(const HistoryFilter &filter, int limit, QString *error)
{
    QVariantList binds;
    const QString sql = QStringLiteral("SELECT * FROM generations") + whereFor(filter, binds)
                        + QStringLiteral(" ORDER BY created_at_ms DESC, id DESC LIMIT %1").arg(std::max(limit, 1));
    QSqlQuery q(readConnection());
    QList<GenerationRow> out;
    if (!run(q, sql, binds, error))
        return out;
    while (q.next())
        out << rowFrom(q);
    return out;
}

std::optional<GenerationRow> Store::generation(const QString &id, QString *error)
{
    QSqlQuery q(readConnection());
    if (!run(q, QStringLiteral("SELECT * FROM generations WHERE id = ?"), {id}, error) || !q.next())
        return std::nullopt;
    return rowFrom(q);
}

QList<QJsonObject> Store::events(const QString &generationId, QString *error)
{
    QSqlQuery q(readConnection());
    QList<QJsonObject> out;
    if (!run(q, QStringLiteral("SELECT body FROM events WHERE generation_id = ? ORDER BY seq"), {generationId}, error))
        return out;
    while (q.next())
        out << QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    return out;
}

QList<QJsonObject> Store::attempts(const QString &generationId, QString *error)
{
    QSqlQuery q(readConnection());
    QList<QJsonObject> out;
    if (!run(q, QStringLiteral("SELECT * FROM attempts WHERE generation_id = ? ORDER BY attempt_id"), {generationId}, error))
        return out;
    while (q.next()) {
        QJsonObject o;
        const QSqlRecord rec = q.record();
        for (int i = 0; i < rec.count(); ++i)
            o.insert(rec.fieldName(i), QJsonValue::fromVariant(q.value(i)));
        out << o;
    }
    return out;
}

QList<LatencySample> Store::latencySamples(const QString &provider, const QString &role, qint64 fromMs, qint64 toMs, QString *error,
                                          const QString &stage)
{
    QSqlQuery q(readConnection());
    QList<LatencySample> out;
    const bool ok = stage.isEmpty()
                        ? run(q,
                              QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND at_ms >= ? "
                                             "AND at_ms < ? ORDER BY at_ms"),
                              {provider, role, fromMs, toMs}, error)
                        : run(q,
                              QStringLiteral("SELECT at_ms, duration_ms, success FROM attempts WHERE provider = ? AND role = ? AND stage = ? "
                                             "AND at_ms >= ? AND at_ms < ? ORDER BY at_ms"),
                              {provider, role, stage, fromMs, toMs}, error);
    if (!ok)
        return out;
    while (q.next())
        out << LatencySample{q.value(0).toLongLong(), q.value(1).toDouble(), q.value(2).toInt() != 0};
    return out;
}

std::optional<qint64> Store::oldestGenerationMs(QString *error)
{
    const qint64 oldest = scalar(QStringLiteral("SELECT MIN(created_at_ms) FROM generations"), error);
    return oldest > 0 ? std::optional<qint64>(oldest) : std::nullopt;
}

QList<std::pair<QString, qint64>> Store::countBy(HistoryGroup group, const HistoryFilter &filter, QString *error)
{
    switch (group) {
    case HistoryGroup::PublicCode:
        return countBy(QStringLiteral("public_code"), filter, error);
    case HistoryGroup::Kind:
        return countBy(QStringLiteral("kind"), filter, error);
    case HistoryGroup::State:
        return countBy(QStringLiteral("state"), filter, error);
    }
    return {};
}

QList<std::pair<QString, qint64>> Store::countBy(const QString &column, const HistoryFilter &filter, QString *error)
{
    static const QStringList allowed{QStringLiteral("state"), QStringLiteral("public_code"), QStringLiteral("kind"), QStringLiteral("stage"),
                                     QStringLiteral("final_provider"), QStringLiteral("fallback_reason")};
    QList<std::pair<QString, qint64>> out;
    if (!allowed.contains(column)) {
        if (error)
            *error = QStringLiteral("cannot count by %1").arg(column);
        return out;
    }
    QVariantList binds;
    const QString sql = QStringLiteral("SELECT %1, COUNT(*) FROM generations").arg(column) + whereFor(filter, binds)
                        + QStringLiteral(" GROUP BY %1 ORDER BY COUNT(*) DESC").arg(column);
    QSqlQuery q(readConnection());
    if (!run(q, sql, binds, error))
        return out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toLongLong()});
    return out;
}

QList<Store::RateBucket> Store::fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error)
{
    QList<RateBucket> out;
    if (bucketMs <= 0)
        return out;
    // Integer division is portable (SQLite and PostgreSQL both truncate BIGINT / BIGINT).
    QSqlQuery q(readConnection());
    if (!run(q,
             QStringLiteral("SELECT (created_at_ms - ?) / ?, COUNT(*), SUM(fallback_applied) FROM generations "
                            "WHERE created_at_ms >= ? AND created_at_ms < ? GROUP BY (created_at_ms - ?) / ? ORDER BY 1"),
             {fromMs, bucketMs, fromMs, toMs, fromMs, bucketMs}, error))
        return out;
    while (q.next())
        out << RateBucket{fromMs + q.value(0).toLongLong() * bucketMs, q.value(1).toLongLong(), q.value(2).toLongLong()};
    return out;
}

QList<FallbackWait> Store::fallbackWaits(const QString &stage, qint64 fromMs, qint64 toMs, QString *error)
{
    // Two range scans of one covering index (relief attempts in the range, then the primary attempts
    // that can precede them) joined here by generation: at a million attempts this is several times
    // quicker than a join in SQL, whose per-row lookups land on random pages.
    QList<FallbackWait> out;
    QSqlQuery q(readConnection());
    const QString sql = QStringLiteral("SELECT at_ms, generation_id, provider, duration_ms, success FROM attempts "
                                       "WHERE role = ? AND stage = ? AND at_ms >= ? AND at_ms < ? ORDER BY role, stage, at_ms");
    if (!run(q, sql, {QStringLiteral("fallback"), stage, fromMs, toMs}, error))
        return out;
    QHash<QString, qsizetype> waiting; // generation → index in out
    while (q.next()) {
        FallbackWait w;
        w.atMs = q.value(0).toLongLong();
        w.fallbackProvider = q.value(2).toString();
        w.fallbackMs = q.value(3).toDouble();
        w.fallbackSucceeded = q.value(4).toInt() != 0;
        waiting.insert(q.value(1).toString(), out.size());
        out << w;
    }
    if (out.isEmpty())
        return out;
    // A primary attempt ends before its relief starts: no stage runs longer than an hour.
    QSqlQuery p(readConnection());
    if (!run(p, sql, {QStringLiteral("primary"), stage, fromMs - 3'600'000, toMs}, error))
        return {};
    while (p.next()) {
        const auto it = waiting.constFind(p.value(1).toString());
        if (it == waiting.constEnd())
            continue;
        FallbackWait &w = out[*it];
        if (p.value(0).toLongLong() > w.atMs)
            continue;
        w.primaryMs += p.value(3).toDouble();
        if (w.primaryProvider.isEmpty())
            w.primaryProvider = p.value(2).toString();
    }
    return out;
}

qint64 Store::count(const HistoryFilter &filter, QString *error)
{
    QVariantList binds;
    QSqlQuery q(readConnection());
    if (!run(q, QStringLiteral("SELECT COUNT(*) FROM generations") + whereFor(filter, binds), binds, error) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

void Store::recordComparison(const ComparisonRow &c, const QString &primaryGenerationId, const QString &fallbackGenerationId)
{
    if (m_writer)
        m_writer->enqueue(StoreWriter::Comparison{c.id, c.createdAtMs, c.primaryProvider, c.fallbackProvider, primaryGenerationId,
                                              fallbackGenerationId, QJsonDocument(c.body).toJson(QJsonDocument::Compact)});
}

namespace {

ComparisonRow comparisonFrom(const QSqlQuery &q)
{
    return ComparisonRow{q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
                         QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object()};
}

} // namespace

QList<ComparisonRow> Store::comparisons(int limit, std::optional<qint64> beforeMs, const QString &beforeId, QString *error)
{
    QList<ComparisonRow> out;
    QSqlQuery q(readConnection());
    QVariantList binds;
    QString where;
    if (beforeMs) {
        where = QStringLiteral(" WHERE (created_at_ms < ? OR (created_at_ms = ? AND id < ?))");
        binds << *beforeMs << *beforeMs << beforeId;
    }
    if (!run(q,
             QStringLiteral("SELECT id, created_at_ms, primary_provider, fallback_provider, body FROM comparisons") + where
                 + QStringLiteral(" ORDER BY created_at_ms DESC, id DESC LIMIT %1").arg(std::max(limit, 1)),
             binds, error))
        return out;
    while (q.next())
        out << comparisonFrom(q);
    return out;
}

std::optional<ComparisonRow> Store::comparison(const QString &id, QString *error)
{
    QSqlQuery q(readConnection());
    if (!run(q, QStringLiteral("SELECT id, created_at_ms, primary_provider, fallback_provider, body FROM comparisons WHERE id = ?"), {id},
             error)
        || !q.next())
        return std::nullopt;
    return comparisonFrom(q);
}

void Store::releaseThreadConnection()
{
    const QString name = m_readConnectionPrefix + QString::number(reinterpret_cast<quintptr>(QThread::currentThread()), 16);
    if (!QSqlDatabase::contains(name))
        return;
    QSqlDatabase::database(name, false).close();
    QSqlDatabase::removeDatabase(name);
}

qint64 Store::scalar(const QString &sql, QString *error)
{
    QSqlQuery q(readConnection());
    if (!run(q, sql, {}, error) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

int Store::orphanedRunning()
{
    QSqlQuery q(readConnection());
    if (!q.exec(QStringLiteral("SELECT owner FROM generations WHERE state = 'running'")))
        return -1;
    int n = 0;
    while (q.next())
        n += Owner::isAlive(q.value(0).toString()) ? 0 : 1;
    return n;
}

QString Store::integrityCheck()
{
    QSqlQuery q(readConnection());
    if (!q.exec(QStringLiteral("PRAGMA integrity_check")) || !q.next())
        return q.lastError().text();
    return q.value(0).toString();
}

} // namespace bullpen
