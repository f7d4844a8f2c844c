// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>

namespace bullpen {

// A desktop notification (freedesktop Notifications over the session bus) when a provider's health card
// turns *failing now* or one of its breakers opens (docs/contract.md §13): at most one per provider per
// five minutes, and none when the operator turned them off (Settings; QSettings
// "ui/notifications"). Without a session bus or a notification service nothing is shown and the
// console goes on.
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

Q_SIGNALS:
    void notified(bullpen::Provider provider, const QString &summary);

private:
    std::function<qint64()> m_clock;
    bool m_enabled = true;
    std::map<Provider, qint64> m_last; // when each provider's last notification went out
};

} // namespace bullpen
