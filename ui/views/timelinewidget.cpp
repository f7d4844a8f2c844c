// SPDX-License-Identifier: MIT
#include "timelinewidget.h"

#include "tones.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace bullpen {

namespace {

double ms(std::chrono::microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timeline"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    connect(&m_tick, &QTimer::timeout, this, qOverload<>(&QWidget::update));
}

void TimelineWidget::setEvents(const QList<Event> &events)
{
    m_events = events;
    // While the generation runs, its running attempts grow with the clock: redrawn five times a second.
    if (liveNowMs() >= 0)
        m_tick.start(200);
    else
        m_tick.stop();
    update();
}

double TimelineWidget::liveNowMs() const
{
    if (m_events.isEmpty() || std::holds_alternative<GenerationFinished>(m_events.constLast().body))
        return -1;
    const Event &first = m_events.constFirst();
    if (!first.wallTime.isValid())
        return -1;
    return double(QDateTime::currentMSecsSinceEpoch() - first.wallTime.toMSecsSinceEpoch()) + ms(first.at);
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

QString TimelineWidget::toolTipAt(const QPointF &pos) const
{
    return m_layout.toolTipAt(pos);
}

void TimelineWidget::setScaleAtLeast(double ms)
{
    m_scaleAtLeast = ms;
    update();
}

double TimelineWidget::contentMs() const
{
    double end = 0;
    for (const Event &e : m_events)
        end = std::max(end, ms(e.at));
    return end;
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    m_layout = TimelineLayout::compute(m_events, { QSizeF(size()), font(), m_scaleAtLeast, liveNowMs() });
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_layout.empty) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Select a generation to see its timeline."));
        return;
    }
    p.setFont(font());
    for (const TimelineLayout::GridLine &g : m_layout.grid) {
        p.setPen(tones::color(tones::Tone::Muted));
        p.drawLine(g.line);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(g.textRect, Qt::AlignHCenter, g.text);
    }
    if (m_layout.budget)
        paintBudget(p, *m_layout.budget);
    for (const TimelineLayout::Row &row : m_layout.rows)
        paintRow(p, row);
    paintMarks(p);
}

void TimelineWidget::paintBudget(QPainter &p, const TimelineLayout::Budget &b) const
{
    QColor band = tones::color(tones::Tone::Running);
    band.setAlpha(70);
    p.setPen(Qt::NoPen);
    p.setBrush(band);
    p.drawRect(b.band);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(b.captionRect, Qt::AlignLeft, b.caption);
    if (!b.endsRect.isNull())
        p.drawText(b.endsRect, Qt::AlignRight | Qt::AlignVCenter, b.ends);
    if (b.endMark) {
        p.setPen(QPen(band.darker(150), 2));
        p.drawLine(*b.endMark);
    }
}

void TimelineWidget::paintRow(QPainter &p, const TimelineLayout::Row &row) const
{
    const QColor fail = tones::color(tones::Tone::Failure);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(row.labelRect, Qt::AlignVCenter | Qt::AlignLeft, row.label);
    p.setPen(Qt::NoPen);
    p.setBrush(tones::color(row.tone));
    p.drawRoundedRect(row.bar, 3, 3);
    if (!row.kind.isEmpty()) {
        p.setPen(tones::onColor(row.tone));
        p.drawText(row.kindRect, Qt::AlignVCenter | Qt::AlignLeft, row.kind);
    }
    if (row.deadlineTick) {
        p.setPen(QPen(fail, 2, Qt::DashLine));
        p.drawLine(*row.deadlineTick);
    } else if (!row.deadlineLabel.isEmpty()) {
        p.setPen(fail);
        p.drawText(row.deadlineLabelRect, Qt::AlignVCenter | Qt::AlignRight, row.deadlineLabel);
    }
    if (row.cancelPoint) {
        p.setPen(QPen(palette().color(QPalette::Text), 2));
        const QPointF c0 = *row.cancelPoint;
        p.drawLine(c0 + QPointF(-5, -5), c0 + QPointF(5, 5));
        p.drawLine(c0 + QPointF(-5, 5), c0 + QPointF(5, -5));
    }
}

// Waits for admission, the fallback moment (it stands out), late results and retries, over the rows.
void TimelineWidget::paintMarks(QPainter &p) const
{
    const QColor fail = tones::color(tones::Tone::Failure);
    for (const TimelineLayout::Queued &q : m_layout.queued) {
        p.setPen(Qt::NoPen);
        p.setBrush(QBrush(tones::color(tones::Tone::Own), Qt::BDiagPattern));
        p.drawRect(q.band);
        p.setPen(tones::color(tones::Tone::Own));
        p.drawText(q.labelRect, Qt::AlignLeft, tr("queued (budget not started)"));
    }
    if (const auto &f = m_layout.fallback) {
        p.setPen(QPen(tones::color(tones::Tone::Warning), 3));
        p.drawLine(f->line);
        p.drawText(f->labelRect, Qt::AlignLeft, f->label);
    }
    for (const QPointF &at : m_layout.lateMarks) {
        p.setPen(QPen(fail, 1));
        p.drawText(at, QStringLiteral("✕"));
    }
    for (const QLineF &line : m_layout.retryLines) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
        p.drawLine(line);
    }
}

} // namespace bullpen
