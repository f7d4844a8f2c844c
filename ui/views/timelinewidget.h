// SPDX-License-Identifier: MIT
#pragma once

#include "events/event.h"

#include <QList>
#include <QWidget>

namespace bullpen {

// One generation's timeline drawn to scale (SPEC 9.2): the storyboard budget, each attempt's span and
// deadline, the cancel point, the moment relief was triggered, late results discarded, retries, and
// the captions and image stages. Fed with the generation's events.
class TimelineWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);

    void setEvents(const QList<Event> &events);
    void clear() { setEvents({}); }
    QSize sizeHint() const override { return {720, 220}; }
    QSize minimumSizeHint() const override { return {360, 160}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Event> m_events;
};

} // namespace bullpen
