// SPDX-License-Identifier: MIT
#include "drainrecords.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>

namespace bullpen {

namespace {

QString any(const std::optional<QString> &id)
{
    return id.value_or(QStringLiteral("any"));
}

} // namespace

DrainRecords::DrainRecords(StoreLocation location, QString connectionName)
    : m_channel(std::move(location), std::move(connectionName), kChannel, "drains")
{
}

DrainRecords::~DrainRecords() = default;

std::unique_ptr<DrainRecords> DrainRecords::open(const StoreLocation &location, QString *error)
{
    static std::atomic<int> next { 0 };
    const QString name = QStringLiteral("bullpen-drains-%1").arg(next++);
    QString why;
    bool ok = false;
    {
        QSqlDatabase d = location.connect(name, StoreLocation::Access::ReadWrite, &why);
        ok = why.isEmpty() && d.tables().contains(QStringLiteral("drains"));
        if (why.isEmpty() && !ok)
            why = QStringLiteral("no drains table");
    }
    if (!ok) {
        StoreLocation::disconnect(name);
        if (error)
            *error = QStringLiteral("%1: %2").arg(location.display(), why);
        return nullptr;
    }
    return std::unique_ptr<DrainRecords>(new DrainRecords(location, name));
}

bool DrainRecords::save(const Drain &drain, const QString &instance, QString *error)
{
    if (!write(drain, instance, error)) {
        m_channel.renew();
        return false;
    }
    m_channel.notify();
    return true;
}

bool DrainRecords::write(const Drain &d, const QString &instance, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_channel.connection(), false);
    const QString role = any(d.role ? std::optional(toId(*d.role)) : std::nullopt);
    const QString stage = any(d.stage ? std::optional(toId(*d.stage)) : std::nullopt);
    if (!db.transaction()) {
        *error = db.lastError().text();
        return false;
    }
    QSqlQuery del(db);
    del.prepare(QStringLiteral("DELETE FROM drains WHERE provider = ? AND role = ? AND stage = ?"));
    del.addBindValue(toId(d.provider));
    del.addBindValue(role);
    del.addBindValue(stage);
    QSqlQuery ins(db);
    ins.prepare(QStringLiteral(
        "INSERT INTO drains (provider, role, stage, reason, by_token, instance, since_ms, until_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    ins.addBindValue(toId(d.provider));
    ins.addBindValue(role);
    ins.addBindValue(stage);
    ins.addBindValue(d.reason);
    ins.addBindValue(d.by);
    ins.addBindValue(instance.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(instance));
    ins.addBindValue(d.since.toMSecsSinceEpoch());
    ins.addBindValue(d.until ? QVariant(d.until->toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qint64>()));
    if (!del.exec() || !ins.exec() || !db.commit()) {
        *error = (del.lastError().isValid() ? del.lastError() : ins.lastError().isValid() ? ins.lastError() : db.lastError()).text();
        db.rollback();
        return false;
    }
    return true;
}

int DrainRecords::remove(Provider provider, const DrainScope &scope, QString *error)
{
    const std::optional<int> removed = erase(provider, scope, error);
    if (!removed) {
        m_channel.renew();
        return -1;
    }
    m_channel.notify();
    return *removed;
}

std::optional<int> DrainRecords::erase(Provider provider, const DrainScope &scope, QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_channel.connection(), false));
    // A drain of every role (or stage) is stored as "any": a scoped restore leaves it.
    q.prepare(QStringLiteral("DELETE FROM drains WHERE provider = ?") + (scope.role ? QStringLiteral(" AND role = ?") : QString())
              + (scope.stage ? QStringLiteral(" AND stage = ?") : QString()));
    q.addBindValue(toId(provider));
    if (scope.role)
        q.addBindValue(toId(*scope.role));
    if (scope.stage)
        q.addBindValue(toId(*scope.stage));
    if (!q.exec()) {
        *error = q.lastError().text();
        return std::nullopt;
    }
    return q.numRowsAffected();
}

bool DrainRecords::listen(std::function<void()> changed)
{
    return m_channel.listen(std::move(changed));
}

std::vector<Drain> DrainRecords::load(const QDateTime &now, QString *error)
{
    std::optional<std::vector<Drain>> drains = read(now, error);
    if (!drains) {
        m_channel.renew();
        return {};
    }
    return std::move(*drains);
}

std::optional<std::vector<Drain>> DrainRecords::read(const QDateTime &now, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_channel.connection(), false);
    QSqlQuery expire(db);
    expire.prepare(QStringLiteral("DELETE FROM drains WHERE until_ms IS NOT NULL AND until_ms <= ?"));
    expire.addBindValue(now.toMSecsSinceEpoch());
    QSqlQuery q(db);
    std::vector<Drain> out;
    if (!expire.exec()
        || !q.exec(QStringLiteral(
            "SELECT provider, role, stage, reason, by_token, since_ms, until_ms FROM drains ORDER BY provider, role, stage"))) {
        *error = (expire.lastError().isValid() ? expire.lastError() : q.lastError()).text();
        return std::nullopt;
    }
    while (q.next()) {
        const auto provider = providerFromStored(q.value(0).toString());
        if (!provider)
            continue; // a provider this build does not know: not ours to obey
        Drain d;
        d.provider = *provider;
        d.role = roleFromId(q.value(1).toString());
        d.stage = stageFromId(q.value(2).toString());
        d.reason = q.value(3).toString();
        d.by = q.value(4).toString();
        d.since = QDateTime::fromMSecsSinceEpoch(q.value(5).toLongLong(), Qt::UTC);
        if (!q.value(6).isNull())
            d.until = QDateTime::fromMSecsSinceEpoch(q.value(6).toLongLong(), Qt::UTC);
        out.push_back(d);
    }
    return out;
}

} // namespace bullpen
