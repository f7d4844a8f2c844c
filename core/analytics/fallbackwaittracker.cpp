// SPDX-License-Identifier: MIT
#include "fallbackwaittracker.h"

#include <QDateTime>

namespace bullpen {

void FallbackWaitTracker::setStage(Stage stage)
{
    if (stage != m_stage) {
        m_primaryOf.clear();
        m_skipped = 0;
    }
    m_stage = stage;
}

std::optional<FallbackWait> FallbackWaitTracker::add(const Event &event)
{
    const auto *a = std::get_if<AttemptCompleted>(&event.body);
    if (!a || a->stage != m_stage)
        return std::nullopt;
    const double ms = double(a->duration.count()) / 1000.0;
    if (a->role == Role::Primary) {
        if (m_primaryOf.size() > 10'000 && !m_primaryOf.contains(event.generationId))
            m_primaryOf.clear();
        PrimaryTime &t = m_primaryOf[event.generationId];
        t.provider = toId(a->provider);
        t.ms += ms;
        return std::nullopt;
    }
    if (a->role != Role::Fallback)
        return std::nullopt;
    const auto found = m_primaryOf.constFind(event.generationId);
    if (found == m_primaryOf.constEnd()) {
        ++m_skipped;
        return std::nullopt;
    }
    const PrimaryTime t = m_primaryOf.take(event.generationId);
    FallbackWait w;
    w.atMs = event.wallTime.isValid() ? event.wallTime.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
    w.primaryProvider = t.provider;
    w.fallbackProvider = toId(a->provider);
    w.primaryMs = t.ms;
    w.fallbackMs = ms;
    w.fallbackSucceeded = a->success;
    return w;
}

bool FallbackWaitTracker::concerns(const FallbackWait &wait, const QString &provider, const QString &role)
{
    return role == u"fallback" ? wait.fallbackProvider == provider : wait.primaryProvider == provider;
}

} // namespace bullpen
