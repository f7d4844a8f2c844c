// SPDX-License-Identifier: MIT
#include "timelinelayout.h"

#include "contract/recordtext.h"
#include "models/units.h"
#include "models/words.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QLocale>

#include <map>

namespace bullpen {

namespace {

double ms(std::chrono::microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
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

// What the events say, in milliseconds since the generation started: read once, laid out after.
struct Story
{
    std::vector<Span> spans;
    double budget = 0, fallbackAt = -1, end = 0;
    QString skipped; // the primary was skipped (open breaker or drain): why, for the mark's tooltip
    double budgetFrom = 0; // the storyboard budget starts at admission when it had to wait
    std::vector<std::pair<double, double>> queued; // waits for admission: [from, until) (until < 0: still waiting)
    QList<double> lateAt, retryAt;
};

QString roleWord(Role role)
{
    return role == Role::Primary ? TimelineLayout::tr("primary") : TimelineLayout::tr("fallback");
}

Span startedSpan(const AttemptStarted &s, double at)
{
    Span span;
    span.label = QStringLiteral("%1 %2").arg(words::stage(s.stage), toId(s.provider))
        + (s.round > 1 ? QStringLiteral(" r%1").arg(s.round) : QString());
    span.start = at;
    span.deadline = ms(s.deadline);
    span.tip = TimelineLayout::tr("<b>%1</b> %2 · %3 · round %4<br>running")
                   .arg(toId(s.provider), s.model.toHtmlEscaped(), roleWord(s.role))
                   .arg(s.round)
        + (s.deadline.count() > 0 ? TimelineLayout::tr(" · deadline at %1").arg(units::duration(ms(s.deadline))) : QString());
    return span;
}

void complete(Span &sp, const AttemptCompleted &c, double at)
{
    sp.end = at;
    sp.success = c.success;
    sp.done = true;
    sp.aborted = c.abortedBy != AbortReason::None;
    sp.kind = c.failure ? enumName(c.failure->kind) : QString();
    if (c.cancelledAt)
        sp.cancelled = ms(*c.cancelledAt);
    const QLocale l;
    QStringList lines;
    lines
        << TimelineLayout::tr("<b>%1</b> %2 · %3 · round %4").arg(toId(c.provider), c.model.toHtmlEscaped(), roleWord(c.role)).arg(c.round);
    lines << (c.success ? TimelineLayout::tr("succeeded") : TimelineLayout::tr("failed: %1").arg(sp.kind))
            + (c.httpStatus ? TimelineLayout::tr(" · HTTP %1").arg(*c.httpStatus) : TimelineLayout::tr(" · no HTTP status"))
            + (c.abortedBy != AbortReason::None ? TimelineLayout::tr(" · aborted: %1").arg(enumName(c.abortedBy).toLower()) : QString());
    lines << TimelineLayout::tr("took %1").arg(units::duration(ms(c.duration)))
            + (sp.deadline > 0 ? TimelineLayout::tr(" · deadline at %1").arg(units::duration(sp.deadline)) : QString());
    if (c.tokens.known())
        lines << TimelineLayout::tr("tokens in %1 / out %2")
                     .arg(c.tokens.input >= 0 ? l.toString(c.tokens.input) : QStringLiteral("–"),
                          c.tokens.output >= 0 ? l.toString(c.tokens.output) : QStringLiteral("–"));
    if (c.failure && !c.failure->detail.isEmpty())
        lines << localizedRecordText(c.failure->detail).left(200).toHtmlEscaped();
    sp.tip = lines.join(QStringLiteral("<br>"));
}

Story read(const QList<Event> &events)
{
    Story s;
    std::map<quint64, std::size_t> byAttempt;
    for (const Event &e : events) {
        const double at = ms(e.at);
        s.end = std::max(s.end, at);
        if (const auto *g = std::get_if<GenerationStarted>(&e.body)) {
            s.budget = static_cast<double>(g->budget.count());
        } else if (std::holds_alternative<StageQueued>(e.body)) {
            s.queued.emplace_back(at, -1.0);
        } else if (const auto *a = std::get_if<StageAdmitted>(&e.body)) {
            if (!s.queued.empty())
                s.queued.back().second = at;
            if (a->stage == Stage::Storyboard)
                s.budgetFrom = at;
        } else if (const auto *st = std::get_if<AttemptStarted>(&e.body)) {
            byAttempt[st->attemptId] = s.spans.size();
            s.spans.push_back(startedSpan(*st, at));
        } else if (const auto *c = std::get_if<AttemptCompleted>(&e.body)) {
            if (const auto it = byAttempt.find(c->attemptId); it != byAttempt.end())
                complete(s.spans[it->second], *c, at);
        } else if (std::holds_alternative<FallbackTriggered>(e.body)) {
            s.fallbackAt = at;
        } else if (const auto *k = std::get_if<PrimarySkipped>(&e.body)) {
            s.fallbackAt = at;
            s.skipped = TimelineLayout::tr("%1 was not called: %2").arg(toId(k->provider), localizedRecordText(k->why).toHtmlEscaped());
        } else if (std::holds_alternative<LateResultDiscarded>(e.body)) {
            s.lateAt << at;
        } else if (std::holds_alternative<RetryScheduled>(e.body)) {
            s.retryAt << at;
        }
    }
    return s;
}

// Scale to what happened: the last event, and the deadlines that actually bit (aborted attempts);
// a far deadline of an attempt that ended early is marked at the edge instead. A running attempt's
// span reaches the clock's now, not only its last event (never past its deadline).
void fitScale(Story &s, TimelineLayout &l, const TimelineLayout::Inputs &in)
{
    if (in.nowMs > s.end) {
        for (const Span &sp : s.spans) {
            if (!sp.done)
                s.end = std::max(s.end, sp.deadline > 0 ? std::min(in.nowMs, sp.deadline) : in.nowMs);
        }
    }
    double visible = std::max(s.end, in.scaleAtLeast);
    for (const Span &sp : s.spans) {
        if (sp.aborted || !sp.done)
            visible = std::max(visible, sp.deadline);
    }
    l.scale = std::max(visible, 1.0) * 1.12;
    // The label column fits the longest label (and "budget …"), within reason.
    const QFontMetricsF fm(in.font);
    double labelW = fm.horizontalAdvance(TimelineLayout::tr("budget %1").arg(units::duration(s.budget)));
    for (const Span &sp : s.spans)
        labelW = std::max(labelW, fm.horizontalAdvance(sp.label));
    l.labelWidth = std::clamp(labelW + 12, 80.0, in.size.width() * 0.4);
    l.area = QRectF(QPointF(0, 0), in.size).adjusted(l.labelWidth + 6, 26, -16, -28);
}

void layGrid(TimelineLayout &l)
{
    // A 1-2-5 step that gives at most 10 grid lines, whatever the span (42 ms or 120 s).
    double step = 1;
    for (double decade = 1; l.scale / step > 10; decade *= 10) {
        for (double m : { 1.0, 2.0, 5.0 }) {
            step = m * decade;
            if (l.scale / step <= 10)
                break;
        }
    }
    for (double t = 0; t <= l.scale; t += step)
        l.grid.push_back({ QLineF(l.x(t), l.area.top(), l.x(t), l.area.bottom()), QRectF(l.x(t) - 40, l.area.bottom() + 4, 80, 18),
                           units::onAxis(t, l.scale, step) }); // one unit per axis
}

// The budget band, on the spans' scale: where it ends beyond the view, the band runs to the edge and
// says where it ends.
void layBudget(const Story &s, TimelineLayout &l, const QFontMetrics &fm)
{
    if (s.budget <= 0)
        return;
    TimelineLayout::Budget b;
    const double budgetEnd = s.budgetFrom + s.budget;
    const bool beyond = budgetEnd > l.scale;
    b.band = QRectF(l.x(s.budgetFrom), l.area.top() - 18, (beyond ? l.area.right() : l.x(budgetEnd)) - l.x(s.budgetFrom), 10);
    l.tips << std::pair { b.band,
                          TimelineLayout::tr("Storyboard budget: %1 for primary and fallback together, from %2")
                              .arg(units::duration(s.budget), units::duration(s.budgetFrom)) };
    b.captionRect = QRectF(4, l.area.top() - 22, l.labelWidth, 16);
    b.caption = TimelineLayout::tr("budget %1").arg(units::duration(s.budget));
    if (beyond) {
        b.ends = TimelineLayout::tr("ends at %1 →").arg(units::duration(budgetEnd));
        const qreal w = fm.horizontalAdvance(b.ends) + 2;
        b.endsRect = QRectF(l.area.right() - w, l.area.top() - 20, w, 12);
    } else {
        b.endMark = QLineF(l.x(budgetEnd), l.area.top() - 20, l.x(budgetEnd), l.area.top() - 6);
    }
    l.budget = b;
}

void layRows(const Story &s, TimelineLayout &l, const QFontMetricsF &fm)
{
    const double rowH = std::min(28.0, l.area.height() / std::max<std::size_t>(s.spans.size(), 1));
    for (std::size_t i = 0; i < s.spans.size(); ++i) {
        const Span &sp = s.spans[i];
        TimelineLayout::Row row;
        const double y = l.area.top() + static_cast<double>(i) * rowH;
        row.labelRect = QRectF(4, y, l.labelWidth, rowH);
        row.label = sp.label;
        const double stop = sp.done ? sp.end : s.end;
        row.tone = !sp.done ? tones::Tone::Running : sp.success ? tones::Tone::Success : tones::Tone::Failure;
        row.bar = QRectF(l.x(sp.start), y + rowH * 0.2, std::max(2.0, l.x(stop) - l.x(sp.start)), rowH * 0.6);
        l.tips << std::pair { row.bar, sp.tip };
        row.kind = sp.kind;
        row.kindRect = QRectF(l.x(sp.start) + 4, y, std::max(0.0, l.x(stop) - l.x(sp.start) - 6), rowH);
        // The deadline matters where it bit or may still bite: a tick where it lies in view, or its
        // time at the edge, on aborted and running attempts only (not on one that ended by itself),
        // and never over a bar. Not known at all on a timeline rebuilt from stored attempt records.
        const bool matters = !sp.done || sp.aborted;
        if (sp.deadline > 0 && matters && sp.deadline <= l.scale) {
            row.deadlineTick = QLineF(l.x(sp.deadline), y + 2, l.x(sp.deadline), y + rowH - 2);
        } else if (sp.deadline > 0 && matters) {
            const QString text = TimelineLayout::tr("deadline %1 →").arg(units::duration(sp.deadline));
            const double w = fm.horizontalAdvance(text) + 4;
            const QRectF label(l.area.right() - w, y, w, rowH);
            if (label.left() > row.bar.right() + 4) {
                row.deadlineLabelRect = label;
                row.deadlineLabel = text;
                ++l.deadlineLabels;
            }
        }
        // Cancel point: where the cancel handlers ran.
        if (sp.cancelled >= 0)
            row.cancelPoint = QPointF(l.x(sp.cancelled), y + rowH / 2);
        l.rows.push_back(row);
    }
}

// The fallback moment: its label above the spans right of the line, else left of it (where the right
// would run into "ends at …" or off the widget); under the spans where neither side has room above.
void layFallback(const Story &s, TimelineLayout &l, const QFontMetrics &fm, double width)
{
    if (s.fallbackAt < 0)
        return;
    TimelineLayout::Fallback f;
    const qreal line = l.x(s.fallbackAt);
    f.line = QLineF(line, l.area.top() - 6, line, l.area.bottom());
    f.label = s.skipped.isEmpty() ? TimelineLayout::tr("fallback triggered") : TimelineLayout::tr("primary skipped");
    const qreal w = fm.horizontalAdvance(f.label) + 2;
    const QRectF endsLabel = l.budget ? l.budget->endsRect : QRectF();
    for (const qreal top : { l.area.top() - 24, l.area.bottom() - 18 }) {
        for (const qreal left : { line + 4, line - 4 - w }) {
            const QRectF r(left, top, w, 16);
            if (f.labelRect.isNull() && !r.intersects(endsLabel) && r.left() >= l.area.left() && r.right() <= width)
                f.labelRect = r;
        }
    }
    if (f.labelRect.isNull())
        f.labelRect = QRectF(line + 4, l.area.top() - 24, w, 16);
    if (!s.skipped.isEmpty())
        l.tips << std::pair { f.labelRect, s.skipped };
    l.fallback = f;
}

} // namespace

TimelineLayout TimelineLayout::compute(const QList<Event> &events, const Inputs &inputs)
{
    TimelineLayout l;
    if (events.isEmpty())
        return l;
    l.empty = false;
    Story s = read(events);
    fitScale(s, l, inputs);
    layGrid(l);
    const QFontMetrics fm(inputs.font);
    layBudget(s, l, fm);
    layRows(s, l, QFontMetricsF(inputs.font));
    // Waits for admission: Bullpen's own queue, before any budget ran.
    for (const auto &[from, until] : s.queued) {
        const double to = until < 0 ? s.end : until;
        l.queued.push_back({ QRectF(l.x(from), l.area.top() - 6, std::max(2.0, l.x(to) - l.x(from)), l.area.height() + 6),
                             QRectF(l.x(from) + 2, l.area.bottom() - 18, 200, 16) });
    }
    layFallback(s, l, fm, inputs.size.width());
    for (double t : std::as_const(s.lateAt))
        l.lateMarks.push_back(QPointF(l.x(t) - 3, l.area.bottom() - 4));
    for (double t : std::as_const(s.retryAt))
        l.retryLines.push_back(QLineF(l.x(t), l.area.top(), l.x(t), l.area.bottom()));
    return l;
}

QString TimelineLayout::toolTipAt(const QPointF &pos) const
{
    for (const auto &[r, tip] : tips) {
        if (r.adjusted(-2, -2, 2, 2).contains(pos))
            return tip;
    }
    return {};
}

} // namespace bullpen
