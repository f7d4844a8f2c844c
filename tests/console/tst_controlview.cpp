// SPDX-License-Identifier: MIT
// The Control view (docs/console.md, "Control view"): its models updated in place under
// QAbstractItemModelTester, what remains of a drain ticking on a fake clock, and the view on the
// embedded engine with real clicks: Drain… with the one dialog, Restore of a row while its menu is
// open and the lists refresh, Reset of an open breaker, and the audit trail filtered and exported.
#include "engine/breakerboard.h"
#include "engine/clock.h"
#include "models/alertlistmodel.h"
#include "models/auditlogmodel.h"
#include "models/breakerlistmodel.h"
#include "models/drainlistmodel.h"
#include "models/probelistmodel.h"
#include "models/viewlink.h"
#include "runtime/enginesetup.h"
#include "views/controlview.h"
#include "views/failuresview.h"
#include "views/latencyview.h"
#include "views/linkfilters.h"
#include "views/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

QJsonObject drain(const QString &provider, const QJsonValue &role, const QString &reason, const QJsonValue &until)
{
    return QJsonObject { { QStringLiteral("provider"), provider },
                         { QStringLiteral("role"), role },
                         { QStringLiteral("stage"), QJsonValue() },
                         { QStringLiteral("reason"), reason },
                         { QStringLiteral("by"), QStringLiteral("ops") },
                         { QStringLiteral("since"), QStringLiteral("2026-12-04T23:00:00.000Z") },
                         { QStringLiteral("until"), until } };
}

QJsonObject providers(const QJsonArray &drains)
{
    return QJsonObject { { QStringLiteral("providers"),
                           QJsonArray { QJsonObject { { QStringLiteral("id"), QStringLiteral("gemini") },
                                                      { QStringLiteral("breakers"), QJsonArray {} },
                                                      { QStringLiteral("drains"), drains } } } } };
}

QJsonObject probeTarget(const QString &provider, const QString &role, const QJsonValue &last, bool running, const QJsonValue &nextDue)
{
    return QJsonObject { { QStringLiteral("provider"), provider },
                         { QStringLiteral("role"), role },
                         { QStringLiteral("stage"), QStringLiteral("storyboard") },
                         { QStringLiteral("last"), last },
                         { QStringLiteral("running"), running },
                         { QStringLiteral("held"), QJsonValue() },
                         { QStringLiteral("next_due"), nextDue } };
}

QJsonObject probeResult(bool ok, const QJsonValue &kind, double ms)
{
    return QJsonObject { { QStringLiteral("generation_id"), QStringLiteral("gen_p1") },
                         { QStringLiteral("at"), QStringLiteral("2026-12-04T23:49:58.000Z") },
                         { QStringLiteral("ok"), ok },
                         { QStringLiteral("kind"), kind },
                         { QStringLiteral("duration_ms"), ms } };
}

QJsonObject withProbes(const QJsonArray &targets, bool lead = true)
{
    QJsonObject o = providers({});
    o.insert(
        QStringLiteral("probes"),
        QJsonObject { { QStringLiteral("every_ms"), 60000 }, { QStringLiteral("lead"), lead }, { QStringLiteral("targets"), targets } });
    return o;
}

} // namespace

class tst_ControlView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    std::unique_ptr<EngineSetup> m_engine;
    std::unique_ptr<MainWindow> m_window;

    QTableView *table(const char *name) const { return m_window->controlView()->findChild<QTableView *>(QLatin1StringView(name)); }

