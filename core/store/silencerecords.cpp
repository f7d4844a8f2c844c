// SPDX-License-Identifier: MIT
#include "silencerecords.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>

namespace bullpen {

namespace {

QString firstError(std::initializer_list<const QSqlQuery *> queries, const QSqlDatabase &db)
{
    for (const QSqlQuery *q : queries)
        if (q->lastError().isValid())
            return q->lastError().text();
    return db.lastError().text();
}

} // namespace

SilenceRecords::SilenceRecords(StoreLocation location, QString connectionName)
    : m_location(std::move(location))
    , m_connection(std::move(connectionName))
{
}

SilenceRecords::~SilenceRecords()
{
    StoreLocation::disconnect(m_connection);
}

std::unique_ptr<SilenceRecords> SilenceRecords::open(const StoreLocation &location, QString *error)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-silences-%1").arg(next++);
    QString why;
    bool ok = false;
    {
        QSqlDatabase d = location.connect(name, StoreLocation::Access::ReadWrite, &why);
        ok = why.isEmpty() && d.tables().contains(QStringLiteral("alert_silences"));
        if (why.isEmpty() && !ok)
            why = QStringLiteral("no alert_silences table");
    }
    if (!ok) {
        StoreLocation::disconnect(name);
        if (error)
            *error = QStringLiteral("%1: %2").arg(location.display(), why);
        return nullptr;
    }
    return std::unique_ptr<SilenceRecords>(new SilenceRecords(location, name));
}

bool SilenceRecords::save(const Silence &s, const QString &instance, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction()) {
        *error = db.lastError().text();
        return false;
    }
    QSqlQuery replaced(db);
    replaced.prepare(QStringLiteral("UPDATE alert_silences SET is_open = 0, ended_by = ?, ended_at_ms = ? WHERE rule = ? AND is_open = 1"));
    replaced.addBindValue(s.by);
    replaced.addBindValue(s.since.toMSecsSinceEpoch());
    replaced.addBindValue(s.rule);
    QSqlQuery ins(db);
    ins.prepare(QStringLiteral("INSERT INTO alert_silences (id, rule, by_token, reason, instance, since_ms, until_ms, is_open) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, 1)"));
    ins.addBindValue(s.id);
    ins.addBindValue(s.rule);
    ins.addBindValue(s.by);
    ins.addBindValue(s.reason);
    ins.addBindValue(instance.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(instance));
    ins.addBindValue(s.since.toMSecsSinceEpoch());
    ins.addBindValue(s.until.toMSecsSinceEpoch());
    if (!replaced.exec() || !ins.exec() || !db.commit()) {
        *error = firstError({ &replaced, &ins }, db);
        db.rollback();
        return false;
    }
    notify();
    return true;
}

bool SilenceRecords::end(const QString &id, const QString &by, const QDateTime &at, QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE alert_silences SET is_open = 0, ended_by = ?, ended_at_ms = ? WHERE id = ? AND is_open = 1"));
    q.addBindValue(by);
    q.addBindValue(at.toMSecsSinceEpoch());
    q.addBindValue(id);
    if (!q.exec()) {
        *error = q.lastError().text();
        return false;
    }
    if (q.numRowsAffected() < 1)
        return false; // another engine ended it first, or it had run out
    notify();
    return true;
}

bool SilenceRecords::expire(const QString &id, QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE alert_silences SET is_open = 0 WHERE id = ? AND is_open = 1"));
    q.addBindValue(id);
    if (!q.exec()) {
        *error = q.lastError().text();
        return false;
    }
    if (q.numRowsAffected() > 0)
        notify();
    return true;
}

std::vector<Silence> SilenceRecords::load(QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    std::vector<Silence> out;
    if (!q.exec(QStringLiteral("SELECT id, rule, by_token, reason, since_ms, until_ms FROM alert_silences WHERE is_open = 1 "
                               "ORDER BY since_ms, id"))) {
        *error = q.lastError().text();
        return out;
    }
    while (q.next()) {
        Silence s;
        s.id = q.value(0).toString();
        s.rule = q.value(1).toString();
        s.by = q.value(2).toString();
        s.reason = q.value(3).toString();
        s.since = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
        s.until = QDateTime::fromMSecsSinceEpoch(q.value(5).toLongLong(), Qt::UTC);
        out.push_back(s);
    }
    return out;
}

void SilenceRecords::notify()
{
    if (!m_location.isPostgres())
        return;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("NOTIFY %1").arg(QLatin1StringView(kChannel))))
        qWarning("bullpen: silence saved, but the other engines were not told at once (%s); they read it at their next evaluation",
                 qUtf8Printable(q.lastError().text()));
}

bool SilenceRecords::listen(std::function<void()> changed)
{
    if (!m_location.isPostgres())
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlDriver *driver = db.driver();
    if (!driver || !driver->subscribeToNotification(QLatin1StringView(kChannel)))
        return false;
    QObject::connect(driver, &QSqlDriver::notification, driver, [changed = std::move(changed)](const QString &name) {
        if (name == QLatin1StringView(kChannel))
            changed();
    });
    return true;
}

} // namespace bullpen
