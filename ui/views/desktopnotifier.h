// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <set>

namespace bullpen {

// A desktop notification (freedesktop Notifications over the session bus) when a provider's health card
// turns *failing now* or one of its breakers opens (docs/contract.md §13): at most one per provider per
// five minutes, and none when the operator turned them off (Settings; QSettings
// "ui/notifications"). An engine's alert that fires, its rule not silenced, raises one notification
// whose default action opens the alert's link (docs/contract.md §15, "Links"): linkActivated() carries
// it. Without a session bus or a notification service nothing is shown and the console goes on.
class DesktopNotifier final : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kQuietMs = 5 * 60 * 1000;

    explicit DesktopNotifier(QObject *parent = nullptr);

    // From the console's settings (on unless turned off).
    static bool enabledInSettings();
    static void setEnabledInSettings(bool enabled);

    // Tests pin time (ms, monotonic enough for a five-minute gap) and the switch.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }

    // Why no notification can be shown here (no session bus, no notification service on it); empty
    // when one can. Asks the bus (a local call).
    static QString unavailableReason();
    // True when the notification was handed to the bus; false when off, rate-limited or no service.
    bool notify(Provider provider, const QString &summary, const QString &body);
    // An engine's alerts in GET /v1/alerts' shape: each firing alert whose rule is not silenced and
    // that has not been shown yet (its rule, series and start) raises a notification opening `link`.
    // The number raised.
    int notifyAlerts(const QJsonObject &alerts, const QString &link);

Q_SIGNALS:
    void notified(bullpen::Provider provider, const QString &summary);
    void alertNotified(const QString &rule, const QString &link);
    // The operator clicked a notification of ours: open this link.
    void linkActivated(const QString &link);

private Q_SLOTS:
    // org.freedesktop.Notifications' ActionInvoked (D-Bus signals connect by name only).
    void onActionInvoked(uint id, const QString &action);

private:
    bool send(const QString &summary, const QString &body, const QString &link);
    bool m_listening = false;
    std::set<QString> m_alertsShown; // rule|labels|active_at of each alert notified
    std::map<uint, QString> m_links; // notification id -> the link its default action opens
    std::function<qint64()> m_clock;
    bool m_enabled = true;
    std::map<Provider, qint64> m_last; // when each provider's last notification went out
};

} // namespace bullpen
