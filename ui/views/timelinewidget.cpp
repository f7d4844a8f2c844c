// SPDX-License-Identifier: MIT
#include "timelinewidget.h"

#include <QPainter>
#include <QPainterPath>

#include <map>

namespace bullpen {

namespace {

double ms(std::chrono::microseconds us) { return static_cast<double>(us.count()) / 1000.0; }

const QColor kOk(0x2e, 0x8b, 0x57);
const QColor kFail(0xc0, 0x39, 0x2b);
const QColor kRelief(0xe6, 0x7e, 0x22);
const QColor kGrid(0xdd, 0xdd, 0xdd);

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timeline"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void TimelineWidget::setEvents(const QList<Event> &events)
{
    m_events = events;
    update();
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area = QRectF(rect()).adjusted(110, 26, -16, -28);
    if (m_events.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Select a generation to see its timeline."));
        return;
    }

    // Rows: one per (stage, role); x: time since the generation started.
    struct Span
    {
        QString label;
        double start = 0, end = -1, deadline = 0, cancelled = -1;
        bool success = false, aborted = false, done = false;
        QString kind;
    };
    std::vector<Span> spans;
    std::map<quint64, std::size_t> byAttempt;
    double budget = 0, fallbackAt = -1, end = 0;
    double budgetFrom = 0;                  // the storyboard budget starts at admission when it had to wait
    std::vector<std::pair<double, double>> queued; // waits for admission: [from, until) (until < 0: still waiting)
    QList<double> lateAt, retryAt;
    for (const Event &e : std::as_const(m_events)) {
        end = std::max(end, ms(e.at));
        if (const auto *g = std::get_if<GenerationStarted>(&e.body)) {
            budget = static_cast<double>(g->budget.count());
        } else if (std::holds_alternative<StageQueued>(e.body)) {
            queued.emplace_back(ms(e.at), -1.0);
        } else if (const auto *a = std::get_if<StageAdmitted>(&e.body)) {
            if (!queued.empty())
                queued.back().second = ms(e.at);
            if (a->stage == Stage::Storyboard)
                budgetFrom = ms(e.at);
        } else if (const auto *s = std::get_if<AttemptStarted>(&e.body)) {
            byAttempt[s->attemptId] = spans.size();
            spans.push_back(Span{QStringLiteral("%1 %2").arg(toId(s->stage), toId(s->provider)) + (s->round > 1 ? QStringLiteral(" r%1").arg(s->round) : QString()),
                                 ms(e.at), -1, ms(s->deadline), -1, false, false, false, QString()});
        } else if (const auto *c = std::get_if<AttemptCompleted>(&e.body)) {
            const auto it = byAttempt.find(c->attemptId);
            if (it != byAttempt.end()) {
                Span &sp = spans[it->second];
                sp.end = ms(e.at);
                sp.success = c->success;
                sp.done = true;
                sp.aborted = c->abortedBy != AbortReason::None;
                sp.kind = c->failure ? enumName(c->failure->kind) : QString();
                if (c->cancelledAt)
                    sp.cancelled = ms(*c->cancelledAt);
            }
        } else if (std::holds_alternative<FallbackTriggered>(e.body)) {
            fallbackAt = ms(e.at);
        } else if (std::holds_alternative<LateResultDiscarded>(e.body)) {
            lateAt << ms(e.at);
        } else if (std::holds_alternative<RetryScheduled>(e.body)) {
            retryAt << ms(e.at);
        }
    }
    // Scale to what happened: the last event, and the deadlines that actually bit (aborted attempts);
    // a far deadline of an attempt that ended early is marked at the edge instead.
    double visible = end;
    for (const Span &s : spans) {
        if (s.aborted || !s.done)
            visible = std::max(visible, s.deadline);
    }
    const double scale = std::max(visible, 1.0) * 1.12;
    auto x = [&](double t) { return area.left() + area.width() * t / scale; };

    // Axis and grid.
    p.setPen(kGrid);
    // A 1-2-5 step that gives at most 10 grid lines, whatever the span (42 ms or 120 s).
    double step = 1;
    for (double decade = 1; scale / step > 10; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            step = m * decade;
            if (scale / step <= 10)
                break;
        }
    }
    p.setFont(font());
    for (double t = 0; t <= scale; t += step) {
        p.setPen(kGrid);
        p.drawLine(QPointF(x(t), area.top()), QPointF(x(t), area.bottom()));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x(t) - 40, area.bottom() + 4, 80, 18), Qt::AlignHCenter, t >= 1000 ? tr("%1 s").arg(t / 1000.0) : tr("%1 ms").arg(t));
    }
    // Budget band.
    if (budget > 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x34, 0x98, 0xdb, 60));
        p.drawRect(QRectF(x(budgetFrom), area.top() - 18, std::min(x(budgetFrom + budget), area.right()) - x(budgetFrom), 10));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(4, area.top() - 22, 104, 16), Qt::AlignLeft, tr("budget %1 s").arg(budget / 1000.0));
    }
    // Attempts.
    const double rowH = std::min(28.0, area.height() / std::max<std::size_t>(spans.size(), 1));
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span &s = spans[i];
        const double y = area.top() + static_cast<double>(i) * rowH;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(4, y, 104, rowH), Qt::AlignVCenter | Qt::AlignLeft, s.label);
        const double stop = s.done ? s.end : end;
        const QColor c = !s.done ? QColor(0x34, 0x98, 0xdb) : s.success ? kOk : kFail;
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRoundedRect(QRectF(x(s.start), y + rowH * 0.2, std::max(2.0, x(stop) - x(s.start)), rowH * 0.6), 3, 3);
        if (!s.kind.isEmpty()) {
            p.setPen(Qt::white);
            p.drawText(QRectF(x(s.start) + 4, y, std::max(0.0, x(stop) - x(s.start) - 6), rowH), Qt::AlignVCenter | Qt::AlignLeft, s.kind);
        }
        // Deadline tick, or an arrow with its time when it lies beyond the view.
        p.setPen(QPen(kFail, 2, Qt::DashLine));
        if (s.deadline <= 0) {
            // Not known (a timeline rebuilt from stored attempt records): no tick.
        } else if (s.deadline <= scale) {
            p.drawLine(QPointF(x(s.deadline), y + 2), QPointF(x(s.deadline), y + rowH - 2));
        } else {
            p.setPen(kFail);
            p.drawText(QRectF(area.right() - 150, y, 150, rowH), Qt::AlignVCenter | Qt::AlignRight, tr("deadline %1 s →").arg(s.deadline / 1000.0, 0, 'f', 1));
        }
        // Cancel point: where the cancel handlers ran.
        if (s.cancelled >= 0) {
            p.setPen(QPen(Qt::black, 2));
            const QPointF c0(x(s.cancelled), y + rowH / 2);
            p.drawLine(c0 + QPointF(-5, -5), c0 + QPointF(5, 5));
            p.drawLine(c0 + QPointF(-5, 5), c0 + QPointF(5, -5));
        }
    }
    // Waits for admission: Bullpen's own queue, before any budget ran.
    for (const auto &[from, until] : queued) {
        const double to = until < 0 ? end : until;
        p.setPen(Qt::NoPen);
        p.setBrush(QBrush(QColor(0x7a, 0x5a, 0x00, 90), Qt::BDiagPattern));
        p.drawRect(QRectF(x(from), area.top() - 6, std::max(2.0, x(to) - x(from)), area.height() + 6));
        p.setPen(QColor(0x7a, 0x5a, 0x00));
        p.drawText(QRectF(x(from) + 2, area.bottom() - 18, 200, 16), Qt::AlignLeft, tr("queued (budget not started)"));
    }
    // The relief moment stands out.
    if (fallbackAt >= 0) {
        p.setPen(QPen(kRelief, 3));
        p.drawLine(QPointF(x(fallbackAt), area.top() - 6), QPointF(x(fallbackAt), area.bottom()));
        p.drawText(QRectF(x(fallbackAt) + 4, area.top() - 24, 160, 16), Qt::AlignLeft, tr("relief triggered"));
    }
    for (double t : std::as_const(lateAt)) {
        p.setPen(QPen(kFail, 1));
        p.drawText(QPointF(x(t) - 3, area.bottom() - 4), QStringLiteral("✕"));
    }
    for (double t : std::as_const(retryAt)) {
        p.setPen(QPen(Qt::darkGray, 1, Qt::DotLine));
        p.drawLine(QPointF(x(t), area.top()), QPointF(x(t), area.bottom()));
    }
}

} // namespace bullpen
