// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "timelinelayout.h"

#include <QList>
#include <QTimer>
#include <QWidget>

class QPainter;

namespace bullpen {

// One generation's timeline drawn to scale (docs/contract.md §9.2): the storyboard budget, each attempt's span and
// deadline, the cancel point, the moment fallback was triggered, late results discarded, retries, and
// the captions and image stages. Fed with the generation's events; each paint lays them out once
// (TimelineLayout, a pure step tested on its own), then paints that layout and answers tooltips from it.
class TimelineWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);

    void setEvents(const QList<Event> &events);
    const QList<Event> &events() const { return m_events; }
    // Draw at least this many milliseconds across (two timelines compared on one scale); 0: fit.
    void setScaleAtLeast(double ms);
    // When the last event happened, in milliseconds from the generation's start.
    double contentMs() const;
    void clear() { setEvents({}); }
    QSize sizeHint() const override { return { 720, 220 }; }
    QSize minimumSizeHint() const override { return { 360, 110 }; } // four rows at 1024×700

    // What the tooltip says at a point (after the widget has been painted): an attempt's provider,
    // model, role, round, result (kind, HTTP status), duration, deadline and tokens; empty elsewhere.
    QString toolTipAt(const QPointF &pos) const;
    // The width given to the labels on the left: the longest label's, within [80, 40 % of the width].
    double labelWidth() const { return m_layout.labelWidth; }
    // Deadline labels drawn in the last paint (for tests: never on a successful attempt, never on a bar).
    int deadlineLabelsDrawn() const { return m_layout.deadlineLabels; }
    // The budget band and each attempt's bar with its tooltip, as last painted.
    const QList<std::pair<QRectF, QString>> &tips() const { return m_layout.tips; }
    // Where "fallback triggered" (or "primary skipped") and "ends at …" were written in the last paint
    // (for tests: never over each other); empty when not drawn.
    QRectF fallbackLabelRect() const { return m_layout.fallback ? m_layout.fallback->labelRect : QRectF(); }
    QRectF budgetEndLabelRect() const { return m_layout.budget ? m_layout.budget->endsRect : QRectF(); }
    // The layout of the last paint.
    const TimelineLayout &layout() const { return m_layout; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    // Milliseconds since the generation started, by the clock, while it runs; -1 once it has finished.
    double liveNowMs() const;
    void paintBudget(QPainter &p, const TimelineLayout::Budget &budget) const;
    void paintRow(QPainter &p, const TimelineLayout::Row &row) const;
    void paintMarks(QPainter &p) const;
    QList<Event> m_events;
    QTimer m_tick;
    TimelineLayout m_layout; // of the last paint: what was drawn, and where each tooltip answers
    double m_scaleAtLeast = 0;
};

} // namespace bullpen
