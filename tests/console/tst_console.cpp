// SPDX-License-Identifier: MIT
// The console as an operator drives it: Run → Generate → Live → Result, against the built-in
// simulator over real HTTP, for a fallback run and for a final failure. Run with BULLPEN_TEST_ATTACHED=1
// (ctest's tst_console_attached), the same assertions hold with the console attached to a bullpen-engine
// child process over loopback (docs/contract.md §12).
#include "contract/recordtext.h"
#include "engineprocess.h"
#include "models/alertlistmodel.h"
#include "models/breakerlistmodel.h"
#include "models/eventlogmodel.h"
#include "models/failurehistorymodel.h"
#include "models/generationlistmodel.h"
#include "models/providerhealthmodel.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "store/store.h"
#include "views/controlview.h"
#include "views/failuresview.h"
#include "views/healthstrip.h"
#include "views/latencyview.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/resultview.h"
#include "views/runview.h"
#include "views/timelinewidget.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTranslator>

using namespace bullpen;

class tst_Console : public QObject
{
    Q_OBJECT

    std::unique_ptr<EngineConnection> m_engine;
    std::unique_ptr<MainWindow> m_window;
    // Attached mode: one engine process for the whole suite, a new connection per test.
    QTemporaryDir m_engineDir;
    std::unique_ptr<test::Engine> m_process;
    QString m_token;

    static bool attached() { return qEnvironmentVariableIsSet("BULLPEN_TEST_ATTACHED"); }

