// SPDX-License-Identifier: MIT
// The console at the moment of action (docs/console.md, "During an incident"): an operator drains a
// failing provider from its health card while the strip keeps refreshing and traffic keeps changing
// the cards behind the open menu and dialog. Real input events on the embedded engine's console, with
// its store and the simulator over loopback.
#include "engineprocess.h"
#include "models/providerhealthmodel.h"
#include "remote/remoteconnection.h"
#include "remote/remoteengine.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "runtime/replayrunner.h"
#include "store/store.h"
#include "views/draindialog.h"
#include "views/failuresview.h"
#include "views/healthstrip.h"
#include "views/mainwindow.h"
#include "views/replaydialog.h"
#include "views/runview.h"
#include "views/tones.h"

#include <QAbstractButton>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>

#include <functional>

using namespace bullpen;

class tst_ConsoleTrust : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    std::unique_ptr<EngineSetup> m_engine;
    std::unique_ptr<MainWindow> m_window;

    // Starts `n` generations on `scenario` straight through the engine's client (the traffic of other
    // users while the operator acts); returns at once.
    void traffic(const QString &scenario, int n)
    {
        for (int i = 0; i < n; ++i) {
            GenerationRequest r;
            r.story = QStringLiteral("A story. Two. Three. Four.");
            r.userId = QStringLiteral("user%1@example.com").arg(i);
            r.fresh = true;
            r.scenario.name = scenario;
            m_engine->client().start(r);
        }
    }

    // Whatever is open on top now: the popup menu, else the modal or active dialog.
    static QWidget *onTop()
    {
        if (QWidget *popup = QApplication::activePopupWidget())
            return popup;
        if (QWidget *modal = QApplication::activeModalWidget())
            return modal;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (qobject_cast<QDialog *>(w) && w->isVisible())
                return w;
        return nullptr;
    }

    // Inside a scroll area (the settings' form, the health strip's cards): on screen by scrolling.
    static bool scrolled(const QWidget *w)
    {
        for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget())
            if (p->inherits("QAbstractScrollArea"))
                return true;
        return false;
    }

