// SPDX-License-Identifier: MIT
// The live view's models: QAbstractItemModelTester throughout; a burst of 10,000 events
// lands whole, in order, with batched inserts and no reset.
#include "engine/admission.h"
#include "engine/manualclock.h"
#include "engine/stageservice.h"
#include "history/historyreader.h"
#include "models/eventbatcher.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "models/units.h"
#include "models/words.h"
#include "scriptedgenerator.h"
#include "views/charts.h"
#include "views/liveview.h"
#include "views/timelinewidget.h"
#include "views/tones.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QHeaderView>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStyle>
#include <QTableView>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

// Real engine events: n generations, a third answered by the fallback, a third failing, on a manual clock.
QList<Event> engineEvents(int generations)
{
    QList<Event> events;
    runMixedGenerations(generations, [&](const Event &e) { events << e; });
    return events;
}

} // namespace

class tst_LiveModels : public QObject
{
    Q_OBJECT
    // Gemini's first storyboard attempt as primary, its deadline `timeout` after the start.
    static AttemptStarted primaryStarted(std::chrono::milliseconds timeout)
    {
        return AttemptStarted { Stage::Storyboard, 1, Provider::Gemini, QStringLiteral("m"), Role::Primary, 1, timeout, timeout, {} };
    }

private Q_SLOTS:
    // One way to say a duration (docs/console.md, Units): ms under a second, one decimal of seconds under
    // a minute, then minutes and seconds; in Korean the same steps in Korean units. Event lines use it.
    // A timeline rebuilt from attempt rows (the event log purged) has no budget, deadlines or budget
    // left: its lines say so instead of "budget 0 ms", "deadline at 0 ms", "0 ms of budget left".
    void rebuiltTimelineSaysWhatIsNotRecorded()
    {
        GenerationRow row;
        row.id = QStringLiteral("gen_rebuilt");
        row.createdAtMs = 1'000'000;
        row.policy = QStringLiteral("relief");
        row.state = QStringLiteral("failed");
        row.kind = QStringLiteral("TIMEOUT");
        row.stage = QStringLiteral("storyboard");
        row.primaryProvider = QStringLiteral("gemini");
        row.fallbackProvider = QStringLiteral("qwen");
        row.fallbackReason = QStringLiteral("gemini_timeout");
        row.elapsedMs = 120'000;
        const auto attempt = [](const char *provider, const char *role, qint64 atMs, double durationMs) {
            return QJsonObject { { QStringLiteral("provider"), QLatin1StringView(provider) },
                                 { QStringLiteral("role"), QLatin1StringView(role) },
                                 { QStringLiteral("stage"), QStringLiteral("storyboard") },
                                 { QStringLiteral("attempt_id"), atMs },
                                 { QStringLiteral("at_ms"), atMs },
                                 { QStringLiteral("duration_ms"), durationMs },
                                 { QStringLiteral("success"), 0 },
                                 { QStringLiteral("kind"), QStringLiteral("TIMEOUT") } };
        };
        const QList<Event> events = HistoryReader::eventsFromAttempts(
            row, { attempt("gemini", "primary", 1'060'000, 60'000), attempt("qwen", "fallback", 1'120'000, 60'000) });
        QStringList lines;
        for (const Event &e : events)
            lines << EventLogModel::summary(e);
        const QString all = lines.join(u'\n');
        QVERIFY2(!all.contains(u"0 ms") && all.contains(u"budget not recorded"), qPrintable(all));
        QVERIFY2(all.contains(u"gemini → qwen on TIMEOUT (gemini_timeout)"), qPrintable(all));
    }