    GenerationResult runScenario(const QString &scenario)
    {
        RunView *run = m_window->runView();
        run->findChild<QComboBox *>(QStringLiteral("scenarioCombo"))->setCurrentText(scenario);
        auto *generate = run->findChild<QPushButton *>(QStringLiteral("generateButton"));
        QSignalSpy done(m_window.get(), &MainWindow::generationFinished);
        QTest::mouseClick(generate, Qt::LeftButton);
        if (!done.wait(20'000))
            return {};
        return done.first().first().value<GenerationResult>();
    }

    // The widest rows the Control view's breakers and probes show, as an engine's answer says them: an
    // open breaker with its next trial minutes away and its reason, a half-open one, a closed one; a probe
    // that failed with the longest kind, one whose first probe runs, one that passed. Before the incident
    // (`incident` false) the same rows, closed and not probed yet: the incident's answer updates them in
    // place, as an engine's next answer does when a breaker opens.
    static QJsonObject widestTargets(bool incident = true)
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const auto at = [&now](int seconds) {
            return now.addSecs(seconds).toString(Qt::ISODateWithMs);
        };
        const auto breaker = [&](const char *provider, const char *role, const char *stage, const char *state, const QJsonValue &retryAt) {
            return QJsonObject { { QStringLiteral("provider"), QLatin1StringView(provider) },
                                 { QStringLiteral("role"), QLatin1StringView(role) },
                                 { QStringLiteral("stage"), QLatin1StringView(stage) },
                                 { QStringLiteral("state"), incident ? QLatin1StringView(state) : QLatin1StringView("closed") },
                                 { QStringLiteral("since"), incident ? QJsonValue(at(-75)) : QJsonValue() },
                                 { QStringLiteral("retry_at"), retryAt },
                                 { QStringLiteral("cooldown_ms"), retryAt.isNull() ? QJsonValue() : QJsonValue(300'000) },
                                 { QStringLiteral("window_attempts"), 120 },
                                 { QStringLiteral("window_failures"), 118 },
                                 { QStringLiteral("opened"), 12 },
                                 { QStringLiteral("reason"),
                                   recordText(RecordText::FailedByRatio,
                                              { QStringLiteral("118"), QStringLiteral("120"), QStringLiteral("60"),
                                                QStringLiteral("TIMEOUT ×100, TRANSIENT_SERVER ×18") }) } };
        };
        const auto probe = [&](const char *provider, const char *role, const char *stage, const QJsonValue &last, bool running) {
            return QJsonObject { { QStringLiteral("provider"), QLatin1StringView(provider) },
                                 { QStringLiteral("role"), QLatin1StringView(role) },
                                 { QStringLiteral("stage"), QLatin1StringView(stage) },
                                 { QStringLiteral("last"), incident ? last : QJsonValue() },
                                 { QStringLiteral("running"), incident && running },
                                 { QStringLiteral("held"), QJsonValue() },
                                 { QStringLiteral("next_due"), running ? QJsonValue() : QJsonValue(at(245)) } };
        };
        const auto result = [&](bool ok, const char *kind, double ms) {
            return QJsonObject { { QStringLiteral("generation_id"), QStringLiteral("gen_0123456789abcdef0123456789abcdef") },
                                 { QStringLiteral("at"), at(-15) },
                                 { QStringLiteral("ok"), ok },
                                 { QStringLiteral("kind"), kind ? QJsonValue(QLatin1StringView(kind)) : QJsonValue() },
                                 { QStringLiteral("duration_ms"), ms } };
        };
        const QJsonArray breakers { breaker("gemini", "primary", "storyboard", "open", at(245)),
                                    breaker("anthropic", "fallback", "captions", "half_open", QJsonValue()),
                                    breaker("qwen", "fallback", "storyboard", "closed", QJsonValue()) };
        const QJsonArray probes { probe("anthropic", "fallback", "storyboard", result(false, "REQUEST_REJECTED", 125'500), false),
                                  probe("gemini", "primary", "captions", QJsonValue(), true),
                                  probe("qwen", "primary", "image", result(true, nullptr, 850), false) };
        return QJsonObject { { QStringLiteral("providers"),
                               QJsonArray { QJsonObject { { QStringLiteral("id"), QStringLiteral("gemini") },
                                                          { QStringLiteral("breakers"), breakers },
                                                          { QStringLiteral("drains"), QJsonArray {} } } } },
                             { QStringLiteral("probes"),
                               QJsonObject { { QStringLiteral("every_ms"), 60000 },
                                             { QStringLiteral("lead"), true },
                                             { QStringLiteral("targets"), probes } } } };
    }

    // A table's columns as "header=width" for a failure's message.
    static QString columnWidths(const QTableView *table)
    {
        QStringList out;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            out << QStringLiteral("%1=%2").arg(table->model()->headerData(c, Qt::Horizontal).toString()).arg(table->columnWidth(c));
        return out.join(QStringLiteral(", "));
    }

    // The Control view's breakers and probes at their widest (docs/console.md, "Control view"): neither
    // table scrolls sideways, and a breaker's State and Since are never elided.
    void breakersAndProbesFit()
    {
        ControlView *control = m_window->controlView();
        m_window->tabs()->setCurrentIndex(0); // the rows arrive while the view is hidden, as in the tour
        auto *tabs = control->findChild<QTabWidget *>(QStringLiteral("controlTabs"));
        auto *breakers = control->findChild<QTableView *>(QStringLiteral("breakerTable"));
        auto *probes = control->findChild<QTableView *>(QStringLiteral("probeTable"));
        QVERIFY(tabs && breakers && probes);
        // Those rows stay: the view's next refresh (every 5 s) would put the engine's own back.
        Q_EMIT m_engine->providersChanged(widestTargets(false));
        QApplication::processEvents();
        Q_EMIT m_engine->providersChanged(widestTargets());
        QObject::disconnect(m_engine.get(), &EngineConnection::providersChanged, control, nullptr);
        m_window->tabs()->setCurrentWidget(control);
        for (QTableView *table : { breakers, probes }) {
            tabs->setCurrentWidget(table == breakers ? tabs->widget(0) : tabs->widget(1));
            QTRY_VERIFY(table->isVisible());
            QCOMPARE(table->model()->rowCount(), 3);
            // The header lays its sections out after the rows arrive (a delayed resize): awaited, not slept.
            QTRY_VERIFY2(table->horizontalScrollBar()->maximum() == 0,
                         qPrintable(QStringLiteral("%1 scrolls sideways in %2 px: %3")
                                        .arg(table->objectName())
                                        .arg(table->viewport()->width())
                                        .arg(columnWidths(table))));
        }
        // A cell is elided when its text and the delegate's margins are wider than its column.
        const int margins = 2 * (breakers->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, breakers) + 1);
        for (int column : { int(BreakerListModel::StateColumn), int(BreakerListModel::SinceColumn) })
            for (int row = 0; row < breakers->model()->rowCount(); ++row) {
                const QString text = breakers->model()->index(row, column).data().toString();
                QVERIFY2(
                    breakers->fontMetrics().horizontalAdvance(text) + margins <= breakers->columnWidth(column),
                    qPrintable(
                        QStringLiteral("breaker %1: \"%2\" is elided in %3 px").arg(row).arg(text).arg(breakers->columnWidth(column))));
            }
    }

    // The alerts at their widest (a firing one silenced, a pending one, a resolved one: every column
    // filled) fit the Control view at 1024 px without scrolling sideways, and no Alert, State or Since
    // cell is elided.
    void alertsFit()
    {
        ControlView *control = m_window->controlView();
        auto *alerts = control->findChild<QTableView *>(QStringLiteral("alertTable"));
        QVERIFY(alerts);
        const auto alert = [](const char *rule, const char *labels, const char *state, bool silenced) {
            QJsonObject a { { QStringLiteral("rule"), QLatin1StringView(rule) },
                            { QStringLiteral("severity"), QStringLiteral("critical") },
                            { QStringLiteral("labels"), QLatin1StringView(labels) },
                            { QStringLiteral("state"), QLatin1StringView(state) },
                            { QStringLiteral("value"), 2 },
                            { QStringLiteral("active_at"), QStringLiteral("2026-12-05T14:58:03Z") },
                            { QStringLiteral("fired_at"), QStringLiteral("2026-12-05T14:59:03Z") },
                            { QStringLiteral("runbook_url"), QStringLiteral("docs/operations.md#x") } };
            if (QLatin1StringView(state) == u"resolved")
                a.insert(QStringLiteral("resolved_at"), QStringLiteral("2026-12-05T15:33:38Z"));
            if (silenced)
                a.insert(QStringLiteral("silenced_until"), QStringLiteral("2026-12-05T16:59:03Z"));
            return a;
        };
        Q_EMIT m_engine->alertsChanged(QJsonObject {
            { QStringLiteral("alerts"),
              QJsonArray { alert("BullpenProviderFailingNow", "anthropic/fallback/storyboard", "firing", true),
                           alert("BullpenWriteBacklogGrowing", "", "pending", false) } },
            { QStringLiteral("history"), QJsonArray { alert("BullpenProviderDrainedLong", "anthropic", "resolved", false) } } });
        // Those rows stay: the view's next refresh (every 5 s) would put the engine's own back.
        QObject::disconnect(m_engine.get(), &EngineConnection::alertsChanged, control, nullptr);
        m_window->tabs()->setCurrentWidget(control);
        QTRY_VERIFY(alerts->isVisible());
        QTRY_COMPARE(alerts->model()->rowCount(), 3);
        QTRY_VERIFY2(
            alerts->horizontalScrollBar()->maximum() == 0,
            qPrintable(
                QStringLiteral("the alerts scroll sideways in %1 px: %2").arg(alerts->viewport()->width()).arg(columnWidths(alerts))));
        const int margins = 2 * (alerts->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, alerts) + 1);
        for (int column : { int(AlertListModel::RuleColumn), int(AlertListModel::StateColumn), int(AlertListModel::ActiveColumn) })
            for (int row = 0; row < alerts->model()->rowCount(); ++row) {
                const QString text = alerts->model()->index(row, column).data().toString();
                QVERIFY2(
                    alerts->fontMetrics().horizontalAdvance(text) + margins <= alerts->columnWidth(column),
                    qPrintable(QStringLiteral("alert %1: \"%2\" is elided in %3 px").arg(row).arg(text).arg(alerts->columnWidth(column))));
            }
    }

    // The right edge of what a scroll area's page shows furthest right (0 when nothing is shown).
    static int rightmost(const QScrollArea *scroll)
    {
        int right = 0;
        for (const QWidget *w : scroll->widget()->findChildren<QWidget *>())
            if (w->isVisible())
                right = std::max(right, w->mapTo(scroll->widget(), QPoint(w->width(), 0)).x());
        return right;
    }

    // The Settings tab (embedded: the settings form; attached: the engine's configuration) never scrolls
    // sideways and shows nothing beyond its right edge, also when the window was made smaller while
    // another tab was shown (as the screenshot tour does, from 1280 px).
    void settingsFit(const QSize &size)
    {
        QTabWidget *tabs = m_window->tabs();
        QWidget *settings = nullptr;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->objectName() == u"settingsView" || tabs->widget(i)->objectName() == u"engineConfigView")
                settings = tabs->widget(i);
        QVERIFY2(settings, "no Settings tab");
        m_window->resize(1280, 860);
        tabs->setCurrentWidget(settings);
        QApplication::processEvents();
        tabs->setCurrentIndex(0);
        m_window->resize(size);
        QApplication::processEvents();
        tabs->setCurrentWidget(settings);
        const QList<QScrollArea *> scrolls = settings->findChildren<QScrollArea *>();
        // What needs the most width, for the message: the widest of the fields and labels shown.
        const auto widest = [](const QWidget *content) {
            const QWidget *most = nullptr;
            for (const QWidget *w : content->findChildren<QWidget *>())
                if (w->isVisible() && (qobject_cast<const QLabel *>(w) || qobject_cast<const QAbstractButton *>(w))
                    && (!most || w->minimumSizeHint().width() > most->minimumSizeHint().width()))
                    most = w;
            if (!most)
                return QString();
            const auto *label = qobject_cast<const QLabel *>(most);
            return QStringLiteral("\"%1\" needs %2 px")
                .arg(label ? label->text() : qobject_cast<const QAbstractButton *>(most)->text())
                .arg(most->minimumSizeHint().width());
        };
        for (QScrollArea *scroll : scrolls)
            QTRY_VERIFY2(!scroll->isVisible()
                             || (scroll->horizontalScrollBar()->maximum() == 0 && rightmost(scroll) <= scroll->viewport()->width()),
                         qPrintable(QStringLiteral("the Settings view scrolls sideways at %1 px: it needs %2 px of %3, shows up to %4; %5")
                                        .arg(size.width())
                                        .arg(scroll->widget()->minimumSizeHint().width())
                                        .arg(scroll->viewport()->width())
                                        .arg(rightmost(scroll))
                                        .arg(widest(scroll->widget()))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!attached())
            return;
        m_process = std::make_unique<test::Engine>(m_engineDir.path());
        // These cases read one generation's own fallback in the views. One engine serves them all, and
        // after dozens of failing primaries its breaker would (rightly) send later ones straight to the
        // fallback: the strict per-request routing here, breakers in tst_breakers.
        m_process->extraEnvironment.insert(QStringLiteral("BULLPEN_BREAKER"), QStringLiteral("off"));
        m_token = m_process->token(QStringLiteral("console"), QStringLiteral("operator"));
        QVERIFY(!m_token.isEmpty());
        QVERIFY(m_process->start({ QStringLiteral("--rate"), QStringLiteral("100000") }));
    }

    void cleanupTestCase()
    {
        if (m_process)
            m_process->stop();
    }

    void init()
    {
        if (attached()) {
            auto remote = std::make_unique<RemoteConnection>(EngineEndpoint { m_process->url, m_token.toLatin1() });
            remote->open();
            QTRY_VERIFY_WITH_TIMEOUT(remote->usable() && !remote->runningConfig().isEmpty(), 10'000);
            m_engine = std::move(remote);
        } else {
            SetupOptions options;
            options.forceSimulator = true;
            options.useStore = false;
            QProcessEnvironment env;
            options.environment = env;
            auto embedded = std::make_unique<EngineSetup>();
            QVERIFY(embedded->init(options));
            m_engine = std::move(embedded);
        }
        m_window = std::make_unique<MainWindow>(*m_engine);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
        m_engine.reset();
    }

    // The console does not send the engine its own storyboard policy back (docs/contract.md §12.1: a
    // request's policy fields are optional, what it leaves out is the engine's): a Generate with the Run
    // view as the engine set it names none and runs on the engine's policy (the fallback takes over);
    // with the fallback set to none the request carries that policy, and the generation follows it.
    void generateSendsAPolicyOnlyWhenChosen()
    {
        RunView *run = m_window->runView();
        run->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        QVERIFY(m_engine->storyboardPolicy().fallback);
        const GenerationResult own = runScenario(QStringLiteral("primary-overloaded"));
        QVERIFY(!own.generationId.isEmpty());
        QCOMPARE(m_window->lastRequest().storyboardPolicy, std::nullopt);
        QVERIFY2(own.storyboard.fallback.applied, qPrintable(own.storyboard.decision));

        auto *fallback = run->findChild<QComboBox *>(QStringLiteral("fallbackCombo"));
        const int none = fallback->findData(QString());
        QVERIFY(none >= 0);
        fallback->setCurrentIndex(none);
        const GenerationResult chosen = runScenario(QStringLiteral("primary-overloaded"));
        QVERIFY(!chosen.generationId.isEmpty());
        QVERIFY(m_window->lastRequest().storyboardPolicy);
        QCOMPARE(m_window->lastRequest().storyboardPolicy->fallback, std::nullopt);
        QVERIFY2(!chosen.storyboard.fallback.applied, qPrintable(chosen.storyboard.decision));
    }

    // docs/contract.md §13 from the console: a drain made through the engine shows on the provider's
    // health card (by whom, why), sends the next generation to the fallback, and restore ends it.
    void drainShowsOnTheHealthCardUntilRestored()
    {
        auto *strip = m_window->findChild<HealthStrip *>();
        QVERIFY(strip);
        const auto restore = qScopeGuard([this, strip] { // whatever happens, the engine (shared, attached) is left undrained
            m_engine->restoreProvider(Provider::Gemini);
            QTRY_VERIFY_WITH_TIMEOUT(strip->controlLine(Provider::Gemini, Role::Primary).isEmpty(), 10'000);
        });
        m_engine->drainProvider({ Provider::Gemini, {}, {}, QStringLiteral("incident 4711"), {} });
        QTRY_VERIFY_WITH_TIMEOUT(strip->controlLine(Provider::Gemini, Role::Primary).contains(QStringLiteral("DRAINED by")), 10'000);
        QVERIFY(strip->controlLine(Provider::Gemini, Role::Primary).contains(QStringLiteral("incident 4711")));
        const auto drainedCard = [strip]() -> QLabel * { // gemini's card with traffic (one per stage), or the one without
            for (QLabel *c : strip->findChildren<QLabel *>(QRegularExpression(QStringLiteral("^healthCard_gemini_primary"))))
                if (c->isVisible() && c->text().contains(QStringLiteral("DRAINED"))) // a card with nothing to show is hidden, not deleted
                    return c;
            return nullptr;
        };
        QTRY_VERIFY(drainedCard());
        QLabel *card = drainedCard();
        // The drain's line made the strip taller; the tabs below it will not move back when it goes.
        const auto tabBarY = [this] {
            return m_window->tabs()->tabBar()->mapTo(m_window.get(), QPoint()).y();
        };
        const auto laidOut = [this, strip, &tabBarY] { // the strip at its height, the tabs below it
            for (int level = 0; level < 6; ++level) // a size change climbs one parent per LayoutRequest
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            return strip->height() >= strip->minimumSizeHint().height()
                && tabBarY() >= strip->mapTo(m_window.get(), QPoint(0, strip->height())).y();
        };
        QTRY_VERIFY(laidOut());
        const int drainedY = tabBarY();
        // Its menu offers Restore now that gemini is drained (and only then); the menu is the strip's.
        QCOMPARE(card->contextMenuPolicy(), Qt::CustomContextMenu);
        QObject menuOwner;
        const QList<QAction *> actions = strip->cardActions(qobject_cast<HealthCard *>(card), &menuOwner);
        const auto actionNamed = [&actions](const QString &name) -> QAction * {
            for (QAction *a : actions)
                if (a->objectName() == name)
                    return a;
            return nullptr;
        };
        QVERIFY(actionNamed(QStringLiteral("drainAction")));
        QVERIFY(actionNamed(QStringLiteral("restoreAction")));

        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        const GenerationResult r = runScenario(QStringLiteral("healthy"));
        QVERIFY2(r.storyboard.fallback.reason == u"gemini_drained", qPrintable(r.storyboard.decision));
        auto *table = m_window->liveView()->findChild<QTableView *>(QStringLiteral("generationTable"));
        QVERIFY(table);
        const auto outcomeSaysSkipped = [table] {
            for (int row = 0; row < table->model()->rowCount(); ++row)
                if (table->model()
                        ->index(row, GenerationListModel::StateColumn)
                        .data()
                        .toString()
                        .contains(QStringLiteral("primary skipped (drained)")))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(outcomeSaysSkipped(), 5000);
        if (attached()) { // (the embedded console of these cases has no store)
            // Latency leaves the skipped primary out of the extra wait and says so.
            LatencyView *latency = m_window->latencyView();
            latency->setSelection(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("storyboard"));
            QSignalSpy loaded(latency, &LatencyView::loaded);
            latency->reload();
            QVERIFY(loaded.wait(10'000));
            QVERIFY(latency->skippedPrimaries() >= 1);
            QVERIFY(
                latency->findChild<QLabel *>(QStringLiteral("latencySummary"))->text().contains(QStringLiteral("skipped this primary")));
        }

        actionNamed(QStringLiteral("restoreAction"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(strip->controlLine(Provider::Gemini, Role::Primary).isEmpty(), 10'000);
        QTRY_VERIFY(!drainedCard());
        QTRY_VERIFY(laidOut());
        QCOMPARE(tabBarY(), drainedY);
    }

    // docs/contract.md §9.8: a card per provider, role and stage, and a way in: clicking one opens
    // Failures filtered to it.
    void healthCardOpensItsFailures()
    {
        auto *strip = m_window->findChild<HealthStrip *>();
        if (!attached()) {
            // The embedded console of these cases keeps no history: no cards, and the strip says why
            // (tst_console_attached clicks one).
            QVERIFY(strip->findChildren<HealthCard *>().isEmpty());
            QVERIFY(strip->findChild<QLabel *>(QStringLiteral("healthEmpty"))->text().contains(QStringLiteral("needs the history")));
            return;
        }
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        const GenerationResult r = runScenario(QStringLiteral("primary-overloaded"));
        QVERIFY2(r.storyboard.fallback.applied, qPrintable(r.storyboard.decision));
        strip->refresh();
        HealthCard *card = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((card = strip->findChild<HealthCard *>(QStringLiteral("healthCard_gemini_primary_storyboard"))), 10'000);
        QVERIFY(card->text().contains(QStringLiteral("storyboard")));
        QVERIFY(strip->model()->rowOf(Provider::Gemini, Role::Primary, Stage::Storyboard) >= 0);
        QTest::mouseClick(card, Qt::LeftButton);
        FailuresView *failures = m_window->failuresView();
        QVERIFY(failures->isVisible());
        QVERIFY(failures->currentFilter().failedAttempt
                == (HistoryFilter::AttemptScope { Provider::Gemini, Role::Primary, Stage::Storyboard }));
        QTRY_VERIFY_WITH_TIMEOUT(!failures->model()->isLoading() && failures->model()->rowCount() > 0, 10'000);
        bool found = false;
        for (int row = 0; row < failures->model()->rowCount(); ++row)
            found = found || failures->model()->index(row, 0).data(FailureHistoryModel::GenerationIdRole).toString() == r.generationId;
        QVERIFY2(found, qPrintable(r.generationId));
        // The keyboard does the same: the card takes focus, Enter opens it.
        m_window->findChild<QTabWidget *>(QStringLiteral("viewTabs"))->setCurrentIndex(0);
        card = strip->findChild<HealthCard *>(QStringLiteral("healthCard_gemini_primary_storyboard"));
        card->setFocus();
        QTest::keyClick(card, Qt::Key_Return);
        QVERIFY(failures->isVisible());
    }

    // The focused cell of a table is framed 2 px wide in a colour that stands out from its row: the
    // selected text's colour on a selected row, the highlight elsewhere (docs/console.md, Keyboard).
    void focusedCellIsFramed()
    {
        QTableWidget table(3, 3);
        table.setSelectionBehavior(QAbstractItemView::SelectRows);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                table.setItem(r, c, new QTableWidgetItem(QStringLiteral("cell")));
        table.resize(400, 200);
        table.show();
        QApplication::setActiveWindow(&table);
        QVERIFY(QTest::qWaitForWindowActive(&table));
        table.setFocus();
        QTRY_VERIFY(table.hasFocus());
        const auto frameColour = [&table](int row, int column) {
            table.setCurrentCell(row, column);
            const QRect cell = table.visualRect(table.model()->index(row, column));
            const QImage shot = table.viewport()->grab().toImage();
            return shot.pixelColor(shot.devicePixelRatio() * QPoint(cell.left() + 1, cell.center().y()));
        };
        QCOMPARE(frameColour(1, 1), table.palette().color(QPalette::HighlightedText));
        table.clearSelection();
        table.selectionModel()->setCurrentIndex(table.model()->index(2, 0), QItemSelectionModel::NoUpdate);
        const QRect cell = table.visualRect(table.model()->index(2, 0));
        const QImage shot = table.viewport()->grab().toImage();
        QCOMPARE(shot.pixelColor(QPoint(cell.left() + 1, cell.center().y())), table.palette().color(QPalette::Highlight));
    }

    // The keyboard alone (docs/console.md, Keyboard): Tab from a view's first control reaches every table and
    // control of that view and leaves each table at the next Tab (a table is one stop; arrows move in
    // it), without moving its current row; the Story box passes Tab on; Ctrl+Tab and Alt+N switch views
    // from inside a table; F1 lists the shortcuts; Ctrl+Q quits.
    void keyboardReachesEveryViewAndLeavesTables()
    {
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story in four panels."));
        m_window->runView()->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("keys@example.com"));
        QVERIFY(!runScenario(QStringLiteral("healthy")).generationId.isEmpty());
        QApplication::setActiveWindow(m_window.get());
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTabWidget *tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QWidget *page = tabs->currentWidget();
            tabs->tabBar()->setFocus(Qt::TabFocusReason);
            QSet<QWidget *> visited;
            for (int k = 0; k < 120; ++k) {
                QWidget *focus = QApplication::focusWidget();
                QVERIFY(focus);
                if (page->isAncestorOf(focus))
                    visited.insert(focus);
                auto *table = qobject_cast<QAbstractItemView *>(focus);
                const QModelIndex before = table ? table->currentIndex() : QModelIndex();
                QTest::keyClick(focus, Qt::Key_Tab);
                if (table) {
                    QVERIFY2(QApplication::focusWidget() != table, qPrintable(tabs->tabText(i) + u' ' + table->objectName()));
                    QCOMPARE(table->currentIndex(), before);
                }
            }
            for (QWidget *w : page->findChildren<QWidget *>()) {
                const bool stop = w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy()
                    && (qobject_cast<QAbstractItemView *>(w) || qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w));
                if (stop && !qobject_cast<QTabBar *>(w) && w->window() == m_window.get())
                    QVERIFY2(visited.contains(w),
                             qPrintable(tabs->tabText(i) + u": never reached " + QString::fromLatin1(w->metaObject()->className()) + u' '
                                        + w->objectName()));
            }
        }

        tabs->setCurrentWidget(m_window->runView());
        auto *story = m_window->runView()->findChild<QPlainTextEdit *>();
        story->setFocus(Qt::TabFocusReason);
        const QString text = story->toPlainText();
        QTest::keyClick(story, Qt::Key_Tab);
        QVERIFY(QApplication::focusWidget() != story);
        QCOMPARE(story->toPlainText(), text);

        tabs->setCurrentWidget(m_window->liveView());
        auto *table = m_window->liveView()->findChild<QTableView *>();
        table->setFocus(Qt::TabFocusReason);
        const int live = tabs->currentIndex();
        QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), live + 1);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_1, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), 0);

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F1);
        QTRY_VERIFY(m_window->findChild<QTableWidget *>(QStringLiteral("shortcutTable")));
        const QTableWidget *list = m_window->findChild<QTableWidget *>(QStringLiteral("shortcutTable"));
        QStringList keys;
        for (int r = 0; r < list->rowCount(); ++r)
            keys << list->item(r, 0)->text();
        for (const QString &expected :
             { QStringLiteral("Ctrl+Q"), QStringLiteral("Ctrl+Return"), QStringLiteral("Esc"), QStringLiteral("F1") })
            QVERIFY2(keys.contains(expected), qPrintable(keys.join(u", ")));
        list->window()->close();

        QTest::keyClick(m_window.get(), Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY(!m_window->isVisible());
    }

    // Every view usable at 1024×700 (docs/console.md): the window's minimum fits in it, and at that size
    // and at 1600×1000 no label is narrower than its text unless it says the rest in a tooltip.
    void everyViewFitsAt1024x700_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QSize>("size");
        QTest::addRow("English 1024x700") << QStringLiteral("en") << QSize(1024, 700);
        QTest::addRow("English 1600x1000") << QStringLiteral("en") << QSize(1600, 1000);
        QTest::addRow("Korean 1024x700") << QStringLiteral("ko") << QSize(1024, 700);
        QTest::addRow("Korean 1600x1000") << QStringLiteral("ko") << QSize(1600, 1000);
    }

    void everyViewFitsAt1024x700()
    {
        QFETCH(QString, language);
        QFETCH(QSize, size);
        QTranslator ui, core;
        if (language == u"ko") { // a new window, made in Korean
            QVERIFY(ui.load(QStringLiteral(":/i18n/bullpen_ko.qm")) && core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")));
            QCoreApplication::installTranslator(&ui);
            QCoreApplication::installTranslator(&core);
            m_window = std::make_unique<MainWindow>(*m_engine);
            m_window->show();
            QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
            QCOMPARE(m_window->tabs()->tabText(0), QStringLiteral("실행"));
        }
        const auto english = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&ui);
            QCoreApplication::removeTranslator(&core);
        });
        QTabWidget *tabs = m_window->tabs();
        // The health strip at its tallest: a card with a breaker or drain line and a probe line (six lines).
        auto *strip = m_window->healthStrip()->findChild<QWidget *>(QStringLiteral("healthCards"));
        QVERIFY(strip);
        strip->setMinimumHeight(6 * strip->fontMetrics().height() + 12);
        m_window->resize(size);
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QApplication::processEvents();
            const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
            QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 700,
                     qPrintable(tabs->tabText(i) + QStringLiteral(": the window needs %1×%2").arg(minimum.width()).arg(minimum.height())));
            QCOMPARE(m_window->size(), size); // it did not widen itself
            for (const QLabel *label : m_window->findChildren<QLabel *>()) {
                if (!label->isVisible() || label->wordWrap() || label->textFormat() == Qt::RichText || Qt::mightBeRichText(label->text())
                    || label->text().isEmpty() || !label->toolTip().isEmpty())
                    continue;
                const int needs = label->fontMetrics().horizontalAdvance(label->text());
                QVERIFY2(label->contentsRect().width() >= needs,
                         qPrintable(tabs->tabText(i)
                                    + QStringLiteral(": \"%1\" (%2) is %3 px of %4 and has no tooltip")
                                          .arg(label->text(), label->objectName())
                                          .arg(label->contentsRect().width())
                                          .arg(needs)));
            }
        }
        // The Control view's drains at their widest (one with an expiry, one until restored, a drain of every
        // role and stage) fit 1024 px without scrolling sideways: Since, Until and Remaining included.
        if (size.width() == 1024) {
            const auto restore = qScopeGuard([&] {
                m_engine->restoreProvider(Provider::Gemini);
                m_engine->restoreProvider(Provider::Qwen);
            });
            m_engine->drainProvider({ Provider::Gemini, Role::Primary, Stage::Storyboard, QStringLiteral("vendor outage, ticket 4711"),
                                      QDateTime::currentDateTimeUtc().addSecs(4 * 3600) });
            m_engine->drainProvider({ Provider::Qwen, {}, {}, QStringLiteral("quota"), {} });
            tabs->setCurrentWidget(m_window->controlView());
            auto *drains = m_window->controlView()->findChild<QTableView *>(QStringLiteral("drainTable"));
            QVERIFY(drains);
            QTRY_COMPARE_WITH_TIMEOUT(drains->model()->rowCount(), 2, 10'000);
            const auto widths = [drains] {
                QStringList out;
                for (int c = 0; c < drains->model()->columnCount(); ++c)
                    out << QStringLiteral("%1=%2")
                               .arg(drains->model()->headerData(c, Qt::Horizontal).toString())
                               .arg(drains->columnWidth(c));
                return out.join(QStringLiteral(", "));
            };
            // The header lays its sections out after the rows arrive (a delayed resize): awaited, not slept.
            QTRY_VERIFY2(
                drains->horizontalScrollBar()->maximum() == 0,
                qPrintable(QStringLiteral("the drains scroll sideways in %1 px: %2").arg(drains->viewport()->width()).arg(widths())));
        }
        settingsFit(size);
        if (QTest::currentTestFailed())
            return;
        breakersAndProbesFit();
        if (QTest::currentTestFailed())
            return;
        if (size.width() == 1024) {
            alertsFit();
            if (QTest::currentTestFailed())
                return;
        }
        // The panels below the Latency view's chart (durations, Tune, Spend) fit as well.
        auto *latency = m_window->findChild<LatencyView *>();
        auto *below = latency ? latency->findChild<QTabWidget *>(QStringLiteral("latencyBelow")) : nullptr;
        QVERIFY(below && below->count() >= 3);
        tabs->setCurrentWidget(latency);
        for (int i = 0; i < below->count(); ++i) {
            below->setCurrentIndex(i);
            QApplication::processEvents();
            const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
            QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 700,
                     qPrintable(below->tabText(i) + QStringLiteral(": the window needs %1×%2").arg(minimum.width()).arg(minimum.height())));
        }
        below->setCurrentIndex(0);
    }

    void statusBarSaysSimulator()
    {
        auto *status = m_window->findChild<QLabel *>(QStringLiteral("engineStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("simulator")), qPrintable(status->text()));
        if (attached()) { // which engine, and that it is connected
            QVERIFY2(status->text().contains(m_process->url.toString()) && status->text().contains(u"connected"),
                     qPrintable(status->text()));
            return;
        }
        // Settings says what the engine runs with when the file says otherwise, and why (the file names
        // no fallback; the simulator pairs gemini with qwen).
        const auto *inForce = m_window->findChild<QLabel *>(QStringLiteral("inForce"));
        QVERIFY(inForce && !inForce->isHidden());
        QVERIFY2(inForce->text().contains(u"gemini → qwen") && inForce->text().contains(u"fallback qwen, not none")
                     && inForce->text().contains(u"chosen for the built-in simulator"),
                 qPrintable(inForce->text()));
    }

    void invalidSettingsBlockGenerate()
    {
        RunView *run = m_window->runView();
        auto *generate = run->findChild<QPushButton *>(QStringLiteral("generateButton"));
        run->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story."));
        QVERIFY(generate->isEnabled());
        auto *timeout = run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"));
        timeout->clear();
        QTest::keyClicks(timeout, QStringLiteral("0s"));
        QVERIFY(!generate->isEnabled());
        QVERIFY(run->findChild<QLabel *>(QStringLiteral("settingsError"))->text().contains(QStringLiteral("Primary timeout")));
        timeout->setText(QStringLiteral("60s"));
        run->findChild<QComboBox *>(QStringLiteral("fallbackCombo"))->setCurrentText(QStringLiteral("gemini"));
        QVERIFY(!generate->isEnabled());
        QVERIFY(run->findChild<QLabel *>(QStringLiteral("settingsError"))->text().contains(QStringLiteral("same provider")));
    }

    void fallbackRunShowsInLiveAndResult()
    {
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral(
                "Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together."));
        m_window->runView()->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("haru_paul@example.com"));
        const GenerationResult r = runScenario(QStringLiteral("primary-overloaded"));
        QCOMPARE(r.state, FinalState::Succeeded);
        QVERIFY(r.storyboard.fallback.applied);

        // Live: the generation's row, masked, highlighted as answered by the fallback; its timeline has all its events.
        auto *table = m_window->liveView()->findChild<QTableView *>(QStringLiteral("generationTable"));
        QTRY_COMPARE(table->model()->rowCount(), 1);
        const QModelIndex row = table->model()->index(0, 0);
        QCOMPARE(row.data(GenerationListModel::FallbackRole).toBool(), true);
        QCOMPARE(table->model()->index(0, GenerationListModel::UserColumn).data().toString(), QStringLiteral("h***@e***.com"));
        QVERIFY(!table->model()->index(0, GenerationListModel::GenerationColumn).data().toString().contains(r.generationId));
        QCOMPARE(m_window->liveView()->selectedGeneration(), r.generationId);

        // Result: four cards, fallback metadata, the comic.
        m_window->tabs()->setCurrentWidget(m_window->resultView());
        ResultView *result = m_window->resultView();
        for (int i = 1; i <= 4; ++i)
            QVERIFY2(result->findChild<QLabel *>(QStringLiteral("panelCard%1").arg(i)), qPrintable(QString::number(i)));
        QVERIFY(result->findChild<QLabel *>(QStringLiteral("panelCard1"))->text().contains(QStringLiteral("SETUP")));
        const QString meta = result->findChild<QLabel *>(QStringLiteral("fallbackMetadata"))->text();
        // People's labels on screen, the field names behind them in the tooltip; tokens in and out.
        QVERIFY2(meta.contains(u"Fallback used: yes") && meta.contains(u"tokens in "), qPrintable(meta));
        QVERIFY(!meta.contains(u"provider_fallback_applied"));
        QVERIFY(result->findChild<QLabel *>(QStringLiteral("fallbackMetadata"))->toolTip().contains(u"provider_fallback_applied"));
        QVERIFY2(meta.contains(QStringLiteral("gemini_provider_unavailable")), qPrintable(meta));
        QVERIFY(meta.contains(QStringLiteral("qwen-plus")));
        QVERIFY(!result->findChild<QLabel *>(QStringLiteral("comicImage"))->pixmap().isNull());
        QVERIFY(!result->findChild<QLabel *>(QStringLiteral("failureBox"))->isVisible());
    }

    void finalFailureShowsNextStep()
    {
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        const GenerationResult r = runScenario(QStringLiteral("primary-auth"));
        QCOMPARE(r.state, FinalState::Failed);
        m_window->tabs()->setCurrentWidget(m_window->resultView());
        auto *failure = m_window->resultView()->findChild<QLabel *>(QStringLiteral("failureBox"));
        QVERIFY(failure->isVisible());
        QVERIFY2(failure->text().contains(QStringLiteral("AI_PROVIDER_CONFIG")), qPrintable(failure->text()));
        QVERIFY(failure->text().contains(QStringLiteral("GEMINI_API_KEY")));
        QVERIFY(!m_window->resultView()->findChild<QPushButton *>(QStringLiteral("retryButton"))->isVisible()); // fix settings, not retry
        // The next step names the button that is there, and that button opens the Settings tab.
        QVERIFY2(!failure->text().contains(u"then Retry"), qPrintable(failure->text()));
        auto *openSettings = m_window->resultView()->findChild<QPushButton *>(QStringLiteral("openSettingsButton"));
        QVERIFY(openSettings->isVisible());
        QVERIFY(failure->text().contains(u"Settings"));
        QTest::mouseClick(openSettings, Qt::LeftButton);
        QCOMPARE(m_window->tabs()->tabText(m_window->tabs()->currentIndex()), QStringLiteral("Settings"));
        QCOMPARE(m_window->resultView()->findChild<QLabel *>(QStringLiteral("resultHeadline"))->text(),
                 QStringLiteral("FAILED at the storyboard stage"));
    }

    void generateTwoHundredKeepsUp()
    {
        RunView *run = m_window->runView();
        run->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        run->findChild<QComboBox *>(QStringLiteral("scenarioCombo"))->setCurrentText(QStringLiteral("primary-overloaded"));
        run->findChild<QSpinBox *>()->setValue(200);
        // A heartbeat on the GUI thread: how late does it get while 200 generations run?
        QElapsedTimer beat;
        qint64 worstStallMs = 0;
        QTimer heartbeat;
        heartbeat.setInterval(10);
        connect(&heartbeat, &QTimer::timeout, this, [&] { worstStallMs = std::max(worstStallMs, beat.restart() - 10); });
        QSignalSpy done(m_window.get(), &MainWindow::generationFinished);
        beat.start();
        heartbeat.start();
        QTest::mouseClick(run->findChild<QPushButton *>(QStringLiteral("generateManyButton")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 200, 120'000);
        heartbeat.stop();
        auto *table = m_window->liveView()->findChild<QTableView *>(QStringLiteral("generationTable"));
        QTRY_COMPARE(table->model()->rowCount(), 200);
        qInfo("Generate x200: worst GUI-thread stall %lld ms", static_cast<long long>(worstStallMs));
        QVERIFY2(worstStallMs < 2000, "the console froze"); // a freeze, not a latency target (that is bench_gui)
    }

    // The operator's selection is theirs: Generate ×50 adds rows without taking it, and the event
    // stream shows the selected generation's events until asked for all.
    void selectionSurvivesGenerateFifty()
    {
        RunView *run = m_window->runView();
        run->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        const GenerationResult first = runScenario(QStringLiteral("primary-overloaded"));
        const GenerationResult second = runScenario(QStringLiteral("healthy"));
        QVERIFY(!first.generationId.isEmpty() && !second.generationId.isEmpty());
        LiveView *live = m_window->liveView();
        QTRY_COMPARE(live->selectedGeneration(), second.generationId); // followed while nothing was chosen
        live->select(first.generationId); // the operator chooses an older one
        QCOMPARE(live->selectedGeneration(), first.generationId);

        run->findChild<QSpinBox *>()->setValue(50);
        QSignalSpy done(m_window.get(), &MainWindow::generationFinished);
        QTest::mouseClick(run->findChild<QPushButton *>(QStringLiteral("generateManyButton")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 50, 120'000);
        auto *table = live->findChild<QTableView *>(QStringLiteral("generationTable"));
        QTRY_COMPARE(table->model()->rowCount(), 52);
        QCOMPARE(live->selectedGeneration(), first.generationId);
        // A new run out of view is said above the list, and one click shows it; one in view is not.
        auto *hint = live->findChild<QToolButton *>(QStringLiteral("newRunHint"));
        QVERIFY(hint);
        // Rows are added in the order generations start: the newest is the source model's last row.
        const auto *proxy = qobject_cast<const QSortFilterProxyModel *>(table->model());
        QVERIFY(proxy);
        const QModelIndex newest = proxy->mapFromSource(proxy->sourceModel()->index(proxy->sourceModel()->rowCount() - 1, 0));
        const bool newestInView = table->viewport()->rect().intersects(table->visualRect(newest));
        QCOMPARE(hint->isVisible(), !newestInView);
        // Scrolled away from where new rows arrive, the next one is out of view.
        table->scrollToBottom();
        const bool newestOnTop = table->visualRect(newest).top() < table->visualRect(table->currentIndex()).top();
        if (!newestOnTop)
            table->scrollToTop();
        QVERIFY(!runScenario(QStringLiteral("healthy")).generationId.isEmpty());
        QCOMPARE(live->selectedGeneration(), first.generationId);
        QVERIFY(hint->isVisible());

        // Its events only, then every generation's.
        QAbstractItemModel *stream = live->eventStream();
        QVERIFY(live->eventsFollowSelection());
        QVERIFY(stream->rowCount() >= 4);
        for (int r = 0; r < stream->rowCount(); ++r)
            QCOMPARE(stream->index(r, 0).data(EventLogModel::GenerationIdRole).toString(), first.generationId);
        const int own = stream->rowCount();
        live->findChild<QCheckBox *>(QStringLiteral("eventsFollowSelection"))->setChecked(false);
        QVERIFY(stream->rowCount() > 50 * own / 2);
        // The outcome column says what happened, in words.
        const int row = table->currentIndex().row();
        QCOMPARE(table->model()->index(row, GenerationListModel::StateColumn).data().toString(),
                 QStringLiteral("succeeded · fallback gemini → qwen"));
        if (hint->isVisible()) {
            QTest::mouseClick(hint, Qt::LeftButton);
            QVERIFY(live->selectedGeneration() != first.generationId && !hint->isVisible());
            QVERIFY(table->viewport()->rect().intersects(table->visualRect(table->currentIndex())));
        }
    }

    // The timeline: its label column fits its labels, no deadline label on attempts that ended by
    // themselves, and each bar's tooltip names provider, model, result, HTTP status, duration,
    // deadline and tokens.
    void timelineFitsLabelsAndExplainsEachSpan()
    {
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        const GenerationResult r = runScenario(QStringLiteral("primary-overloaded"));
        QVERIFY(r.storyboard.fallback.applied);
        auto *timeline = m_window->liveView()->findChild<TimelineWidget *>();
        QVERIFY(timeline);
        QTRY_VERIFY(!timeline->grab().isNull() && timeline->tips().size() >= 5); // budget, 2 storyboard, captions, image
        timeline->resize(900, 300);
        timeline->grab();
        const QFontMetricsF fm(timeline->font());
        QVERIFY(timeline->labelWidth() >= fm.horizontalAdvance(QStringLiteral("storyboard gemini")));
        QCOMPARE(timeline->deadlineLabelsDrawn(), 0);
        QString fallbackTip;
        for (const auto &[rect, tip] : timeline->tips()) {
            if (tip.contains(u"qwen") && tip.contains(u"fallback"))
                fallbackTip = timeline->toolTipAt(rect.center());
        }
        QVERIFY2(fallbackTip.contains(u"qwen-plus") && fallbackTip.contains(u"HTTP 200") && fallbackTip.contains(u"took")
                     && fallbackTip.contains(u"deadline at"),
                 qPrintable(fallbackTip));
        QVERIFY2(fallbackTip.contains(u"tokens in"), qPrintable(fallbackTip));
        QVERIFY(timeline->toolTipAt(QPointF(1, timeline->height() - 1)).isEmpty());
    }

    void retryRerunsTheSameRequest()
    {
        m_window->runView()
            ->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))
            ->setPlainText(QStringLiteral("A story. Two. Three. Four."));
        m_window->runView()->findChild<QComboBox *>(QStringLiteral("fallbackCombo"))->setCurrentText(QStringLiteral("none"));
        const GenerationResult first = runScenario(QStringLiteral("primary-overloaded"));
        QCOMPARE(first.state, FinalState::Failed);
        m_window->tabs()->setCurrentWidget(m_window->resultView());
        auto *retry = m_window->resultView()->findChild<QPushButton *>(QStringLiteral("retryButton"));
        QVERIFY(retry->isVisible());
        QSignalSpy done(m_window.get(), &MainWindow::generationFinished);
        QTest::mouseClick(retry, Qt::LeftButton);
        QVERIFY(done.wait(20'000));
        QVERIFY(done.first().first().value<GenerationResult>().generationId != first.generationId);
    }

    // docs/contract.md §5: store write failures are shown in the status bar until acknowledged.
    void storeWriteFailuresAreShownUntilAcknowledged()
    {
        if (attached())
            QSKIP("the engine's store is the engine's: its write failures are in its /metrics, not this console's status bar");
        m_window.reset();
        m_engine.reset();
        QTemporaryDir data;
        SetupOptions options;
        options.forceSimulator = true;
        options.dataDir = data.path();
        options.environment = QProcessEnvironment();
        auto embedded = std::make_unique<EngineSetup>();
        QVERIFY(embedded->init(options));
        QVERIFY(embedded->store());
        const QString databasePath = embedded->store()->databasePath();
        m_engine = std::move(embedded);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("saboteur"));
            db.setDatabaseName(databasePath);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("DROP TABLE events")));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("saboteur"));
        m_window = std::make_unique<MainWindow>(*m_engine);
        m_window->show();
        auto *warning = m_window->findChild<QWidget *>(QStringLiteral("storeWarning"));
        QVERIFY(warning);
        QVERIFY(!warning->isVisible());
        m_window->runView()->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story."));
        const GenerationResult r = runScenario(QStringLiteral("healthy"));
        QCOMPARE(r.state, FinalState::Succeeded); // the generation is not failed by the store
        QTRY_VERIFY_WITH_TIMEOUT(warning->isVisible(), 10'000);
        const QString text = m_window->findChild<QLabel *>(QStringLiteral("storeWarningText"))->text();
        QVERIFY2(text.contains(u"Record writes failed: ") && text.contains(u"bullpen.sqlite"), qPrintable(text));
        const QString tip = m_window->findChild<QLabel *>(QStringLiteral("storeWarningText"))->toolTip();
        QVERIFY2(tip.contains(databasePath), qPrintable(tip));
        QTest::mouseClick(m_window->findChild<QToolButton *>(QStringLiteral("storeWarningAcknowledge")), Qt::LeftButton);
        QVERIFY(!warning->isVisible());
    }

    // Last: attached, the engine keeps the generation after the window has gone. Closing with a
    // generation running asks (embedded: it would be cancelled) or says that the engine keeps running
    // it (attached); "Keep running" leaves the window open.
    void closingWithAGenerationRunningAsks()
    {
        RunView *run = m_window->runView();
        run->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"))->setPlainText(QStringLiteral("A story."));
        run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QStringLiteral("5s"));
        run->findChild<QComboBox *>(QStringLiteral("scenarioCombo"))->setCurrentText(QStringLiteral("primary-hang"));
        QTest::mouseClick(run->findChild<QPushButton *>(QStringLiteral("generateButton")), Qt::LeftButton);
        auto *table = m_window->liveView()->findChild<QTableView *>(QStringLiteral("generationTable"));
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QString said;
        const auto answer = [&said](const QString &button) {
            auto *poll = new QTimer;
            QObject::connect(poll, &QTimer::timeout, poll, [poll, button, &said] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                if (!box || box->objectName() != u"closeWhileRunning")
                    return;
                said = box->text() + u' ' + box->informativeText();
                box->findChild<QPushButton *>(button)->click();
                poll->deleteLater();
            });
            poll->start(20);
        };
        answer(QStringLiteral("keepRunning"));
        m_window->close();
        QVERIFY(m_window->isVisible());
        QVERIFY2(said.contains(attached() ? u"engine keeps running them" : u"Quitting cancels them"), qPrintable(said));
        answer(QStringLiteral("closeAnyway"));
        m_window->close();
        QVERIFY(!m_window->isVisible());
    }
};

QTEST_MAIN(tst_Console)
#include "tst_console.moc"
