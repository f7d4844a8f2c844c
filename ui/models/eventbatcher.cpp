// SPDX-License-Identifier: MIT
#include "eventbatcher.h"

namespace bullpen {

EventBatcher::EventBatcher(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(kFrameBudget);
    connect(&m_timer, &QTimer::timeout, this, &EventBatcher::flush);
}

void EventBatcher::add(const Event &event)
{
    m_pending.append(event);
    if (!m_timer.isActive())
        m_timer.start();
}

void EventBatcher::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return;
    QList<Event> batch;
    batch.swap(m_pending);
    Q_EMIT batchReady(batch);
}

} // namespace bullpen
