// SPDX-License-Identifier: MIT
#include "silencerecords.h"

#include <QSqlDatabase>
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
    : m_channel(std::move(location), std::move(connectionName), kChannel, "silences")
{
}

SilenceRecords::~SilenceRecords() = default;

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
    const bool saved = [&] {
        QSqlDatabase db = QSqlDatabase::database(m_channel.connection(), false);
        if (!db.transaction()) {
            *error = db.lastError().text();
            return false;
        }
        QSqlQuery replaced(db);
        replaced.prepare(
            QStringLiteral("UPDATE alert_silences SET is_open = 0, ended_by = ?, ended_at_ms = ? WHERE rule = ? AND is_open = 1"));
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
        return true;
    }();
    if (!saved) {
        m_channel.renew();
        return false;
    }
    m_channel.notify();
    return true;
}

bool SilenceRecords::end(const QString &id, const QString &by, const QDateTime &at, QString *error)
{
    const std::optional<int> changed = close(id, by, at, error);
    if (changed && *changed > 0)
        m_channel.notify();
    return changed && *changed > 0; // 0: another engine ended it first, or it had run out
}

bool SilenceRecords::expire(const QString &id, QString *error)
{
    const std::optional<int> changed = close(id, std::nullopt, std::nullopt, error);
    if (changed && *changed > 0)
        m_channel.notify();
    return changed.has_value();
}

std::optional<int> SilenceRecords::close(const QString &id, const std::optional<QString> &by, const std::optional<QDateTime> &at,
                                         QString *error)
{
    std::optional<int> changed;
    {
        QSqlQuery q(QSqlDatabase::database(m_channel.connection(), false));
        // Ended early: who and when. Run out: neither (NULL).
        q.prepare(QStringLiteral("UPDATE alert_silences SET is_open = 0, ended_by = ?, ended_at_ms = ? WHERE id = ? AND is_open = 1"));
        q.addBindValue(by ? QVariant(*by) : QVariant(QMetaType::fromType<QString>()));
        q.addBindValue(at ? QVariant(at->toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qint64>()));
        q.addBindValue(id);
        if (q.exec())
            changed = q.numRowsAffected();
        else
            *error = q.lastError().text();
    }
    if (!changed)
        m_channel.renew();
    return changed;
}

std::vector<Silence> SilenceRecords::load(QString *error)
{
    std::vector<Silence> out;
    bool read = false;
    {
        QSqlQuery q(QSqlDatabase::database(m_channel.connection(), false));
        read = q.exec(QStringLiteral("SELECT id, rule, by_token, reason, since_ms, until_ms FROM alert_silences WHERE is_open = 1 "
                                     "ORDER BY since_ms, id"));
        if (!read)
            *error = q.lastError().text();
        while (read && q.next()) {
            Silence s;
            s.id = q.value(0).toString();
            s.rule = q.value(1).toString();
            s.by = q.value(2).toString();
            s.reason = q.value(3).toString();
            s.since = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
            s.until = QDateTime::fromMSecsSinceEpoch(q.value(5).toLongLong(), Qt::UTC);
            out.push_back(s);
        }
    }
    if (!read)
        m_channel.renew();
    return out;
}

bool SilenceRecords::listen(std::function<void()> changed)
{
    return m_channel.listen(std::move(changed));
}

} // namespace bullpen
