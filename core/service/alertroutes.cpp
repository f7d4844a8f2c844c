// SPDX-License-Identifier: MIT
// EngineService's alerts (docs/api.md, "Alerts"): the shipped rules evaluated by this engine, their
// changes on the event stream, and GET /v1/alerts.
#include "engineservice.h"
#include "runtime/enginesetup.h"

#include <QJsonDocument>

namespace bullpen {

void EngineService::evaluateAlerts()
{
    AlertFacts facts;
    BreakerBoard &board = m_setup.engine().breakers();
    const Clock::time_point now = SteadyClock::instance().now();
    facts.breakers = board.breakers(now);
    facts.drains = board.drains();
    if (HistoryWrites *w = m_setup.historyWrites())
        facts.storeReachable = w->writeStats().unreachableSinceMs == 0;
    for (const Alert &a : m_alerts.evaluate(facts, now, QDateTime::currentDateTimeUtc())) {
        QJsonObject o = a.toJson();
        o.insert(QStringLiteral("type"), QString(QStringLiteral("alert_") + a.state));
        o.insert(QStringLiteral("instance"), m_options.instance);
        m_events.publishNotice(QStringLiteral("alert_") + a.state, QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
}

EngineService::Reply EngineService::alerts() const
{
    return json(200, m_alerts.toJson(m_options.instance));
}

} // namespace bullpen
