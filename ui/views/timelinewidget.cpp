// SPDX-License-Identifier: MIT
#include "timelinewidget.h"

#include "charts.h"
#include "contract/recordtext.h"
#include "models/units.h"
#include "models/words.h"
#include "tones.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <map>

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
    for (const auto &[r, tip] : m_tips) {
        if (r.adjusted(-2, -2, 2, 2).contains(pos))
            return tip;
    }
    return {};
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
    const QColor kFail = tones::color(tones::Tone::Failure);
    const QColor kFallback = tones::color(tones::Tone::Warning);
    const QColor kGrid = tones::color(tones::Tone::Muted);
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    m_tips.clear();
    m_deadlineLabels = 0;
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
        QString tip;
    };
    std::vector<Span> spans;
    std::map<quint64, std::size_t> byAttempt;
    double budget = 0, fallbackAt = -1, end = 0;
    QString skipped; // the primary was skipped (open breaker or drain): why, for the mark's tooltip
    double budgetFrom = 0; // the storyboard budget starts at admission when it had to wait
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
            Span span { QStringLiteral("%1 %2").arg(words::stage(s->stage), toId(s->provider))
                            + (s->round > 1 ? QStringLiteral(" r%1").arg(s->round) : QString()),
                        ms(e.at),
                        -1,
                        ms(s->deadline),
                        -1,
                        false,
                        false,
                        false,
                        QString(),
                        QString() };
            span.tip = tr("<b>%1</b> %2 · %3 · round %4<br>running")
                           .arg(toId(s->provider), s->model.toHtmlEscaped(), s->role == Role::Primary ? tr("primary") : tr("fallback"))
                           .arg(s->round)
                + (s->deadline.count() > 0 ? tr(" · deadline at %1").arg(units::duration(ms(s->deadline))) : QString());
            spans.push_back(span);
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
                const QLocale l;
                QStringList lines;
                lines << tr("<b>%1</b> %2 · %3 · round %4")
                             .arg(toId(c->provider), c->model.toHtmlEscaped(), c->role == Role::Primary ? tr("primary") : tr("fallback"))
                             .arg(c->round);
                lines << (c->success ? tr("succeeded") : tr("failed: %1").arg(sp.kind))
                        + (c->httpStatus ? tr(" · HTTP %1").arg(*c->httpStatus) : tr(" · no HTTP status"))
                        + (c->abortedBy != AbortReason::None ? tr(" · aborted: %1").arg(enumName(c->abortedBy).toLower()) : QString());
                lines << tr("took %1").arg(units::duration(ms(c->duration)))
                        + (sp.deadline > 0 ? tr(" · deadline at %1").arg(units::duration(sp.deadline)) : QString());
                if (c->tokens.known())
                    lines << tr("tokens in %1 / out %2")
                                 .arg(c->tokens.input >= 0 ? l.toString(c->tokens.input) : QStringLiteral("–"),
                                      c->tokens.output >= 0 ? l.toString(c->tokens.output) : QStringLiteral("–"));
                if (c->failure && !c->failure->detail.isEmpty())
                    lines << localizedRecordText(c->failure->detail).left(200).toHtmlEscaped();
                sp.tip = lines.join(QStringLiteral("<br>"));
            }
        } else if (std::holds_alternative<FallbackTriggered>(e.body)) {
            fallbackAt = ms(e.at);
        } else if (const auto *k = std::get_if<PrimarySkipped>(&e.body)) {
            fallbackAt = ms(e.at);
            skipped = tr("%1 was not called: %2").arg(toId(k->provider), localizedRecordText(k->why).toHtmlEscaped());
        } else if (std::holds_alternative<LateResultDiscarded>(e.body)) {
            lateAt << ms(e.at);
        } else if (std::holds_alternative<RetryScheduled>(e.body)) {
            retryAt << ms(e.at);
        }
    }
    // A running attempt's span reaches the clock's now, not only its last event (never past its deadline).
    if (const double now = liveNowMs(); now > end) {
        for (const Span &s : spans) {
            if (!s.done)
                end = std::max(end, s.deadline > 0 ? std::min(now, s.deadline) : now);
        }
    }
    // Scale to what happened: the last event, and the deadlines that actually bit (aborted attempts);
    // a far deadline of an attempt that ended early is marked at the edge instead.
    double visible = std::max(end, m_scaleAtLeast);
    for (const Span &s : spans) {
        if (s.aborted || !s.done)
            visible = std::max(visible, s.deadline);
    }
    const double scale = std::max(visible, 1.0) * 1.12;
    // The label column fits the longest label (and "budget …"), within reason.
    const QFontMetricsF fm(font());
    double labelW = fm.horizontalAdvance(tr("budget %1").arg(units::duration(budget)));
    for (const Span &s : spans)
        labelW = std::max(labelW, fm.horizontalAdvance(s.label));
    m_labelWidth = std::clamp(labelW + 12, 80.0, width() * 0.4);
    const QRectF area = QRectF(rect()).adjusted(m_labelWidth + 6, 26, -16, -28);
    auto x = [&](double t) {
        return area.left() + area.width() * t / scale;
    };

    // Axis and grid.
    p.setPen(kGrid);
    // A 1-2-5 step that gives at most 10 grid lines, whatever the span (42 ms or 120 s).
    double step = 1;
    for (double decade = 1; scale / step > 10; decade *= 10) {
        for (double m : { 1.0, 2.0, 5.0 }) {
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
        p.drawText(QRectF(x(t) - 40, area.bottom() + 4, 80, 18), Qt::AlignHCenter, units::onAxis(t, scale, step)); // one unit per axis
    }
    // Budget band, on the spans' scale: where it ends beyond the view, the band runs to the edge and
    // says where it ends.
    QRectF &endsLabel = m_endsLabel; // where "ends at …" was written: the fallback's label keeps clear of it
    endsLabel = QRectF();
    m_fallbackLabel = QRectF();
    if (budget > 0) {
        QColor band = tones::color(tones::Tone::Running);
        band.setAlpha(70);
        p.setPen(Qt::NoPen);
        p.setBrush(band);
        const double budgetEnd = budgetFrom + budget;
        const bool beyond = budgetEnd > scale;
        const QRectF bandRect(x(budgetFrom), area.top() - 18, (beyond ? area.right() : x(budgetEnd)) - x(budgetFrom), 10);
        p.drawRect(bandRect);
        m_tips << std::pair {
            bandRect,
            tr("Storyboard budget: %1 for primary and fallback together, from %2").arg(units::duration(budget), units::duration(budgetFrom))
        };
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(4, area.top() - 22, m_labelWidth, 16), Qt::AlignLeft, tr("budget %1").arg(units::duration(budget)));
        if (beyond) {
            const QString ends = tr("ends at %1 →").arg(units::duration(budgetEnd));
            const qreal w = p.fontMetrics().horizontalAdvance(ends) + 2;
            endsLabel = QRectF(area.right() - w, area.top() - 20, w, 12);
            p.drawText(endsLabel, Qt::AlignRight | Qt::AlignVCenter, ends);
        } else {
            p.setPen(QPen(band.darker(150), 2));
            p.drawLine(QPointF(x(budgetEnd), area.top() - 20), QPointF(x(budgetEnd), area.top() - 6));
        }
    }
    // Attempts.
    const double rowH = std::min(28.0, area.height() / std::max<std::size_t>(spans.size(), 1));
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span &s = spans[i];
        const double y = area.top() + static_cast<double>(i) * rowH;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(4, y, m_labelWidth, rowH), Qt::AlignVCenter | Qt::AlignLeft, s.label);
        const double stop = s.done ? s.end : end;
        const tones::Tone tone = !s.done ? tones::Tone::Running : s.success ? tones::Tone::Success : tones::Tone::Failure;
        const QRectF bar(x(s.start), y + rowH * 0.2, std::max(2.0, x(stop) - x(s.start)), rowH * 0.6);
        p.setPen(Qt::NoPen);
        p.setBrush(tones::color(tone));
        p.drawRoundedRect(bar, 3, 3);
        m_tips << std::pair { bar, s.tip };
        if (!s.kind.isEmpty()) {
            p.setPen(tones::onColor(tone));
            p.drawText(QRectF(x(s.start) + 4, y, std::max(0.0, x(stop) - x(s.start) - 6), rowH), Qt::AlignVCenter | Qt::AlignLeft, s.kind);
        }
        // The deadline matters where it bit or may still bite: a tick where it lies in view, or its
        // time at the edge, on aborted and running attempts only (not on one that ended by itself),
        // and never over a bar.
        const bool matters = !s.done || s.aborted;
        p.setPen(QPen(kFail, 2, Qt::DashLine));
        if (s.deadline <= 0 || !matters) {
            // Not known (a timeline rebuilt from stored attempt records), or an attempt that succeeded.
        } else if (s.deadline <= scale) {
            p.drawLine(QPointF(x(s.deadline), y + 2), QPointF(x(s.deadline), y + rowH - 2));
        } else {
            const QString text = tr("deadline %1 →").arg(units::duration(s.deadline));
            const double w = fm.horizontalAdvance(text) + 4;
            const QRectF label(area.right() - w, y, w, rowH);
            if (label.left() > bar.right() + 4) {
                p.setPen(kFail);
                p.drawText(label, Qt::AlignVCenter | Qt::AlignRight, text);
                ++m_deadlineLabels;
            }
        }
        // Cancel point: where the cancel handlers ran.
        if (s.cancelled >= 0) {
            p.setPen(QPen(palette().color(QPalette::Text), 2));
            const QPointF c0(x(s.cancelled), y + rowH / 2);
            p.drawLine(c0 + QPointF(-5, -5), c0 + QPointF(5, 5));
            p.drawLine(c0 + QPointF(-5, 5), c0 + QPointF(5, -5));
        }
    }
    // Waits for admission: Bullpen's own queue, before any budget ran.
    for (const auto &[from, until] : queued) {
        const double to = until < 0 ? end : until;
        p.setPen(Qt::NoPen);
        p.setBrush(QBrush(tones::color(tones::Tone::Own), Qt::BDiagPattern));
        p.drawRect(QRectF(x(from), area.top() - 6, std::max(2.0, x(to) - x(from)), area.height() + 6));
        p.setPen(tones::color(tones::Tone::Own));
        p.drawText(QRectF(x(from) + 2, area.bottom() - 18, 200, 16), Qt::AlignLeft, tr("queued (budget not started)"));
    }
    // The fallback moment stands out.
    if (fallbackAt >= 0) {
        p.setPen(QPen(kFallback, 3));
        p.drawLine(QPointF(x(fallbackAt), area.top() - 6), QPointF(x(fallbackAt), area.bottom()));
        const QString label = skipped.isEmpty() ? tr("fallback triggered") : tr("primary skipped");
        const qreal w = p.fontMetrics().horizontalAdvance(label) + 2;
        // Above the spans right of the line, else left of it (where the right would run into "ends at
        // …" or off the widget); under the spans where neither side has room above.
        const qreal line = x(fallbackAt);
        QRectF labelRect;
        for (const qreal top : { area.top() - 24, area.bottom() - 18 }) {
            for (const qreal left : { line + 4, line - 4 - w }) {
                const QRectF r(left, top, w, 16);
                if (labelRect.isNull() && !r.intersects(endsLabel) && r.left() >= area.left() && r.right() <= width())
                    labelRect = r;
            }
        }
        if (labelRect.isNull())
            labelRect = QRectF(line + 4, area.top() - 24, w, 16);
        p.drawText(labelRect, Qt::AlignLeft, label);
        m_fallbackLabel = labelRect;
        if (!skipped.isEmpty())
            m_tips << std::pair { labelRect, skipped };
    }
    for (double t : std::as_const(lateAt)) {
        p.setPen(QPen(kFail, 1));
        p.drawText(QPointF(x(t) - 3, area.bottom() - 4), QStringLiteral("✕"));
    }
    for (double t : std::as_const(retryAt)) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
        p.drawLine(QPointF(x(t), area.top()), QPointF(x(t), area.bottom()));
    }
}

} // namespace bullpen
