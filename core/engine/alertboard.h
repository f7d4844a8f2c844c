// SPDX-License-Identifier: MIT
#pragma once

#include "alertrules.h"
#include "clock.h"

#include <QDateTime>
#include <QJsonObject>

#include <deque>
#include <map>
#include <vector>

namespace bullpen {

// One alert: a rule's series, pending (active for less than its `for`), firing, or resolved.
struct Alert
{
    QString rule;
    QString severity;
    QString labels;
    QString state; // pending, firing, resolved
    double value = 0;
    QDateTime activeAt; // when its condition began to hold
    QDateTime firedAt; // firing and resolved: when it fired
    QDateTime resolvedAt; // resolved
    QJsonObject toJson() const;
};

// The engine's own evaluation of the shipped rules (docs/api.md, GET /v1/alerts), Prometheus's way:
// a series that holds becomes pending, fires once it has held for the rule's `for`, and is resolved
// when it stops holding (a pending one that stops is dropped, as Prometheus drops it). Durations are
// on the steady clock; wall time is only what is shown. The newest resolved alerts are kept.
class AlertBoard final
{
public:
    static constexpr int kHistory = 200;

    // The alerts that changed state at this evaluation, in rule order.
    std::vector<Alert> evaluate(const AlertFacts &facts, Clock::time_point now, const QDateTime &wallNow);
    std::vector<Alert> active() const; // pending and firing, in rule order
    const std::deque<Alert> &history() const { return m_history; } // resolved, newest first
    // GET /v1/alerts' answer: {"instance", "alerts", "history", "rules"}.
    QJsonObject toJson(const QString &instance) const;

private:
    struct Tracked
    {
        Alert alert;
        Clock::time_point since;
        Clock::time_point lastSeen;
    };
    std::map<std::pair<QString, QString>, Tracked> m_active; // (rule, labels)
    std::deque<Alert> m_history;
};

} // namespace bullpen
