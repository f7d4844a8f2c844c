// SPDX-License-Identifier: MIT
#include "alertboard.h"

#include "contract/isotime.h"

#include <QJsonArray>

namespace bullpen {

namespace {

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

} // namespace

QJsonObject Alert::toJson() const
{
    QString runbook;
    for (const AlertRule &r : alertRules())
        if (rule == QLatin1StringView(r.name))
            runbook = r.runbookUrl();
    return QJsonObject {
        { QStringLiteral("rule"), rule },
        { QStringLiteral("severity"), severity },
        { QStringLiteral("labels"), labels },
        { QStringLiteral("state"), state },
        { QStringLiteral("value"), value },
        { QStringLiteral("active_at"), time(activeAt) },
        { QStringLiteral("fired_at"), time(firedAt) },
        { QStringLiteral("resolved_at"), time(resolvedAt) },
        { QStringLiteral("runbook_url"), runbook },
    };
}

std::vector<Alert> AlertBoard::evaluate(const AlertFacts &facts, Clock::time_point now, const QDateTime &wallNow)
{
    std::vector<Alert> changes;
    for (const AlertRule &rule : alertRules()) {
        if (!rule.active)
            continue;
        const QString name = QString::fromLatin1(rule.name);
        for (const AlertSample &s : rule.active(facts)) {
            auto [it, added] = m_active.try_emplace({ name, s.labels });
            Tracked &t = it->second;
            t.lastSeen = now;
            t.alert.value = s.value;
            if (added) {
                t.since = now;
                t.alert = Alert { name, QString::fromLatin1(rule.severity), s.labels, QStringLiteral("pending"), s.value, wallNow, {}, {} };
                changes.push_back(t.alert);
            }
        }
        // Pending ones that have held for `for` fire; ones no longer seen (beyond the hold) end.
        for (auto it = m_active.begin(); it != m_active.end();) {
            Tracked &t = it->second;
            if (it->first.first != name) {
                ++it;
                continue;
            }
            if (now - t.lastSeen > rule.hold || (t.lastSeen != now && rule.hold.count() == 0)) {
                if (t.alert.state == u"firing") {
                    t.alert.state = QStringLiteral("resolved");
                    t.alert.resolvedAt = wallNow;
                    changes.push_back(t.alert);
                    m_history.push_front(t.alert);
                    if (m_history.size() > size_t(kHistory))
                        m_history.pop_back();
                }
                it = m_active.erase(it);
                continue;
            }
            if (t.alert.state == u"pending" && now - t.since >= rule.forDuration) {
                t.alert.state = QStringLiteral("firing");
                t.alert.firedAt = wallNow;
                changes.push_back(t.alert);
            }
            ++it;
        }
    }
    return changes;
}

QJsonObject AlertBoard::toJson(const QString &instance) const
{
    QJsonArray active;
    for (const Alert &a : this->active())
        active.append(a.toJson());
    QJsonArray history;
    for (const Alert &a : m_history)
        history.append(a.toJson());
    QJsonArray rules;
    for (const AlertRule &r : alertRules())
        rules.append(
            QJsonObject { { QStringLiteral("name"), QString::fromLatin1(r.name) },
                          { QStringLiteral("severity"), QString::fromLatin1(r.severity) },
                          { QStringLiteral("for_s"), double(r.forDuration.count()) },
                          { QStringLiteral("evaluated_here"), bool(r.active) },
                          { QStringLiteral("elsewhere"), r.elsewhere ? QJsonValue(QString::fromLatin1(r.elsewhere)) : QJsonValue() },
                          { QStringLiteral("runbook_url"), r.runbookUrl() } });
    return QJsonObject { { QStringLiteral("instance"), instance },
                         { QStringLiteral("alerts"), active },
                         { QStringLiteral("history"), history },
                         { QStringLiteral("rules"), rules } };
}

std::vector<Alert> AlertBoard::active() const
{
    std::vector<Alert> out;
    for (const AlertRule &rule : alertRules())
        for (const auto &[key, t] : m_active)
            if (key.first == QLatin1StringView(rule.name))
                out.push_back(t.alert);
    return out;
}

} // namespace bullpen
