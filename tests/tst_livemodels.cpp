// SPDX-License-Identifier: MIT
// The live view's models (issue 5): QAbstractItemModelTester throughout; a burst of 10,000 events
// lands whole, in order, with batched inserts and no reset.
#include "models/eventbatcher.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "scriptedgenerator.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

// Real engine events: n generations, a third relieved, a third failing, on a manual clock.
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
private Q_SLOTS:
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
        QCOMPARE(model.data(model.index(0, EventLogModel::TypeColumn)).toString(), QStringLiteral("generation_started"));
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

    void generationsFromEvents()
    {
        GenerationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const QList<Event> events = engineEvents(9);
        model.setUserMask(events.first().generationId, QStringLiteral("ha****ul")); // before its first event
        model.appendBatch(events.mid(0, 20));
        model.appendBatch(events.mid(20));
        QCOMPARE(model.rowCount(), 9);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(model.data(model.index(0, GenerationListModel::UserColumn)).toString(), QStringLiteral("ha****ul"));
        // Row 1 was relieved, row 2 failed on auth.
        QCOMPARE(model.data(model.index(1, 0), GenerationListModel::FallbackRole).toBool(), true);
        QVERIFY(model.data(model.index(1, 0), Qt::BackgroundRole).isValid());
        QCOMPARE(model.data(model.index(1, GenerationListModel::StateColumn)).toString(), QStringLiteral("succeeded"));
        QCOMPARE(model.data(model.index(2, GenerationListModel::StateColumn)).toString(),
                 QStringLiteral("failed — AI_PROVIDER_CONFIG/AUTH_CONFIG"));
        QCOMPARE(model.data(model.index(1, GenerationListModel::ProviderColumn)).toString(), QStringLiteral("qwen (fallback)"));
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.data(model.index(r, 0), GenerationListModel::FinishedRole).toBool(), true);
    }
};

QTEST_MAIN(tst_LiveModels)
#include "tst_livemodels.moc"