private Q_SLOTS:
    // A refresh changes rows in place: a row kept stays where it is (a persistent index on it holds, its
    // cells change), a row gone is removed alone, a new one is appended; never a reset.
    void drainsUpdateInPlace()
    {
        DrainListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setProviders(providers({ drain(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("a"), QJsonValue()),
                                       drain(QStringLiteral("gemini"), QJsonValue(), QStringLiteral("b"), QJsonValue()) }));
        QCOMPARE(model.rowCount(), 2);
        const QPersistentModelIndex held = model.index(1, DrainListModel::ReasonColumn);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setProviders(providers({ drain(QStringLiteral("gemini"), QJsonValue(), QStringLiteral("b, ticket 7"), QJsonValue()),
                                       drain(QStringLiteral("gemini"), QStringLiteral("fallback"), QStringLiteral("c"), QJsonValue()) }));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(held.isValid());
        QCOMPARE(held.data().toString(), QStringLiteral("b, ticket 7")); // the row held, its cell changed
        QCOMPARE(held.row(), 0); // the primary drain before it went
        QCOMPARE(model.index(1, DrainListModel::ReasonColumn).data().toString(), QStringLiteral("c"));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(model.index(0, DrainListModel::RoleColumn).data().toString(), QStringLiteral("every role"));
    }

    // What remains of a drain counts down with the clock; a drain without an end says so.
    void remainingTicks()
    {
        DrainListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QDateTime now = QDateTime::fromString(QStringLiteral("2026-12-04T23:50:00Z"), Qt::ISODate);
        model.setClock([&now] { return now; });
        model.setProviders(providers(
            { drain(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("a"), QStringLiteral("2026-12-05T00:05:00.000Z")),
              drain(QStringLiteral("gemini"), QStringLiteral("fallback"), QStringLiteral("b"), QJsonValue()) }));
        QCOMPARE(model.index(0, DrainListModel::RemainingColumn).data().toString(), QStringLiteral("15 min 00 s"));
        QCOMPARE(model.index(1, DrainListModel::RemainingColumn).data().toString(), QStringLiteral("until restored"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        now = now.addSecs(61);
        model.refreshColumn(DrainListModel::RemainingColumn);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(0, DrainListModel::RemainingColumn).data().toString(), QStringLiteral("13 min 59 s"));
        now = now.addSecs(3600);
        QCOMPARE(model.index(0, DrainListModel::RemainingColumn).data().toString(), QStringLiteral("ending"));
    }

    // docs/contract.md §15: the prober's targets with their last result and next due time, updated in
    // place; no prober (probes null) is no rows and proberRuns() false, which the view says in words.
    void probesUpdateInPlaceAndTick()
    {
        ProbeListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QDateTime now = QDateTime::fromString(QStringLiteral("2026-12-04T23:50:00Z"), Qt::ISODate);
        model.setClock([&now] { return now; });
        model.setProviders(providers({}));
        QVERIFY(!model.proberRuns());
        QCOMPARE(model.rowCount(), 0);
        const QString due = QStringLiteral("2026-12-04T23:50:58.000Z");
        model.setProviders(
            withProbes({ probeTarget(QStringLiteral("gemini"), QStringLiteral("primary"), probeResult(true, QJsonValue(), 850), false, due),
                         probeTarget(QStringLiteral("qwen"), QStringLiteral("fallback"), QJsonValue(), true, QJsonValue()) }));
        QVERIFY(model.proberRuns());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ProbeListModel::ResultColumn).data().toString(), QStringLiteral("ok"));
        QCOMPARE(model.index(0, ProbeListModel::TookColumn).data().toString(), QStringLiteral("850 ms"));
        QCOMPARE(model.index(0, ProbeListModel::NextDueColumn).data().toString(), QStringLiteral("in 58.0 s"));
        QCOMPARE(model.index(1, ProbeListModel::ResultColumn).data().toString(), QStringLiteral("first probe running"));
        QCOMPARE(model.index(1, ProbeListModel::NextDueColumn).data().toString(), QStringLiteral("running"));
        const QPersistentModelIndex held = model.index(1, ProbeListModel::ResultColumn);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        now = now.addSecs(60);
        model.refreshColumn(ProbeListModel::NextDueColumn);
        QCOMPARE(model.index(0, ProbeListModel::NextDueColumn).data().toString(), QStringLiteral("now"));
        model.setProviders(
            withProbes({ probeTarget(QStringLiteral("gemini"), QStringLiteral("primary"), probeResult(true, QJsonValue(), 850), false, due),
                         probeTarget(QStringLiteral("qwen"), QStringLiteral("fallback"),
                                     probeResult(false, QStringLiteral("TIMEOUT"), 30000), false, due) },
                       false));
        QVERIFY(held.isValid());
        QCOMPARE(held.row(), 1);
        QCOMPARE(held.data().toString(), QStringLiteral("TIMEOUT"));
        QCOMPARE(model.index(1, ProbeListModel::TookColumn).data().toString(), QStringLiteral("30.0 s"));
        QVERIFY(!model.leads());
        QCOMPARE(resets.size(), 0);
        QVERIFY(changed.size() >= 2);
        model.setProviders(providers({})); // the engine restarted without --probe-every
        QVERIFY(!model.proberRuns());
        QCOMPARE(model.rowCount(), 0);
    }

    void auditExportsCsvAndJson()
    {
        AuditLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QJsonObject e { { QStringLiteral("at"), QStringLiteral("2026-12-04T23:58:01.120Z") },
                              { QStringLiteral("token"), QStringLiteral("ops") },
                              { QStringLiteral("action"), QStringLiteral("drain") },
                              { QStringLiteral("target"), QStringLiteral("gemini (503s, \"ticket\" 4711)") },
                              { QStringLiteral("instance"), QStringLiteral("engine-1") } };
        model.setEntries(QJsonArray { e, e }); // the same action twice in a millisecond: two rows
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(AuditLogModel::toCsv(model.rows()),
                 QByteArray("at,token,action,target,instance\r\n"
                            "2026-12-04T23:58:01.120Z,ops,drain,\"gemini (503s, \"\"ticket\"\" 4711)\",engine-1\r\n"
                            "2026-12-04T23:58:01.120Z,ops,drain,\"gemini (503s, \"\"ticket\"\" 4711)\",engine-1\r\n"));
        const QJsonArray json = QJsonDocument::fromJson(AuditLogModel::toJson(model.rows())).array();
        QCOMPARE(json.size(), 2);
        QCOMPARE(json.first().toObject(), e);
    }

    void init()
    {
        QVERIFY(m_data.isValid());
        SetupOptions options;
        options.forceSimulator = true;
        options.dataDir = m_data.path();
        options.environment = QProcessEnvironment();
        options.settingsFile = m_data.filePath(QStringLiteral("none.json"));
        options.keyFile = m_data.filePath(QStringLiteral("none.env"));
        m_engine = std::make_unique<EngineSetup>();
        QVERIFY(m_engine->init(options));
        m_window = std::make_unique<MainWindow>(*m_engine);
        m_window->resize(1024, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
        m_engine.reset();
    }

    // Engine ▸ Drain a provider… opens the one drain dialog from the Control view; the drain appears as a
    // row; its menu stays open while the lists refresh behind it; Restore from that menu ends it; the
    // audit trail says who did both, filters and exports.
    void drainAndRestoreFromTheView()
    {
        ControlView *view = m_window->controlView();
        QVERIFY(view);
        QVERIFY2(view->minimumSizeHint().height() <= 360, qPrintable(QString::number(view->minimumSizeHint().height())));
        m_window->findChild<QAction *>(QStringLiteral("drainMenuAction"))->trigger();
        QCOMPARE(m_window->tabs()->currentWidget(), view);
        QTRY_VERIFY(qobject_cast<QDialog *>(QApplication::activeModalWidget()));
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QCOMPARE(dialog->objectName(), QStringLiteral("drainDialog"));
        QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("drainReason")), QStringLiteral("503s, ticket 4711"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("drainConfirm")), Qt::LeftButton);
        QTableView *drains = table("drainTable");
        QTRY_COMPARE(drains->model()->rowCount(), 1);
        QCOMPARE(drains->model()->index(0, DrainListModel::ReasonColumn).data().toString(), QStringLiteral("503s, ticket 4711"));
        QCOMPARE(drains->model()->index(0, DrainListModel::ByColumn).data().toString(), QStringLiteral("this console"));
        QCOMPARE(drains->model()->index(0, DrainListModel::RemainingColumn).data().toString().left(2), QStringLiteral("59"));

        // The row's menu, open while the view refreshes three times: still there, and it restores.
        const QRect cell = drains->visualRect(drains->model()->index(0, 0));
        QMetaObject::invokeMethod(drains, "customContextMenuRequested", Q_ARG(QPoint, cell.center()));
        QTRY_VERIFY(qobject_cast<QMenu *>(QApplication::activePopupWidget()));
        QPointer<QMenu> menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QCOMPARE(menu->objectName(), QStringLiteral("drainRowMenu"));
        QSignalSpy refreshed(m_engine.get(), &EngineConnection::providersChanged);
        for (int i = 0; i < 3; ++i)
            view->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.size(), 3, 5000);
        QVERIFY(menu);
        QVERIFY(menu->isVisible());
        QAction *restore = menu->findChild<QAction *>(QStringLiteral("drainRowRestore"));
        QVERIFY(restore && restore->isEnabled());
        menu->close();
        restore = nullptr;
        QPushButton *restoreButton = view->findChild<QPushButton *>(QStringLiteral("controlRestore"));
        QVERIFY(restoreButton->isEnabled()); // the row is still selected
        QTest::mouseClick(restoreButton, Qt::LeftButton);
        QTRY_COMPARE(drains->model()->rowCount(), 0);
        QVERIFY(!restoreButton->isEnabled()); // Restore only where something is drained

        QTableView *audit = table("auditTable");
        QTRY_COMPARE(audit->model()->rowCount(), 2);
        auto *filter = view->findChild<QLineEdit *>(QStringLiteral("auditFilter"));
        QTest::keyClicks(filter, QStringLiteral("ticket 4711"));
        QCOMPARE(audit->model()->rowCount(), 1);
        QCOMPARE(audit->model()->index(0, AuditLogModel::ActionColumn).data().toString(), QStringLiteral("drained"));
        QCOMPARE(audit->model()->index(0, AuditLogModel::WhoColumn).data().toString(), QStringLiteral("this console"));
        const QString file = m_data.filePath(QStringLiteral("audit.csv"));
        QString why;
        QVERIFY2(view->exportAudit(file, &why), qPrintable(why));
        QFile csv(file);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.size(), 3); // header, the one row the filter shows, the last line's end
        QVERIFY2(lines.at(1).contains(",console,drain,\"gemini (503s, ticket 4711)\","), lines.at(1).constData());
        QVERIFY(!view->exportAudit(m_data.filePath(QStringLiteral("no/such/dir/a.json")), &why));
        QVERIFY2(why.contains(QLatin1StringView("Choose another folder")), qPrintable(why));
    }

    // docs/contract.md §15: probes only where a prober runs. The embedded console runs none and says so
    // rather than showing an empty table; an answer with probes shows the table, and the pages are
    // flipped, never rebuilt.
    void embeddedSaysNoProberRunsHere()
    {
        ControlView *view = m_window->controlView();
        m_window->tabs()->setCurrentWidget(view);
        auto *tabs = view->findChild<QTabWidget *>(QStringLiteral("controlTabs"));
        QVERIFY(tabs);
        tabs->setCurrentIndex(1);
        QSignalSpy refreshed(m_engine.get(), &EngineConnection::providersChanged);
        view->refresh();
        QTRY_VERIFY(refreshed.size() >= 1);
        auto *none = view->findChild<QLabel *>(QStringLiteral("noProber"));
        QTableView *probes = table("probeTable");
        QVERIFY(none && probes);
        QTRY_VERIFY(none->isVisible());
        QVERIFY(!probes->isVisible());
        QVERIFY2(none->text().contains(u"No prober runs here"), qPrintable(none->text()));
        // An attached engine's answer with a prober: the table, with the same widgets as before.
        Q_EMIT m_engine->providersChanged(withProbes({ probeTarget(QStringLiteral("gemini"), QStringLiteral("primary"),
                                                                   probeResult(true, QJsonValue(), 850), false, QJsonValue()) }));
        QVERIFY(probes->isVisible());
        QVERIFY(!none->isVisible());
        QCOMPARE(probes->model()->rowCount(), 1);
        QCOMPARE(table("probeTable"), probes);
    }

    // docs/console.md "Links": every tab has a link that opens it again; Copy link puts it on the
    // clipboard; a link that is not one says what to do instead.
    void everyViewHasALink()
    {
        QTabWidget *tabs = m_window->tabs();
        QCOMPARE(ViewLink::views().size(), qsizetype(tabs->count()));
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            const QString link = m_window->currentLink();
            QVERIFY2(link.startsWith(u"bullpen://open/"), qPrintable(link));
            tabs->setCurrentIndex((i + 1) % tabs->count());
            QString why;
            QVERIFY2(m_window->openLink(link, &why), qPrintable(why));
            QCOMPARE(tabs->currentIndex(), i);
        }
        tabs->setCurrentWidget(m_window->controlView());
        m_window->findChild<QAction *>(QStringLiteral("copyLinkAction"))->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("bullpen://open/control"));
        const auto parsed = ViewLink::parse(QStringLiteral("bullpen://open/failures?generation=gen_abc123"));
        QVERIFY(std::holds_alternative<ViewLink>(parsed));
        QCOMPARE(std::get<ViewLink>(parsed).generation, QStringLiteral("gen_abc123"));
        QCOMPARE(std::get<ViewLink>(parsed).toString(), QStringLiteral("bullpen://open/failures?generation=gen_abc123"));
        QString why;
        QVERIFY(!m_window->openLink(QStringLiteral("https://example.com/"), &why));
        QVERIFY2(why.contains(u"Copy link"), qPrintable(why));
        QVERIFY(!m_window->openLink(QStringLiteral("bullpen://open/nosuch"), &why));
        QVERIFY2(why.contains(u"the views are run, live"), qPrintable(why));
        QVERIFY(!m_window->openLink(QStringLiteral("bullpen://open/failures?generation=';drop"), &why));
        QVERIFY2(why.contains(u"gen_"), qPrintable(why));
        QCOMPARE(tabs->currentWidget(), m_window->controlView()); // a refused link changes nothing
    }

    // docs/contract.md §15 "Links": Failures' link carries its filters, Latency's its time range (and
    // selection); opening one restores them; a filter the view does not have, or a value none of its
    // items has, is refused saying what the link may hold, and changes nothing.
    void linksCarryFiltersAndTimeRange()
    {
        QTabWidget *tabs = m_window->tabs();
        const auto combo = [this](const char *name) {
            return m_window->findChild<QComboBox *>(QLatin1StringView(name));
        };
        QComboBox *range = combo("rangeCombo");
        QComboBox *kind = combo("kindCombo");
        QComboBox *outcome = combo("outcomeCombo");
        QVERIFY(range && kind && outcome);
        tabs->setCurrentWidget(m_window->failuresView());
        range->setCurrentIndex(1); // last 24 hours
        kind->setCurrentIndex(kind->findData(QStringLiteral("TIMEOUT")));
        outcome->setCurrentIndex(outcome->findData(QStringLiteral("relieved")));
        const QString failures = m_window->currentLink();
        QCOMPARE(failures, QStringLiteral("bullpen://open/failures?range=24h&outcome=relieved&kind=TIMEOUT"));
        range->setCurrentIndex(4);
        kind->setCurrentIndex(0);
        outcome->setCurrentIndex(0);

        QComboBox *span = combo("latencyRange");
        QComboBox *bucket = combo("latencyBucket");
        QComboBox *stage = combo("latencyStage");
        tabs->setCurrentWidget(m_window->latencyView());
        span->setCurrentIndex(span->findData(qint64(7) * 24 * 3600 * 1000));
        bucket->setCurrentIndex(bucket->findData(qint64(6) * 3600 * 1000));
        stage->setCurrentIndex(stage->findData(QStringLiteral("image")));
        const QString latency = m_window->currentLink();
        QVERIFY2(latency.endsWith(u"stage=image&range=7d&bucket=6h"), qPrintable(latency));
        span->setCurrentIndex(0);
        bucket->setCurrentIndex(0);
        stage->setCurrentIndex(0);

        QString why;
        QVERIFY2(m_window->openLink(failures, &why), qPrintable(why));
        QCOMPARE(tabs->currentWidget(), m_window->failuresView());
        QCOMPARE(range->currentIndex(), 1);
        QCOMPARE(kind->currentData().toString(), QStringLiteral("TIMEOUT"));
        QCOMPARE(outcome->currentData().toString(), QStringLiteral("relieved"));
        QCOMPARE(m_window->currentLink(), failures); // Copy link gives back what opened it
        QVERIFY2(m_window->openLink(latency, &why), qPrintable(why));
        QCOMPARE(tabs->currentWidget(), m_window->latencyView());
        QCOMPARE(linkValue(span->currentData()), QStringLiteral("7d"));
        QCOMPARE(linkValue(bucket->currentData()), QStringLiteral("6h"));
        QCOMPARE(stage->currentData().toString(), QStringLiteral("image"));
        QCOMPARE(m_window->currentLink(), latency);
        // With the generation whose detail is open: the filters and the detail both come back.
        QVERIFY(m_window->openLink(QStringLiteral("bullpen://open/failures?generation=gen_abc123&range=7d"), &why));
        QCOMPARE(linkValue(range->currentData()), QStringLiteral("7d"));
        QCOMPARE(kind->currentData().toString(), QString()); // left out of the link: any kind

        QVERIFY(!m_window->openLink(QStringLiteral("bullpen://open/failures?kind=NOPE&range=1h"), &why));
        QVERIFY2(why.contains(u"TIMEOUT") && why.contains(u"Copy link"), qPrintable(why));
        QCOMPARE(linkValue(range->currentData()), QStringLiteral("7d")); // nothing changed
        QVERIFY(!m_window->openLink(QStringLiteral("bullpen://open/latency?colour=red"), &why));
        QVERIFY2(why.contains(u"bucket"), qPrintable(why));
        QVERIFY(!m_window->openLink(QStringLiteral("bullpen://open/control?range=7d"), &why));
        QVERIFY2(why.contains(u"takes no filters"), qPrintable(why));
        QCOMPARE(tabs->currentWidget(), m_window->failuresView());
    }

    // An open breaker is listed with its state and next trial; Reset (confirmed) closes it and is audited.
    void resetAnOpenBreaker()
    {
        ControlView *view = m_window->controlView();
        m_window->tabs()->setCurrentWidget(view);
        BreakerBoard &board = m_engine->engine().breakers();
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            board.record(key, BreakerCount::Blamed, false, SteadyClock::instance().now(), FailureKind::TIMEOUT);
        QTableView *breakers = table("breakerTable");
        QTRY_COMPARE(breakers->model()->rowCount(), 1);
        QCOMPARE(breakers->model()->index(0, BreakerListModel::StateColumn).data().toString(), QStringLiteral("OPEN"));
        // The engine's own alerts: the breaker not closed makes both breaker rules pending at once.
        view->refresh();
        QTableView *alerts = table("alertTable");
        QTRY_COMPARE(alerts->model()->rowCount(), 2);
        QCOMPARE(alerts->model()->index(0, AlertListModel::RuleColumn).data().toString(), QStringLiteral("BullpenProviderFailingNow"));
        QCOMPARE(alerts->model()->index(0, AlertListModel::SeriesColumn).data().toString(), QStringLiteral("gemini/primary/storyboard"));
        QCOMPARE(alerts->model()->index(0, AlertListModel::StateColumn).data().toString(), QStringLiteral("pending"));
        QVERIFY(alerts->model()->index(0, 0).data(Qt::ToolTipRole).toString().contains(u"docs/operations.md#bullpenproviderfailingnow"));
        QVERIFY2(breakers->model()->index(0, BreakerListModel::NextTrialColumn).data().toString().contains(QLatin1StringView("(in ")),
                 qPrintable(breakers->model()->index(0, BreakerListModel::NextTrialColumn).data().toString()));
        QCOMPARE(breakers->model()->index(0, BreakerListModel::FailuresColumn).data().toString(), QStringLiteral("0 of 0"));
        QPushButton *reset = view->findChild<QPushButton *>(QStringLiteral("controlReset"));
        QVERIFY(!reset->isEnabled()); // nothing selected
        breakers->selectRow(0);
        QVERIFY(reset->isEnabled());
        QTest::mouseClick(reset, Qt::LeftButton);
        QTRY_VERIFY(qobject_cast<QMessageBox *>(QApplication::activeModalWidget()));
        auto *confirm = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("resetConfirmButton")), Qt::LeftButton);
        QTRY_COMPARE(breakers->model()->index(0, BreakerListModel::StateColumn).data().toString(), QStringLiteral("closed"));
        QCOMPARE(board.breakers(SteadyClock::instance().now()).front().state, BreakerState::Closed);
        QVERIFY(!reset->isEnabled()); // closed: nothing to reset
        // The console's reset, and the engine's own lines: the breaker opened, then closed by the reset.
        QAbstractItemModel *audit = table("auditTable")->model();
        QTRY_COMPARE(audit->rowCount(), 3);
        QMap<QString, QString> whoDid; // action → who, with the reset's target
        for (int r = 0; r < audit->rowCount(); ++r) {
            const QJsonObject row = audit->index(r, 0).data(JsonRowsModel::RowRole).toJsonObject();
            whoDid.insert(row.value(u"action").toString(), row.value(u"token").toString());
            if (row.value(u"action").toString() == u"reset")
                QCOMPARE(row.value(u"target").toString(), QStringLiteral("gemini/primary/storyboard"));
        }
        QCOMPARE(whoDid,
                 (QMap<QString, QString> { { QStringLiteral("reset"), QStringLiteral("console") },
                                           { QStringLiteral("breaker_opened"), QStringLiteral("engine") },
                                           { QStringLiteral("breaker_closed"), QStringLiteral("engine") } }));
    }

    // Embedded, the engine evaluates the alerts on its own every few seconds: with the Control view never
    // shown (nothing asks), an open breaker's alerts still arrive, and its hidden list has them.
    void alertsEvaluatedWhileTheViewIsHidden()
    {
        m_window->tabs()->setCurrentIndex(0);
        ControlView *view = m_window->controlView();
        QVERIFY(!view->isVisible());
        QSignalSpy changes(m_engine.get(), &EngineSetup::alertChanged);
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            m_engine->engine().breakers().record(key, BreakerCount::Blamed, false, SteadyClock::instance().now(), FailureKind::TIMEOUT);
        QTRY_COMPARE_WITH_TIMEOUT(changes.size(), 2, 2 * int(std::chrono::milliseconds(EngineSetup::kAlertInterval).count()));
        QCOMPARE(changes.first().first().toJsonObject().value(QLatin1StringView("state")).toString(), QStringLiteral("pending"));
        QTRY_COMPARE(view->alerts()->rowCount(), 2);
        QVERIFY(!view->isVisible());
    }

    // Acknowledge = silence from the view: Silence… on a selected alert opens the dialog (a reason
    // required, 15 min, 1 h or 4 h); the row says until when; the audit says who, why and until; End
    // silence ends it.
    void silenceAnAlertFromTheView()
    {
        ControlView *view = m_window->controlView();
        m_window->tabs()->setCurrentWidget(view);
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            m_engine->engine().breakers().record(key, BreakerCount::Blamed, false, SteadyClock::instance().now(), FailureKind::TIMEOUT);
        view->refresh();
        QTableView *alerts = table("alertTable");
        QTRY_COMPARE(alerts->model()->rowCount(), 2);
        auto *silence = view->findChild<QPushButton *>(QStringLiteral("controlSilence"));
        auto *endSilence = view->findChild<QPushButton *>(QStringLiteral("controlEndSilence"));
        QVERIFY(!silence->isEnabled()); // nothing selected
        alerts->selectRow(0);
        QVERIFY(silence->isEnabled());
        QVERIFY(!endSilence->isEnabled()); // not silenced
        QTest::mouseClick(silence, Qt::LeftButton);
        QTRY_VERIFY(QApplication::activeModalWidget() && QApplication::activeModalWidget()->objectName() == u"silenceDialog");
        QWidget *dialog = QApplication::activeModalWidget();
        auto *confirm = dialog->findChild<QPushButton *>(QStringLiteral("silenceConfirm"));
        QVERIFY(!confirm->isEnabled()); // why is required
        dialog->findChild<QComboBox *>(QStringLiteral("silenceLength"))->setCurrentIndex(0); // 15 min
        QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("silenceReason")), QStringLiteral("known, ticket 7"));
        QVERIFY(confirm->isEnabled());
        QTest::mouseClick(confirm, Qt::LeftButton);

        const QModelIndex until = alerts->model()->index(0, AlertListModel::SilencedColumn);
        QTRY_VERIFY(!until.data().toString().isEmpty());
        const auto silences = m_engine->alertBoard().silences(SteadyClock::instance().now());
        QCOMPARE(silences.size(), size_t(1));
        QCOMPARE(silences.front().rule, QStringLiteral("BullpenProviderFailingNow"));
        QCOMPARE(silences.front().since.secsTo(silences.front().until), 15 * 60);
        // The breaker's opening (audited by the engine itself since the annotations) and the silence, newest first.
        QTRY_COMPARE(table("auditTable")->model()->rowCount(), 2);
        const QString target = table("auditTable")->model()->index(0, AuditLogModel::TargetColumn).data().toString();
        QVERIFY2(target.startsWith(u"BullpenProviderFailingNow until ") && target.contains(u"known, ticket 7"), qPrintable(target));

        alerts->selectRow(0);
        QTRY_VERIFY(endSilence->isEnabled());
        QTest::mouseClick(endSilence, Qt::LeftButton);
        QTRY_VERIFY(alerts->model()->index(0, AlertListModel::SilencedColumn).data().toString().isEmpty());
        QVERIFY(m_engine->alertBoard().silences(SteadyClock::instance().now()).empty());
    }
};

QTEST_MAIN(tst_ControlView)
#include "tst_controlview.moc"
