// SPDX-License-Identifier: MIT
// The timeline's layout (ui/views/timelinelayout.h) as a pure step apart from painting: the rows, the
// budget band, the fallback mark and the tooltip areas computed from events and a size, and the widget
// painting and answering tooltips from that same layout.
#include "views/timelinelayout.h"
#include "views/timelinewidget.h"

#include <QApplication>
#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

Event at(std::chrono::milliseconds t, EventBody body)
{
    Event e;
    e.generationId = QStringLiteral("gen_layout");
    e.at = t;
    e.body = std::move(body);
    return e;
}

AttemptStarted started(quint64 id, Provider provider, Role role, std::chrono::milliseconds deadline)
{
    return AttemptStarted { Stage::Storyboard, id, provider, QStringLiteral("m"), role, 1, deadline, deadline, {} };
}

AttemptCompleted completed(quint64 id, Provider provider, Role role, bool success, std::chrono::milliseconds took, AbortReason abort)
{
    AttemptCompleted c;
    c.attemptId = id;
    c.provider = provider;
    c.role = role;
    c.success = success;
    c.duration = took;
    c.abortedBy = abort;
    if (!success) {
        Failure f;
        f.kind = FailureKind::TIMEOUT;
        f.detail = QStringLiteral("no answer in time");
        c.failure = f;
    }
    return c;
}

// A storyboard whose primary timed out at its deadline and whose fallback then answered.
QList<Event> fellBack()
{
    GenerationStarted g;
    g.budget = 60s;
    return { at(0ms, g),
             at(0ms, started(1, Provider::Gemini, Role::Primary, 20'000ms)),
             at(20'000ms, completed(1, Provider::Gemini, Role::Primary, false, 20'000ms, AbortReason::Deadline)),
             at(20'000ms, FallbackTriggered {}),
             at(20'000ms, started(2, Provider::Qwen, Role::Fallback, 40'000ms)),
             at(26'000ms, completed(2, Provider::Qwen, Role::Fallback, true, 6'000ms, AbortReason::None)) };
}

const TimelineLayout::Inputs kInputs { QSizeF(900, 220), QFont(), 0, -1 };

} // namespace

class TimelineLayoutTest final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nothingToLayWithoutEvents()
    {
        const TimelineLayout l = TimelineLayout::compute({}, kInputs);
        QVERIFY(l.empty);
        QVERIFY(l.rows.empty());
        QVERIFY(l.tips.isEmpty());
    }

    // One row per attempt in the order they started, each bar on the time axis: the primary's bar ends
    // where the fallback's starts, both inside the area; the budget band and each bar carry a tooltip.
    void rowsBarsAndTipsFromTheEvents()
    {
        const TimelineLayout l = TimelineLayout::compute(fellBack(), kInputs);
        QVERIFY(!l.empty);
        QCOMPARE(l.rows.size(), std::size_t(2));
        QVERIFY(l.rows[0].label.contains(u"gemini"));
        QVERIFY(l.rows[1].label.contains(u"qwen"));
        QCOMPARE(l.rows[0].tone, tones::Tone::Failure);
        QCOMPARE(l.rows[1].tone, tones::Tone::Success);
        QCOMPARE(l.rows[0].bar.left(), l.x(0));
        QCOMPARE(l.rows[0].bar.right(), l.x(20'000));
        QCOMPARE(l.rows[1].bar.left(), l.x(20'000));
        QVERIFY(l.rows[1].bar.top() > l.rows[0].bar.bottom());
        for (const auto &row : l.rows)
            QVERIFY(l.area.contains(row.bar));
        QCOMPARE(l.rows[0].kind, QStringLiteral("TIMEOUT"));
        QVERIFY(l.budget);
        QCOMPARE(l.tips.size(), 3); // the budget band and two bars
        QVERIFY(l.toolTipAt(l.rows[0].bar.center()).contains(u"failed: TIMEOUT"));
        QVERIFY(l.toolTipAt(l.rows[1].bar.center()).contains(u"succeeded"));
        QVERIFY(l.toolTipAt(QPointF(l.area.right() - 1, l.area.bottom() - 1)).isEmpty());
        // The fallback line at the moment it was triggered, its label clear of "ends at …".
        QVERIFY(l.fallback);
        QCOMPARE(l.fallback->line.x1(), l.x(20'000));
        QVERIFY(!l.budget->endsRect.isNull() ? !l.fallback->labelRect.intersects(l.budget->endsRect) : true);
        // The deadline that bit (the aborted primary's) is a tick in view; the fallback's did not bite.
        QVERIFY(l.rows[0].deadlineTick);
        QVERIFY(!l.rows[1].deadlineTick && l.rows[1].deadlineLabel.isEmpty());
    }

    // A pure step: the same events and inputs give the same geometry, and a wider widget only stretches it.
    void sameInputsSameLayout()
    {
        const TimelineLayout a = TimelineLayout::compute(fellBack(), kInputs);
        const TimelineLayout b = TimelineLayout::compute(fellBack(), kInputs);
        QCOMPARE(a.tips, b.tips);
        QCOMPARE(a.area, b.area);
        TimelineLayout::Inputs wider = kInputs;
        wider.size.setWidth(1400);
        const TimelineLayout w = TimelineLayout::compute(fellBack(), wider);
        QCOMPARE(w.scale, a.scale);
        QVERIFY(w.rows[1].bar.width() > a.rows[1].bar.width());
    }

    // A far deadline of a running attempt is said at the edge, never over its bar; a scale asked for
    // (two timelines compared) widens what is shown.
    void farDeadlineAtTheEdgeAndScaleAtLeast()
    {
        GenerationStarted g;
        g.budget = 120s;
        const QList<Event> running { at(0ms, g), at(0ms, started(1, Provider::Gemini, Role::Primary, 90'000ms)) };
        TimelineLayout::Inputs in = kInputs;
        in.nowMs = 1'000;
        in.scaleAtLeast = 10'000;
        const TimelineLayout l = TimelineLayout::compute(running, in);
        QVERIFY(l.scale >= 90'000); // a running attempt's deadline may still bite: in view
        QVERIFY(l.rows[0].deadlineTick);
        in.scaleAtLeast = 0;
        QVERIFY(TimelineLayout::compute(running, in).scale >= 90'000);
    }

    // The widget paints the layout and answers tooltips from it: its tips are the layout's rectangles.
    void widgetPaintsAndAnswersFromTheLayout()
    {
        TimelineWidget timeline;
        timeline.resize(900, 220);
        timeline.setEvents(fellBack());
        timeline.grab(); // paints
        const TimelineLayout l = TimelineLayout::compute(fellBack(), { QSizeF(timeline.size()), timeline.font(), 0, -1 });
        QCOMPARE(timeline.tips(), l.tips);
        QCOMPARE(timeline.labelWidth(), l.labelWidth);
        QCOMPARE(timeline.toolTipAt(l.rows[0].bar.center()), l.toolTipAt(l.rows[0].bar.center()));
        QCOMPARE(timeline.fallbackLabelRect(), l.fallback->labelRect);
    }
};

QTEST_MAIN(TimelineLayoutTest)
#include "tst_timelinelayout.moc"
