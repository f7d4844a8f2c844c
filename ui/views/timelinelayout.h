// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "tones.h"

#include <QCoreApplication>
#include <QFont>
#include <QLineF>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace bullpen {

// One generation's timeline as geometry (docs/contract.md §9.2), computed once from its events, the
// widget's size and font and the clock: TimelineWidget paints it and answers tooltips from it, so what
// is drawn and what a tooltip names are the same rectangles. A pure function of its inputs (the model:
// hotspot's timeline delegate), tested without painting (tst_timelinelayout).
struct TimelineLayout
{
    Q_DECLARE_TR_FUNCTIONS(bullpen::TimelineWidget)

public:
    struct Inputs
    {
        QSizeF size;
        QFont font;
        double scaleAtLeast = 0; // draw at least this many milliseconds across (0: fit)
        double nowMs = -1; // while the generation runs, milliseconds since it started by the clock; else -1
    };
    struct GridLine
    {
        QLineF line;
        QRectF textRect;
        QString text;
    };
    // One attempt: its label on the left, its bar, the failure kind on the bar, and its deadline (a
    // tick where it lies in view, else its time at the edge) and cancel point where they matter.
    struct Row
    {
        QRectF labelRect;
        QString label;
        QRectF bar;
        tones::Tone tone = tones::Tone::Running;
        QRectF kindRect;
        QString kind;
        std::optional<QLineF> deadlineTick;
        QRectF deadlineLabelRect;
        QString deadlineLabel;
        std::optional<QPointF> cancelPoint;
    };
    struct Budget
    {
        QRectF band;
        QRectF captionRect;
        QString caption;
        QRectF endsRect; // "ends at … →" where the budget ends beyond the view; else null
        QString ends;
        std::optional<QLineF> endMark; // where it ends in view
    };
    struct Queued
    {
        QRectF band;
        QRectF labelRect;
    };
    struct Fallback
    {
        QLineF line;
        QRectF labelRect;
        QString label;
    };

    static TimelineLayout compute(const QList<Event> &events, const Inputs &inputs);

    bool empty = true;
    double labelWidth = 0;
    QRectF area; // where the spans are drawn
    double scale = 1; // milliseconds across the area
    std::vector<GridLine> grid;
    std::optional<Budget> budget;
    std::vector<Row> rows;
    std::vector<Queued> queued;
    std::optional<Fallback> fallback;
    std::vector<QPointF> lateMarks; // late results discarded: a ✕ at each
    std::vector<QLineF> retryLines;
    // The budget band, each attempt's bar and the "primary skipped" mark, each with its tooltip.
    QList<std::pair<QRectF, QString>> tips;
    int deadlineLabels = 0;

    double x(double ms) const { return area.left() + area.width() * ms / scale; }
    // The tooltip at a point (a little slack around each rectangle); empty elsewhere.
    QString toolTipAt(const QPointF &pos) const;
};

} // namespace bullpen
