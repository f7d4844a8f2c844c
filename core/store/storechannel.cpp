// SPDX-License-Identifier: MIT
#include "storechannel.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

namespace bullpen {

StoreChannel::StoreChannel(StoreLocation location, QString connectionName, const char *channel, const char *what)
    : m_location(std::move(location))
    , m_connection(std::move(connectionName))
    , m_channel(channel)
    , m_what(what)
{
}

StoreChannel::~StoreChannel()
{
    StoreLocation::disconnect(m_connection);
}

void StoreChannel::notify()
{
    if (!m_location.isPostgres())
        return;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("NOTIFY %1").arg(QLatin1StringView(m_channel))))
        qWarning("bullpen: %s saved, but the other engines were not told at once (%s); they read them at their next read", m_what,
                 qUtf8Printable(q.lastError().text()));
}

bool StoreChannel::listen(std::function<void()> changed)
{
    if (!m_location.isPostgres())
        return false;
    m_changed = std::move(changed);
    return subscribe();
}

bool StoreChannel::subscribe()
{
    QSqlDriver *driver = QSqlDatabase::database(m_connection, false).driver();
    if (!driver || !driver->subscribeToNotification(QLatin1StringView(m_channel)))
        return false;
    QObject::connect(driver, &QSqlDriver::notification, driver, [changed = m_changed, channel = m_channel](const QString &name) {
        if (name == QLatin1StringView(channel))
            changed();
    });
    return true;
}

void StoreChannel::renew()
{
    StoreLocation::disconnect(m_connection);
    QString why;
    m_location.connect(m_connection, StoreLocation::Access::ReadWrite, &why);
    if (why.isEmpty() && m_changed)
        subscribe();
}

} // namespace bullpen