    // A count axis ticks at whole numbers (max 1 once read "0 0 1 2"); an empty chart says why in it.
    void countAxesTickAtWholeNumbers()
    {
        QChartView &view = *charts::makeView(QStringLiteral("Count by kind"), nullptr);
        const std::unique_ptr<QChartView> owner(&view);
        for (const qint64 max : { 1, 2, 3, 5, 17, 100, 12345 }) {
            charts::setBars(&view, { { QStringLiteral("TIMEOUT"), max }, { QStringLiteral("NETWORK"), 1 } }, Qt::red, QString(), {});
            const auto axes = view.chart()->axes(Qt::Horizontal);
            QCOMPARE(axes.size(), 1);
            const auto *x = qobject_cast<QValueAxis *>(axes.first());
            const double step = (x->max() - x->min()) / (x->tickCount() - 1);
            QVERIFY2(step >= 1 && step == std::floor(step) && x->max() > double(max) && x->tickCount() <= 5,
                     qPrintable(QStringLiteral("max %1: %2 ticks to %3").arg(max).arg(x->tickCount()).arg(x->max())));
        }
        charts::setBars(&view, {}, Qt::red, QStringLiteral("No generations match"), {});
        QCOMPARE(view.chart()->title(), QStringLiteral("No generations match"));
        charts::setBars(&view, { { QStringLiteral("TIMEOUT"), 3 } }, Qt::red, QStringLiteral("No generations match"), {});
        QCOMPARE(view.chart()->title(), QStringLiteral("Count by kind")); // its own title again
    }

    // Text in a tone reads on the window in both palettes: WCAG 4.5:1 (the light palette's orange,
    // blue and green were 3.5–4.1:1, a dark note 3.9:1).
    void toneTextHasContrast()
    {
        const QPalette light = QApplication::style()->standardPalette();
        const auto restore = qScopeGuard([] { QApplication::setPalette(QApplication::style()->standardPalette()); });
        for (const QPalette &palette : { light, tones::darkPalette() }) {
            QApplication::setPalette(palette);
            for (int t = 0; t <= int(tones::Tone::Changed); ++t) {
                const auto tone = static_cast<tones::Tone>(t);
                const double ratio = tones::contrast(tones::textColor(tone), palette.color(QPalette::Window));
                QVERIFY2(ratio >= 4.5,
                         qPrintable(QStringLiteral("%1 palette, tone %2: %3:1")
                                        .arg(tones::isDark() ? u"dark" : u"light")
                                        .arg(t)
                                        .arg(ratio, 0, 'f', 2)));
            }
        }
        // Quiet notes (the placeholder colour) in the dark palette too.
        QVERIFY(tones::contrast(tones::darkPalette().color(QPalette::PlaceholderText), tones::darkPalette().color(QPalette::Window))
                >= 4.5);
    }

