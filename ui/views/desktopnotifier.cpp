// SPDX-License-Identifier: MIT
#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDateTime>
#include <QLoggingCategory>
#include <QSettings>
#include <QVariantMap>

#include <chrono>

Q_LOGGING_CATEGORY(lcNotify, "bullpen.notify")

namespace bullpen {

DesktopNotifier::DesktopNotifier(QObject *parent)
    : QObject(parent)
    // Monotonic: a wall-clock step back must not silence a provider's notifications until it catches up.
    , m_clock(
          [] { return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count(); })
    , m_enabled(enabledInSettings())
{
}

bool DesktopNotifier::enabledInSettings()
{
    return QSettings().value(QStringLiteral("ui/notifications"), true).toBool();
}

void DesktopNotifier::setEnabledInSettings(bool enabled)
{
    QSettings().setValue(QStringLiteral("ui/notifications"), enabled);
}

QString DesktopNotifier::unavailableReason()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return tr("there is no session bus");
    const QString service = QStringLiteral("org.freedesktop.Notifications");
    QDBusConnectionInterface *names = bus.interface();
    if (!names || (!names->isServiceRegistered(service).value() && !names->activatableServiceNames().value().contains(service)))
        return tr("no notification service runs on this desktop");
    return {};
}

bool DesktopNotifier::notify(Provider provider, const QString &summary, const QString &body)
{
    if (!m_enabled)
        return false;
    const qint64 now = m_clock();
    if (const auto it = m_last.find(provider); it != m_last.end() && now - it->second < kQuietMs)
        return false;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        qCDebug(lcNotify) << "no session bus; not shown:" << summary;
        return false;
    }
    QDBusMessage call =
        QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
                                       QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
    call << QStringLiteral("Bullpen") << 0u << QStringLiteral("bullpen") << summary << body << QStringList() << QVariantMap() << -1;
    // Asynchronous: a slow or missing notification service never holds the console.
    if (!bus.send(call)) {
        qCDebug(lcNotify) << "the notification could not be sent:" << bus.lastError().message();
        return false;
    }
    m_last[provider] = now;
    Q_EMIT notified(provider, summary);
    return true;
}

} // namespace bullpen
