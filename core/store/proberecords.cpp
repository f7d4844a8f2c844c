// SPDX-License-Identifier: MIT
#include "proberecords.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

#include <atomic>

namespace bullpen {

ProbeRecords::ProbeRecords(StoreLocation location, QString connectionName)
    : m_location(std::move(location))
    , m_connection(std::move(connectionName))
{
}

ProbeRecords::~ProbeRecords()
{
    StoreLocation::disconnect(m_connection);
}

std::unique_ptr<ProbeRecords> ProbeRecords::open(const StoreLocation &location, QString *error)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-probes-%1").arg(next++);
    QString why;
    {
        QSqlDatabase d = location.connect(name, StoreLocation::Access::ReadOnly, &why);
        if (why.isEmpty() && !d.record(QStringLiteral("attempts")).contains(QStringLiteral("synthetic")))
            why = QStringLiteral("the store has no probes yet (schema older than 11)");
    }
    if (!why.isEmpty()) {
        StoreLocation::disconnect(name);
        if (error)
            *error = QStringLiteral("%1: %2").arg(location.display(), why);
        return nullptr;
    }
    return std::unique_ptr<ProbeRecords>(new ProbeRecords(location, name));
}

bool ProbeRecords::reconnect(QString *error)
{
    m_leading = false;
    StoreLocation::disconnect(m_connection);
    QString why;
    m_location.connect(m_connection, StoreLocation::Access::ReadOnly, &why);
    if (!why.isEmpty() && error)
        *error = why;
    return why.isEmpty();
}

bool ProbeRecords::lead(QString *error)
{
    if (!m_location.isPostgres() || m_leading)
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.isOpen() && !reconnect(error))
        return false;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT pg_try_advisory_lock(%1)").arg(kLockKey)) || !q.next()) {
        if (error)
            *error = q.lastError().text();
        reconnect(nullptr); // asked again at the next tick, on a fresh connection
        return false;
    }
    m_leading = q.value(0).toBool();
    return m_leading;
}

std::optional<QSet<QString>> ProbeRecords::recentTraffic(qint64 sinceMs, qint64 untilMs, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT DISTINCT provider, role, stage FROM attempts WHERE at_ms >= ? AND at_ms <= ?"))) {
        if (error)
            *error = q.lastError().text();
        reconnect(nullptr); // on PostgreSQL the lock went with the connection: lead() asks again
        return std::nullopt;
    }
    q.addBindValue(sinceMs);
    q.addBindValue(untilMs);
    if (!q.exec()) {
        if (error)
            *error = q.lastError().text();
        reconnect(nullptr);
        return std::nullopt;
    }
    QSet<QString> out;
    while (q.next())
        out.insert(q.value(0).toString() + QLatin1Char('/') + q.value(1).toString() + QLatin1Char('/') + q.value(2).toString());
    return out;
}

} // namespace bullpen