private Q_SLOTS:
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

    // A right click on a FAILING NOW card, Drain… from its menu, a reason typed into the dialog and
    // confirmed, with the strip refreshing every 50 ms and new failures changing the cards all along:
    // the drain is applied, the card the operator held is still there, and nothing crashed.
    void drainFromACardWhileTheStripRefreshes()
    {
        HealthStrip *strip = m_window->healthStrip();
        strip->setInterval(50);
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("primary-overloaded"), 6);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 6, 30'000);
        const QString name = QStringLiteral("healthCard_gemini_primary_storyboard");
        QPointer<QWidget> card;
        QTRY_VERIFY_WITH_TIMEOUT((card = strip->findChild<QWidget *>(name)) && card->isVisible(), 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<QLabel *>(card.data())->text().contains(QStringLiteral("FAILING NOW")), 10'000);
        int updates = 0;
        connect(strip, &HealthStrip::updated, this, [&updates] { ++updates; });
        // The operator's hand: steps run from a timer, so they go on inside whatever event loop a
        // menu or dialog runs (a menu or dialog that blocks in exec() as much as one that does not).
        int mark = 0;
        QAction *drain = nullptr;
        const QList<std::function<bool()>> steps {
            [&] { // a right click on the card as it is now: the platform delivers it as a context menu event
                card = strip->findChild<QWidget *>(name);
                if (!card)
                    return false;
                QTest::mouseClick(card, Qt::RightButton, {}, QPoint(20, 10));
                QCoreApplication::postEvent(
                    card, new QContextMenuEvent(QContextMenuEvent::Mouse, QPoint(20, 10), card->mapToGlobal(QPoint(20, 10))));
                return true;
            },
            [&] { // the menu is open; more failures arrive
                if (!qobject_cast<QMenu *>(QApplication::activePopupWidget()))
                    return false;
                traffic(QStringLiteral("primary-overloaded"), 2);
                mark = updates;
                return true;
            },
            [&] { return updates >= mark + 5; }, // five refreshes behind the open menu
            [&] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                if (!menu)
                    QTest::qFail("the menu closed while the strip refreshed", __FILE__, __LINE__);
                for (QAction *a : menu ? menu->actions() : QList<QAction *>())
                    if (a->text().startsWith(QStringLiteral("Drain")))
                        drain = a;
                if (!drain)
                    return true;
                menu->setActiveAction(drain);
                QTest::keyClick(menu, Qt::Key_Return);
                return true;
            },
            [&] { // the drain dialog is open; more failures arrive
                if (!onTop() || qobject_cast<QMenu *>(onTop()))
                    return false;
                traffic(QStringLiteral("primary-overloaded"), 2);
                mark = updates;
                return true;
            },
            [&] { return updates >= mark + 5; },
            [&] {
                if (auto *reason = onTop() ? onTop()->findChild<QLineEdit *>() : nullptr) {
                    reason->setFocus();
                    QTest::keyClicks(reason, QStringLiteral("incident 4711: 503s"));
                }
                mark = updates;
                return true;
            },
            [&] { return updates >= mark + 3; },
            [&] {
                if (auto *reason = onTop() ? onTop()->findChild<QLineEdit *>() : nullptr)
                    QTest::keyClick(reason, Qt::Key_Return);
                mark = updates;
                return true;
            },
            [&] { // a confirmation after the dialog, if there is one, is answered Yes after more refreshes
                if (updates < mark + 3)
                    return false;
                if (auto *box = qobject_cast<QMessageBox *>(onTop()))
                    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
                mark = updates;
                return true;
            },
            [&] { return updates >= mark + 3; },
        };
        int step = 0;
        QTimer hand;
        connect(&hand, &QTimer::timeout, this, [&] {
            if (step < steps.size() && steps[step]())
                ++step;
        });
        hand.start(20);
        QTRY_VERIFY_WITH_TIMEOUT(step == steps.size(), 30'000);
        hand.stop();
        QVERIFY2(drain, "the card's menu has no Drain…");

        QTRY_VERIFY_WITH_TIMEOUT(
            strip->controlLine(Provider::Gemini, Role::Primary, Stage::Storyboard).contains(QStringLiteral("incident 4711")), 10'000);
        QVERIFY2(card, "the card the operator acted on was deleted");
        QVERIFY(onTop() == nullptr);
        // Only what the dialog named changes: the storyboard card is drained, the image stage's is not.
        QVERIFY(strip->controlLine(Provider::Gemini, Role::Primary, Stage::Image).isEmpty());
        m_engine->restoreProvider(Provider::Gemini);
        QTRY_VERIFY_WITH_TIMEOUT(
            !strip->controlLine(Provider::Gemini, Role::Primary, Stage::Storyboard).contains(QStringLiteral("DRAINED")), 10'000);
    }

    // Every view shown and every dialog opened, in English and Korean, light and dark: the window
    // still fits 1024×700 with every button and field on screen, and so does each dialog.
    void fitsAt1024x700AfterEverything_data()
    {
        QTest::addColumn<bool>("korean");
        QTest::addColumn<bool>("dark");
        QTest::newRow("en light") << false << false;
        QTest::newRow("ko light") << true << false;
        QTest::newRow("en dark") << false << true;
        QTest::newRow("ko dark") << true << true;
    }

    void fitsAt1024x700AfterEverything()
    {
        QFETCH(bool, korean);
        QFETCH(bool, dark);
        QTranslator ui, core;
        if (korean) {
            QVERIFY(ui.load(QStringLiteral(":/i18n/bullpen_ko.qm")));
            QVERIFY(core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")));
            QCoreApplication::installTranslator(&ui);
            QCoreApplication::installTranslator(&core);
        }
        const QPalette before = QApplication::palette();
        if (dark)
            QApplication::setPalette(tones::darkPalette());
        const auto restore = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&ui);
            QCoreApplication::removeTranslator(&core);
            QApplication::setPalette(before);
        });
        cleanup(); // a window made in this language and palette
        init();
        // Some history, so that Failures, Latency and the strip have something to lay out.
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("primary-overloaded"), 2);
        traffic(QStringLiteral("healthy"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 30'000);
        // A validation message on Run, too.
        m_window->runView()->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QStringLiteral("soon"));
        QTabWidget *tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(0);
            QCoreApplication::processEvents();
        }
        QList<QDialog *> dialogs;
        auto *drain = new DrainDialog(Provider::Gemini, Role::Primary, Stage::Storyboard, m_window.get());
        dialogs << drain;
        // Failures with a generation's detail open, and its Replay dialog.
        QString failed;
        for (const QList<QVariant> &r : finished)
            if (r.first().value<GenerationResult>().storyboard.fallback.applied)
                failed = r.first().value<GenerationResult>().generationId;
        QVERIFY(!failed.isEmpty());
        QVERIFY(m_engine->store()->flush());
        m_window->openGeneration(failed);
        auto *replay = m_window->failuresView()->findChild<QAbstractButton *>(QStringLiteral("replayButton"));
        QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), 10'000);
        QTest::mouseClick(replay, Qt::LeftButton);
        QDialog *replayDialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((replayDialog = m_window->failuresView()->findChild<ReplayDialog *>()) && replayDialog->isVisible(),
                                 10'000);
        dialogs << replayDialog;
        for (QDialog *d : dialogs) {
            d->show();
            QVERIFY(QTest::qWaitForWindowExposed(d));
            const QSize hint = d->minimumSizeHint().expandedTo(d->minimumSize());
            QVERIFY2(hint.width() <= 1024 && hint.height() <= 700,
                     qPrintable(QStringLiteral("%1 needs %2×%3").arg(d->objectName()).arg(hint.width()).arg(hint.height())));
            QVERIFY2(d->width() <= 1024 && d->height() <= 700,
                     qPrintable(QStringLiteral("%1 opens at %2×%3").arg(d->objectName()).arg(d->width()).arg(d->height())));
            d->close();
        }
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            m_window->resize(1024, 700);
            QTRY_VERIFY(m_window->size() == QSize(1024, 700) || m_window->minimumSizeHint().height() > 700);
            const QSize min = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
            QString pages; // what each page asks for, to say which one is too big
            for (int p = 0; p < tabs->count(); ++p)
                pages += QStringLiteral(" %1 %2×%3;")
                             .arg(tabs->tabText(p))
                             .arg(tabs->widget(p)->minimumSizeHint().width())
                             .arg(tabs->widget(p)->minimumSizeHint().height());
            QVERIFY2(min.width() <= 1024 && min.height() <= 700,
                     qPrintable(QStringLiteral("with %1 shown the window needs %2×%3 (pages:%4)")
                                    .arg(tabs->tabText(i))
                                    .arg(min.width())
                                    .arg(min.height())
                                    .arg(pages)));
            const QRect screen(QPoint(0, 0), QSize(1024, 700));
            for (QWidget *w : m_window->findChildren<QWidget *>()) {
                if (!w->isVisible() || !(qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w)))
                    continue;
                if (scrolled(w))
                    continue; // reached by scrolling its area, which is itself checked

                const QRect at(w->mapTo(m_window.get(), QPoint(0, 0)), w->size());
                QVERIFY2(screen.contains(at.center()),
                         qPrintable(QStringLiteral("on %1, %2 (%3) is off the 1024×700 screen at %4,%5")
                                        .arg(tabs->tabText(i), QString::fromLatin1(w->metaObject()->className()), w->objectName())
                                        .arg(at.center().x())
                                        .arg(at.center().y())));
            }
        }
    }

    // A what-if replay (a 50 ms primary timeout) is synthetic: no card says it was a probe (this
    // console runs no prober), and no card's figures or state change for it.
    void replayIsNoProbeAndNoTraffic()
    {
        HealthStrip *strip = m_window->healthStrip();
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("healthy"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        const GenerationResult original = finished.first().first().value<GenerationResult>();
        QVERIFY(m_engine->store()->flush());
        const auto cards = [strip] {
            QStringList texts;
            for (HealthCard *c : strip->findChildren<HealthCard *>())
                if (c->isVisible())
                    texts << c->objectName() + QLatin1Char('\n') + c->text();
            texts.sort();
            return texts;
        };
        const auto readNow = [strip] {
            QSignalSpy updated(strip, &HealthStrip::updated);
            strip->refresh();
            return updated.wait(10'000);
        };
        QTRY_VERIFY_WITH_TIMEOUT(readNow() && !cards().isEmpty(), 10'000);
        const QStringList before = cards();

        QString why;
        const std::optional<ReplaySource> source = ReplaySource::read(*m_engine->store(), original.generationId, &why);
        QVERIFY2(source, qPrintable(why));
        QJsonObject settings = source->policy->settingsJson();
        QJsonObject sb = settings.value(QLatin1StringView("storyboard")).toObject();
        sb.insert(QStringLiteral("primary_timeout"), QStringLiteral("50ms"));
        settings.insert(QStringLiteral("storyboard"), sb);
        QTemporaryDir work;
        const auto write = [&work](const QString &name, const QJsonObject &o) {
            QFile f(work.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson()) > 0 ? f.fileName() : QString();
        };
        const ReplayRunner::Options play { write(QStringLiteral("scenario.json"), source->scenario().scenario),
                                           write(QStringLiteral("settings.json"), settings),
                                           work.filePath(QStringLiteral("none.env")),
                                           source->row.id,
                                           m_engine->replayStore(),
                                           m_engine->replayMasking() };
        const std::optional<GenerationResult> replay = ReplayRunner::play(play, std::chrono::seconds(30), &why);
        QVERIFY2(replay, qPrintable(why));
        QVERIFY(m_engine->store()->flush());
        QVERIFY(readNow());
        const QStringList after = cards();
        for (const QString &card : after)
            QVERIFY2(!card.contains(QStringLiteral("probe")), qPrintable(card));
        QCOMPARE(after, before);
    }

    // Attached, the engine killed before Generate and during a generation: the status bar names the
    // engine, Generate is off and says why, nothing becomes a provider's failure, and once the engine
    // is back every label is current again.
    void engineDownIsNotAProvider()
    {
        cleanup();
        QTemporaryDir dir;
        test::Engine engine(dir.path());
        const QString token = engine.token(QStringLiteral("console"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start({ QStringLiteral("--rate"), QStringLiteral("100000") }));
        const quint16 port = engine.m_port;
        RemoteConnection remote(EngineEndpoint { engine.url, token.toLatin1() });
        remote.open();
        QTRY_VERIFY_WITH_TIMEOUT(remote.usable() && !remote.runningConfig().isEmpty(), 10'000);
        MainWindow window(remote);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *generate = window.runView()->findChild<QPushButton *>(QStringLiteral("generateButton"));
        auto *status = window.findChild<QLabel *>(QStringLiteral("engineStatus"));
        window.runView()->setStory(QStringLiteral("A story. Two. Three. Four."));
        QTRY_VERIFY(generate->isEnabled());
        QSignalSpy results(&window, &MainWindow::generationFinished);

        // During a generation: the primary hangs, the engine dies under it.
        window.runView()->setScenario(QStringLiteral("primary-hang"));
        QTest::mouseClick(generate, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(remote.remote().pendingSummary().startsWith(QStringLiteral("1 ")), 5'000);
        engine.kill();
        QTRY_VERIFY_WITH_TIMEOUT(!remote.usable(), 10'000);
        const QString where = QStringLiteral("127.0.0.1:%1").arg(port);
        QVERIFY2(status->toolTip().contains(where) || status->text().contains(where), qPrintable(status->text()));
        QTRY_VERIFY(!generate->isEnabled());
        QVERIFY2(generate->toolTip().contains(where), qPrintable(generate->toolTip()));
        // Before Generate: the Engine menu's Generate (Ctrl+Return) starts nothing either.
        QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY2(remote.remote().pendingSummary().startsWith(QStringLiteral("1 ")), qPrintable(remote.remote().pendingSummary()));
        // The strip blames the engine, not the store or a provider.
        QSignalSpy read(window.healthStrip(), &HealthStrip::updated);
        window.healthStrip()->refresh();
        QVERIFY(read.wait(10'000));
        QVERIFY2(window.healthStrip()->findChild<QLabel *>(QStringLiteral("healthUpdated"))->text().contains(QStringLiteral("engine")),
                 qPrintable(window.healthStrip()->findChild<QLabel *>(QStringLiteral("healthUpdated"))->text()));

        // Back on the same address: current again, and the generation the engine lost is not a provider's.
        QVERIFY(engine.start({ QStringLiteral("--rate"), QStringLiteral("100000") }, port));
        QTRY_VERIFY_WITH_TIMEOUT(remote.usable(), 20'000);
        QTRY_VERIFY(generate->isEnabled());
        QTRY_VERIFY2(status->text().contains(QStringLiteral("connected to")), qPrintable(status->text()));
        for (const QList<QVariant> &r : results) {
            const GenerationResult result = r.first().value<GenerationResult>();
            if (!result.failure)
                continue;
            QVERIFY2(result.failure->kind != FailureKind::NETWORK, qPrintable(result.failure->detail));
            QVERIFY2(!result.nextStep || !result.nextStep->message.contains(QStringLiteral("gemini")),
                     qPrintable(result.nextStep->message));
        }
        engine.stop();
    }

    // Restore is offered only where something is drained.
    void restoreOnlyWhereDrained()
    {
        HealthStrip *strip = m_window->healthStrip();
        strip->setInterval(50);
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("healthy"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        HealthCard *card = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((card = strip->findChild<HealthCard *>(QStringLiteral("healthCard_gemini_primary_storyboard"))), 10'000);
        const auto names = [strip, card] {
            QObject owner;
            QStringList n;
            for (QAction *a : strip->cardActions(card, &owner))
                n << a->objectName();
            return n;
        };
        QVERIFY(names().contains(QStringLiteral("drainAction")));
        QVERIFY(!names().contains(QStringLiteral("restoreAction")));
        m_engine->drainProvider({ Provider::Gemini, Role::Primary, Stage::Storyboard, QStringLiteral("test"), {} });
        QTRY_VERIFY(names().contains(QStringLiteral("restoreAction")));
        m_engine->restoreProvider(Provider::Gemini);
        QTRY_VERIFY(!names().contains(QStringLiteral("restoreAction")));
    }
};

QTEST_MAIN(tst_ConsoleTrust)
#include "tst_consoletrust.moc"