    // A running attempt's span grows with the clock between events (it stayed at its start), and stops
    // once the generation has finished.
    void runningSpanGrowsWithTheClock()
    {
        TimelineWidget timeline;
        timeline.resize(900, 200);
        const auto spanWidth = [&timeline](qint64 startedMsAgo) {
            QList<Event> events;
            Event started;
            started.generationId = QStringLiteral("gen_live");
            started.wallTime = QDateTime::currentDateTimeUtc().addMSecs(-startedMsAgo);
            GenerationStarted g;
            g.budget = std::chrono::milliseconds(120'000);
            started.body = g;
            Event attempt = started;
            attempt.sequence = 1;
            attempt.body = primaryStarted(std::chrono::milliseconds(60'000));
            events << started << attempt;
            timeline.setScaleAtLeast(10'000); // one scale for both pictures
            timeline.setEvents(events);
            timeline.grab(); // paints
            for (const auto &[rect, tip] : timeline.tips()) {
                if (tip.contains(u"running"))
                    return rect.width();
            }
            return -1.0;
        };
        const double early = spanWidth(1'000), later = spanWidth(4'000);
        QVERIFY2(later > early * 2, qPrintable(QStringLiteral("%1 px after 1 s, %2 px after 4 s").arg(early).arg(later)));
    }

    void durationsAreSaidOneWay()
    {
        QCOMPARE(units::duration(0.4), QStringLiteral("0 ms"));
        QCOMPARE(units::duration(98.0), QStringLiteral("98 ms"));
        QCOMPARE(units::duration(999.4), QStringLiteral("999 ms"));
        QCOMPARE(units::duration(999.6), QStringLiteral("1.0 s"));
        QCOMPARE(units::duration(1500.0), QStringLiteral("1.5 s"));
        QCOMPARE(units::duration(59'940.0), QStringLiteral("59.9 s"));
        QCOMPARE(units::duration(62'000.0), QStringLiteral("1 min 02 s"));
        QCOMPARE(units::duration(std::chrono::milliseconds(120'000)), QStringLiteral("2 min 00 s"));
        QCOMPARE(units::duration(std::chrono::microseconds(2'500)), QStringLiteral("3 ms"));
        Event started;
        started.body = primaryStarted(std::chrono::milliseconds(62'000));
        QVERIFY2(EventLogModel::summary(started).endsWith(u"deadline at 1 min 02 s"), qPrintable(EventLogModel::summary(started)));

        QTranslator ui, core; // the words of durations are core's (durationText), as the console installs both
        QVERIFY(ui.load(QStringLiteral(":/i18n/bullpen_ko.qm")));
        QVERIFY(core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")));
        QCoreApplication::installTranslator(&ui);
        QCoreApplication::installTranslator(&core);
        const auto english = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&ui);
            QCoreApplication::removeTranslator(&core);
        });
        QCOMPARE(units::duration(62'000.0), QStringLiteral("1분 02초"));
        // Every state a generation can be in has its word (the table in words.cpp against the enum).
        for (const HistoryState s : enumValues<HistoryState>())
            QVERIFY2(words::state(toId(s)) != toId(s), qPrintable(toId(s)));
        QCOMPARE(units::duration(1'500.0), QStringLiteral("1.5초"));
        QVERIFY2(EventLogModel::summary(started).endsWith(u"마감 1분 02초"), qPrintable(EventLogModel::summary(started)));
    }

    void burstOfTenThousandEventsArrivesWholeAndInOrder()
    {
        EventLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        EventBatcher batcher;
        connect(&batcher, &EventBatcher::batchReady, &model, &EventLogModel::appendBatch);

        QList<Event> events = engineEvents(2100); // 4 to 6 events each
        events = events.mid(0, 10'000);
        QCOMPARE(events.size(), 10'000);
        for (const Event &e : std::as_const(events))
            batcher.add(e);
        QCOMPARE(model.rowCount(), 0); // nothing until the frame budget has passed
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 10'000, 5000);
        QCOMPARE(inserted.count(), 1); // one batch, one insertion
        QCOMPARE(reset.count(), 0);
        for (int i = 0; i < model.rowCount(); i += 997) {
            QCOMPARE(model.eventAt(i).generationId, events.at(i).generationId);
            QCOMPARE(model.eventAt(i).sequence, events.at(i).sequence);
        }
        QCOMPARE(model.data(model.index(0, EventLogModel::TypeColumn)).toString(), QStringLiteral("generation started"));
        QCOMPARE(model.data(model.index(0, EventLogModel::TypeColumn), EventLogModel::TypeRole).toString(),
                 QStringLiteral("generation_started"));
    }

    void batchesAreAppendedNotReset()
    {
        EventLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const QList<Event> events = engineEvents(30);
        for (qsizetype i = 0; i < events.size(); i += 25)
            model.appendBatch(events.mid(i, 25));
        QCOMPARE(model.rowCount(), events.size());
        QCOMPARE(inserted.count(), static_cast<int>((events.size() + 24) / 25));
        QVERIFY(!model.data(model.index(3, EventLogModel::SummaryColumn)).toString().isEmpty());
        QVERIFY(model.data(model.index(0, EventLogModel::GenerationColumn)).toString().contains(QChar(0x2026))); // masked
    }

    // The Live view's Instance column and filter: hidden while every generation is this console's own
    // (embedded), shown from the first one an engine's stream names.
    void liveViewShowsTheInstanceOnceNamed()
    {
        GenerationListModel generations;
        EventLogModel events;
        LiveView view(&generations, &events);
        auto *table = view.findChild<QTableView *>(QStringLiteral("generationTable"));
        QVERIFY(table);
        const QList<Event> embedded = engineEvents(2);
        generations.appendBatch(embedded);
        QCOMPARE(generations.rowCount(), 2);
        QVERIFY(table->isColumnHidden(GenerationListModel::InstanceColumn));
        Event named = embedded.constFirst();
        named.generationId = QStringLiteral("gen_attached");
        std::get<GenerationStarted>(named.body).instance = QStringLiteral("engine-b:8700");
        generations.appendBatch({ named });
        QVERIFY(!table->isColumnHidden(GenerationListModel::InstanceColumn));
        // And its filter: every instance seen, one at a time.
        auto *filter = view.findChild<QComboBox *>(QStringLiteral("instanceFilter"));
        QVERIFY(filter);
        QVERIFY(!filter->isHidden());
        QCOMPARE(filter->count(), 2);
        QCOMPARE(table->model()->rowCount(), 3);
        filter->setCurrentIndex(filter->findData(QStringLiteral("engine-b:8700")));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(table->model()->index(0, GenerationListModel::InstanceColumn).data().toString(), QStringLiteral("engine-b:8700"));
        filter->setCurrentIndex(0);
        QCOMPARE(table->model()->rowCount(), 3);
        QCOMPARE(generations.headerData(GenerationListModel::InstanceColumn, Qt::Horizontal).toString(), QStringLiteral("Instance"));
    }

    // The generation table's columns fit the rows on screen at most twice a second and only grow; a
    // column the operator dragged keeps the operator's width; nothing is laid out per batch.
    void liveViewColumnsFitButTheOperatorsWidthStays()
    {
        GenerationListModel generations;
        EventLogModel events;
        LiveView view(&generations, &events);
        view.resize(1400, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto *table = view.findChild<QTableView *>(QStringLiteral("generationTable"));
        QVERIFY(table);
        QHeaderView *header = table->horizontalHeader();
        QCOMPARE(header->sectionResizeMode(GenerationListModel::UserColumn), QHeaderView::Interactive);

        QSignalSpy fitted(&view, &LiveView::columnsFitted);
        QList<Event> batch = engineEvents(3);
        generations.appendBatch(batch);
        QVERIFY(fitted.wait(3000));
        // Every column but the stretching last one is as wide as its widest text on screen.
        const auto fits = [&](int column) {
            int widest = 0;
            for (int r = 0; r < table->model()->rowCount(); ++r)
                widest = std::max(widest, table->fontMetrics().horizontalAdvance(table->model()->index(r, column).data().toString()));
            return header->sectionSize(column) >= widest;
        };
        for (int column = 0; column < header->count() - 1; ++column)
            QVERIFY2(table->isColumnHidden(column) || fits(column), qPrintable(QStringLiteral("column %1").arg(column)));
        const int userWidth = header->sectionSize(GenerationListModel::UserColumn);
        const int stageWidth = header->sectionSize(GenerationListModel::StageColumn);
        QVERIFY(userWidth > 30);

        // The operator narrows the User column; more rows arrive and are fitted.
        header->resizeSection(GenerationListModel::UserColumn, 30);
        fitted.clear();
        generations.appendBatch(engineEvents(5));
        QVERIFY(fitted.wait(3000));
        QCOMPARE(header->sectionSize(GenerationListModel::UserColumn), 30);
        QVERIFY(header->sectionSize(GenerationListModel::StageColumn) >= stageWidth); // never narrowed
        QVERIFY(fits(GenerationListModel::StageColumn));
    }

    // The event log, fed past its bound: the oldest go kTrimRows at a time, in one removal each, and the
    // newest event is always the last row.
    void eventLogIsBounded()
    {
        EventLogModel model;
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const QList<Event> events = engineEvents(200);
        const qsizetype fed = EventLogModel::kMaxRows + 3 * EventLogModel::kTrimRows;
        int most = 0;
        for (qsizetype n = 0; n < fed; n += events.size()) {
            model.appendBatch(events);
            most = std::max(most, model.rowCount());
        }
        QVERIFY2(most <= EventLogModel::kMaxRows, qPrintable(QStringLiteral("%1 rows held").arg(most)));
        QVERIFY(removed.size() >= 3);
        for (const QList<QVariant> &args : std::as_const(removed))
            QCOMPARE(args.at(2).toInt() - args.at(1).toInt() + 1, EventLogModel::kTrimRows);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.eventAt(model.rowCount() - 1).generationId, events.constLast().generationId);
        QCOMPARE(model.eventAt(model.rowCount() - 1).sequence, events.constLast().sequence);
    }

    // Bounded: fed far past its window, the list keeps the newest kKeep generations, every
    // running one and the pinned one; the Live view lets the dropped ones' timelines go.
    void generationListIsBoundedButKeepsRunningAndSelected()
    {
        GenerationListModel model;
        EventLogModel log;
        LiveView view(&model, &log);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy dropped(&model, &GenerationListModel::generationsDropped);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const QList<Event> template_ = engineEvents(3);
        // One generation that never finishes (its GenerationStarted only), fed first: the oldest row.
        Event running = template_.constFirst();
        running.generationId = QStringLiteral("gen_still_running");
        model.appendBatch({ running });
        view.addEvents({ running });
        // And the operator's selection, early on.
        int fed = 0;
        auto feed = [&](int generations) {
            QList<Event> batch;
            for (int g = 0; g < generations; ++g, ++fed) {
                const QString id = QStringLiteral("gen_%1").arg(fed, 8, 10, QLatin1Char('0'));
                for (Event e : template_) {
                    if (e.generationId != template_.constFirst().generationId)
                        continue;
                    e.generationId = id;
                    batch << e;
                }
            }
            model.appendBatch(batch);
            view.addEvents(batch);
        };
        feed(10);
        const QString selected = QStringLiteral("gen_00000003");
        view.select(selected);
        QCOMPARE(view.selectedGeneration(), selected);
        int most = 0;
        for (int round = 0; round < 40; ++round) { // 20,000 more generations, 500 per batch
            feed(500);
            most = std::max(most, model.rowCount());
        }
        QVERIFY2(most <= GenerationListModel::kKeep + GenerationListModel::kTrimRows + 2,
                 qPrintable(QStringLiteral("%1 rows held").arg(most)));
        QVERIFY(model.rowCount() >= GenerationListModel::kKeep);
        QVERIFY(!dropped.isEmpty());
        QCOMPARE(reset.count(), 0);
        QVERIFY(model.rowOf(QStringLiteral("gen_still_running")) >= 0);
        QVERIFY(model.rowOf(selected) >= 0);
        QVERIFY(model.rowOf(QStringLiteral("gen_00000004")) < 0); // its neighbour went
        QVERIFY(model.rowOf(QStringLiteral("gen_%1").arg(fed - 1, 8, 10, QLatin1Char('0'))) >= 0);
        // Every row's index agrees with its id after the trims.
        for (int r = 0; r < model.rowCount(); r += 97)
            QCOMPARE(model.rowOf(model.rowAt(r).generationId), r);
        // A late event for a dropped generation adds no timeline; the kept ones still have theirs.
        Event late = template_.constLast();
        late.generationId = QStringLiteral("gen_00000004");
        view.addEvents({ late });
        QCOMPARE(view.timelineCount(), model.rowCount());
    }

    void generationsFromEvents()
    {
        GenerationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const QList<Event> events = engineEvents(9);
        model.appendBatch(events.mid(0, 20));
        model.appendBatch(events.mid(20));
        QCOMPARE(model.rowCount(), 9);
        QCOMPARE(inserted.count(), 2);
        // The engine masks the user in its own generation_started event; the raw id never reaches the model.
        QCOMPARE(model.data(model.index(0, GenerationListModel::UserColumn)).toString(), QStringLiteral("h***@e***.com"));
        // Row 1 was handed to the fallback, row 2 failed on auth.
        QCOMPARE(model.data(model.index(1, 0), GenerationListModel::FallbackRole).toBool(), true);
        QVERIFY(model.data(model.index(1, 0), Qt::BackgroundRole).isValid());
        // The outcome in words: the fallback chain, or where and how it failed (not the image stage's provider).
        QCOMPARE(model.data(model.index(0, GenerationListModel::StateColumn)).toString(), QStringLiteral("succeeded"));
        QCOMPARE(model.data(model.index(1, GenerationListModel::StateColumn)).toString(),
                 QStringLiteral("succeeded · fallback gemini → qwen"));
        QCOMPARE(model.data(model.index(2, GenerationListModel::StateColumn)).toString(),
                 QStringLiteral("failed at storyboard: AI_PROVIDER_CONFIG (AUTH_CONFIG)"));
        QCOMPARE(model.data(model.index(1, GenerationListModel::ProviderColumn)).toString(), QStringLiteral("gemini → qwen"));
        QCOMPARE(model.data(model.index(0, GenerationListModel::ProviderColumn)).toString(), QStringLiteral("gemini"));
        QCOMPARE(model.data(model.index(2, GenerationListModel::StageColumn)).toString(), QStringLiteral("storyboard"));
        QCOMPARE(model.data(model.index(0, GenerationListModel::StageColumn)).toString(), QString());
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.data(model.index(r, 0), GenerationListModel::FinishedRole).toBool(), true);
        // Embedded, no instance; an engine's stream names the one running each generation.
        QCOMPARE(model.data(model.index(0, GenerationListModel::InstanceColumn)).toString(), QString());
        Event named = events.constFirst();
        named.generationId = QStringLiteral("gen_elsewhere");
        std::get<GenerationStarted>(named.body).instance = QStringLiteral("engine-b:8700");
        model.appendBatch({ named });
        QCOMPARE(model.data(model.index(model.rowOf(QStringLiteral("gen_elsewhere")), GenerationListModel::InstanceColumn)).toString(),
                 QStringLiteral("engine-b:8700"));
    }

    // A probe (docs/operations.md, "Probes") says it is one: its provider and role, and the stage it tried.
    void probeRowSaysItIsAProbe()
    {
        GenerationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<Event> events = engineEvents(1); // a plain generation, made a probe of qwen's storyboard fallback
        for (Event &e : events) {
            e.generationId = QStringLiteral("gen_probe");
            if (auto *g = std::get_if<GenerationStarted>(&e.body))
                g->probe = ProbeTarget { Provider::Qwen, Role::Fallback, Stage::Storyboard };
        }
        model.appendBatch(events);
        const int row = model.rowOf(QStringLiteral("gen_probe"));
        QCOMPARE(model.data(model.index(row, GenerationListModel::ProviderColumn)).toString(), QStringLiteral("qwen (fallback probe)"));
        QCOMPARE(model.data(model.index(row, GenerationListModel::StateColumn)).toString(),
                 QStringLiteral("probe of the storyboard stage · succeeded"));
    }

    void queuedGenerationShowsItsPlaceAndAFullBudget()
    {
        // Real engine events: one slot for gemini, two generations; the second waits for the first.
        ManualClock clock;
        ScriptedGenerator gemini(clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), nullptr);
        gemini.script({ Step::ok(2s), Step::ok(1s) });
        Admission admission(clock);
        admission.setLimits({ 1, 8 });
        StageService service(clock);
        service.addGenerator(&gemini);
        service.setAdmission(&admission);
        QList<Event> events;
        QObject::connect(&service, &StageService::eventRecorded, &service, [&](const Event &e) { events << e; });
        const StagePolicy policy = StagePolicy::relief(Provider::Gemini, std::nullopt);
        service.start(StageRequest::forStory(QStringLiteral("One."), QStringLiteral("a")), policy);
        const QString second = service.start(StageRequest::forStory(QStringLiteral("Two."), QStringLiteral("b")), policy);
        clock.advance(1s);

        GenerationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.appendBatch(events);
        const int row = model.rowOf(second);
        QVERIFY(row >= 0);
        QCOMPARE(model.data(model.index(row, GenerationListModel::StateColumn)).toString(), QStringLiteral("queued behind 0"));
        QVERIFY(model.data(model.index(row, GenerationListModel::StateColumn), Qt::ForegroundRole).isValid());
        QCOMPARE(model.data(model.index(row, 0), GenerationListModel::BudgetFractionRole).toDouble(), 1.0); // not started

        const qsizetype seen = events.size();
        clock.advance(10min);
        model.appendBatch(events.mid(seen));
        QCOMPARE(model.data(model.index(row, GenerationListModel::StateColumn)).toString(), QStringLiteral("succeeded"));
        QVERIFY(!model.data(model.index(row, GenerationListModel::StateColumn), Qt::ForegroundRole).isValid());
        QVERIFY(EventLogModel::summary(events.at(seen - 1)).contains(QStringLiteral("queued behind 0")));
    }
};

QTEST_MAIN(tst_LiveModels)
#include "tst_livemodels.moc"
