// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>

namespace bullpen {

// Collects engine events and hands them to the models in batches, at most once per frame budget, so
// that Generate ×200 never turns into a model update per event.
class EventBatcher final : public QObject
{
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kFrameBudget { 50 };

    explicit EventBatcher(QObject *parent = nullptr);

    void add(const Event &event);
    void flush();
    int pending() const { return static_cast<int>(m_pending.size()); }

Q_SIGNALS:
    void batchReady(const QList<bullpen::Event> &events);

private:
    QList<Event> m_pending;
    QTimer m_timer;
};

} // namespace bullpen
