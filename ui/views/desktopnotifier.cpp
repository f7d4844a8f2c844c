// SPDX-License-Identifier: MIT
#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDateTime>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QSettings>
#include <QVariantMap>

#include <chrono>

Q_LOGGING_CATEGORY(lcNotify, "bullpen.notify")

namespace bullpen {

namespace {

const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");

} // namespace

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
    if (!send(summary, body, {}))
        return false;
    m_last[provider] = now;
    Q_EMIT notified(provider, summary);
    return true;
}

int DesktopNotifier::notifyAlerts(const QJsonObject &alerts, const QString &link)
{
    int raised = 0;
    for (const QJsonValue &v : alerts.value(QLatin1StringView("alerts")).toArray()) {
        const QJsonObject a = v.toObject();
        if (a.value(QLatin1StringView("state")).toString() != u"firing" || a.value(QLatin1StringView("silenced_until")).isString())
            continue;
        const QString rule = a.value(QLatin1StringView("rule")).toString();
        const QString labels = a.value(QLatin1StringView("labels")).toString();
        const QString key = rule + QLatin1Char('|') + labels + QLatin1Char('|') + a.value(QLatin1StringView("active_at")).toString();
        // Once per alert: switched off or without a service, it is not raised later either.
        if (!m_alertsShown.insert(key).second || !m_enabled)
            continue;
        const QString summary = labels.isEmpty() ? tr("Alert firing: %1").arg(rule) : tr("Alert firing: %1 (%2)").arg(rule, labels);
        const QString body =
            tr("Severity: %1. Open the Control view to silence it or to act.").arg(a.value(QLatin1StringView("severity")).toString());
        if (send(summary, body, link)) {
            ++raised;
            Q_EMIT alertNotified(rule, link);
        }
    }
    return raised;
}

bool DesktopNotifier::send(const QString &summary, const QString &body, const QString &link)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        qCDebug(lcNotify) << "no session bus; not shown:" << summary;
        return false;
    }
    QDBusMessage call = QDBusMessage::createMethodCall(kService, kPath, kService, QStringLiteral("Notify"));
    // With a link: a default action (a click on the notification) opens it.
    const QStringList actions = link.isEmpty() ? QStringList() : QStringList { QStringLiteral("default"), tr("Open") };
    call << QStringLiteral("Bullpen") << 0u << QStringLiteral("bullpen") << summary << body << actions << QVariantMap() << -1;
    if (link.isEmpty()) {
        // Asynchronous: a slow or missing notification service never holds the console.
        if (!bus.send(call)) {
            qCDebug(lcNotify) << "the notification could not be sent:" << bus.lastError().message();
            return false;
        }
        return true;
    }
    if (!m_listening) // ActionInvoked names its notification by id: listen before the first one with an action
        m_listening = bus.connect(kService, kPath, kService, QStringLiteral("ActionInvoked"), this, SLOT(onActionInvoked(uint, QString)));
    // Asynchronous too; the id that comes back is what a click names.
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, link](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<uint> reply = *w;
        if (reply.isError())
            qCDebug(lcNotify) << "the notification was not shown:" << reply.error().message();
        else
            m_links[reply.value()] = link;
    });
    return true;
}

void DesktopNotifier::onActionInvoked(uint id, const QString &action)
{
    const auto it = m_links.find(id);
    if (it == m_links.end() || action != u"default")
        return; // another program's notification, or not ours to open
    const QString link = it->second;
    m_links.erase(it);
    Q_EMIT linkActivated(link);
}

} // namespace bullpen
