// SPDX-License-Identifier: MIT
#include "store.h"

#include "storedatabase.h"
#include "storewriter.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QUuid>

namespace bullpen {

Store::Store(std::unique_ptr<StoreDatabase> db)
    : HistoryQueries(*db)
    , m_db(std::move(db))
    , m_cache(*m_db)
{
}

std::unique_ptr<Store> Store::openReadOnly(const QString &dataDir, QString *error)
{
    return openReadOnly(StoreLocation::sqliteIn(dataDir), error);
}

std::unique_ptr<Store> Store::open(const QString &dataDir, QString *error)
{
    return open(StoreLocation::sqliteIn(dataDir), error);
}

std::unique_ptr<Store> Store::openReadOnly(const StoreLocation &location, QString *error)
{
    std::unique_ptr<StoreDatabase> db = StoreDatabase::openReadOnly(location, error);
    if (!db)
        return nullptr;
    return std::unique_ptr<Store>(new Store(std::move(db)));
}

std::unique_ptr<Store> Store::open(const StoreLocation &location, QString *error)
{
    std::unique_ptr<StoreDatabase> db = StoreDatabase::open(location, error);
    if (!db)
        return nullptr;
    const QString path = db->path();
    std::unique_ptr<Store> store(new Store(std::move(db)));
    QString failure;
    Store *raw = store.get();
    store->m_writer = std::make_unique<StoreWriter>(
        location,
        [raw](const QString &why) {
            QMetaObject::invokeMethod(
                raw, [raw, why] { Q_EMIT raw->writeFailed(why); }, Qt::QueuedConnection);
        },
        [raw](const QStringList &ids) {
            QMetaObject::invokeMethod(
                raw, [raw, ids] { Q_EMIT raw->finalStatesCommitted(ids); }, Qt::QueuedConnection);
        },
        [raw](bool reachable, const QString &message) {
            QMetaObject::invokeMethod(
                raw, [raw, reachable, message] { Q_EMIT raw->reachabilityChanged(reachable, message); }, Qt::QueuedConnection);
        });
    if (!store->m_writer->start(&failure)) {
        *error = QStringLiteral("%1: the writer cannot open the store (%2)").arg(path, failure);
        return nullptr;
    }
    return store;
}

Store::~Store()
{
    m_writer.reset(); // writes what is queued, then stops; the database's read connections close after
}

QString Store::databasePath() const
{
    return m_db->path();
}
const StoreLocation &Store::storeLocation() const
{
    return m_db->location();
}
int Store::abandonedAtOpen() const
{
    return m_db->abandonedAtOpen();
}
int Store::orphanedRunning()
{
    return m_db->orphanedRunning();
}
qint64 Store::scalar(const QString &sql, QString *error)
{
    return m_db->scalar(sql, error);
}
QString Store::integrityCheck()
{
    return m_db->integrityCheck();
}

bool Store::adoptMaskingKey(const QString &fingerprint, QString *error)
{
    const QString name = QStringLiteral("bullpen-facts-") + QUuid::createUuid().toString(QUuid::Id128);
    QString kept;
    QString failure;
    {
        QSqlDatabase db = m_db->location().connect(name, StoreLocation::Access::ReadWrite, &failure);
        const auto read = [&] {
            QSqlQuery q(db);
            return StoreDatabase::run(q, QStringLiteral("SELECT value FROM store_facts WHERE name = 'masking_key_fingerprint'"), {},
                                      &failure)
                    && q.next()
                ? q.value(0).toString()
                : QString();
        };
        if (failure.isEmpty())
            kept = read();
        if (failure.isEmpty() && kept.isEmpty()) {
            // The first engine's key becomes the store's; two first engines racing: one INSERT wins,
            // the other reads what won.
            QSqlQuery insert(db);
            if (!StoreDatabase::run(insert, QStringLiteral("INSERT INTO store_facts (name, value) VALUES ('masking_key_fingerprint', ?)"),
                                    { fingerprint }, &failure))
                failure.clear();
            kept = read();
        }
    }
    StoreLocation::disconnect(name);
    if (!failure.isEmpty() || kept.isEmpty()) {
        *error = QStringLiteral("%1: cannot read the masking key's fingerprint (%2)").arg(databasePath(), failure);
        return false;
    }
    if (kept != fingerprint) {
        *error = QStringLiteral(
                     "%1 groups users with the masking key whose fingerprint is %2, and this engine's key has fingerprint %3; give every "
                     "engine sharing the store the same key file (BULLPEN_MASKING_KEY_FILE, mode 0600)")
                     .arg(databasePath(), kept, fingerprint);
        return false;
    }
    return true;
}

void Store::setIdentity(const QString &instance, const QString &version, const QString &url)
{
    m_instance = instance;
    if (m_writer)
        m_writer->setIdentity({ instance, version, url });
}

void Store::setLease(std::chrono::milliseconds lease)
{
    if (m_writer)
        m_writer->setLease(lease);
}

void Store::setRetention(const RetentionPolicy &policy, const QString &imagesDir)
{
    if (m_writer)
        m_writer->setRetention(policy, imagesDir);
}

RetentionStats Store::retentionStats() const
{
    return m_writer ? m_writer->counters().retention : RetentionStats {};
}

QString Store::instance() const
{
    return m_instance;
}

void Store::recordEvent(const Event &event)
{
    if (m_writer)
        m_writer->enqueue(event);
}

void Store::recordFinished(const StageResult &result, const QString &userKey, const QString &userMask, const FinishedExtras &extras)
{
    if (m_writer)
        m_writer->enqueue(StoreWriter::Finished { result, userKey, userMask, extras });
}

void Store::recordComparison(const ComparisonRow &c, const QString &primaryGenerationId, const QString &fallbackGenerationId)
{
    if (m_writer)
        m_writer->enqueue(StoreWriter::Comparison { c.id, c.createdAtMs, c.primaryProvider, c.fallbackProvider, primaryGenerationId,
                                                    fallbackGenerationId, QJsonDocument(c.body).toJson(QJsonDocument::Compact) });
}

std::optional<QJsonObject> Store::cachedResult(const QString &cacheKey, qint64 sinceMs, QString *error)
{
    return m_cache.lookup(cacheKey, sinceMs, error);
}

bool Store::flush(std::chrono::milliseconds timeout)
{
    return !m_writer || m_writer->flush(timeout);
}

Store::Stats Store::stats() const
{
    if (!m_writer)
        return {};
    const StoreWriter::Counters c = m_writer->counters();
    return Stats { c.queued, c.written, c.failed, c.finalStateConflicts, c.lastError, c.firstError, c.unreachableSinceMs, c.dropped };
}

} // namespace bullpen
