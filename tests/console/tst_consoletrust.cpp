// SPDX-License-Identifier: MIT
// The console at the moment of action (docs/console.md, "During an incident"): an operator drains a
// failing provider from its health card while the strip keeps refreshing and traffic keeps changing
// the cards behind the open menu and dialog. Real input events on the embedded engine's console, with
// its store and the simulator over loopback.
#include "config/settings.h"
#include "engineprocess.h"
#include "models/annotationmodel.h"
#include "models/providerhealthmodel.h"
#include "models/units.h"
#include "remote/remoteconnection.h"
#include "remote/remoteengine.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "runtime/replayrunner.h"
#include "store/store.h"
#include "views/desktopnotifier.h"
#include "views/draindialog.h"
#include "views/failuresview.h"
#include "views/healthstrip.h"
#include "views/latencyview.h"
#include "views/mainwindow.h"
#include "views/replaydialog.h"
#include "views/resultview.h"
#include "views/runview.h"
#include "views/settingsview.h"
#include "views/tones.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
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

    // Words a Korean reader may meet in English: names, ids, units and codes, not sentences.
    static bool allowedWord(const QString &w)
    {
        static const QSet<QString> allowed {
            QStringLiteral("ms"),
            QStringLiteral("s"),
            QStringLiteral("min"),
            QStringLiteral("h"),
            QStringLiteral("p50"),
            QStringLiteral("p90"),
            QStringLiteral("p99"),
            QStringLiteral("Bullpen"),
            QStringLiteral("bullpen"),
            QStringLiteral("gemini"),
            QStringLiteral("qwen"),
            QStringLiteral("openai"),
            QStringLiteral("anthropic"),
            QStringLiteral("Gemini"),
            QStringLiteral("Qwen"),
            QStringLiteral("OpenAI"),
            QStringLiteral("Anthropic"),
            QStringLiteral("API"),
            QStringLiteral("URL"),
            QStringLiteral("JSON"),
            QStringLiteral("CSV"),
            QStringLiteral("JSONL"),
            QStringLiteral("HTTP"),
            QStringLiteral("HTTPS"),
            QStringLiteral("Tab"),
            QStringLiteral("Shift"),
            QStringLiteral("Ctrl"),
            QStringLiteral("Alt"),
            QStringLiteral("Enter"),
            QStringLiteral("Esc"),
            QStringLiteral("Return"),
            QStringLiteral("F1"),
            QStringLiteral("PostgreSQL"),
            QStringLiteral("SQLite"),
            QStringLiteral("id"),
            QStringLiteral("gen"),
            QStringLiteral("capacity"),
            QStringLiteral("strict"),
            QStringLiteral("lenient"),
            QStringLiteral("relief"),
            QStringLiteral("rounds"),
            QStringLiteral("healthy"),
            QStringLiteral("flaky"),
            QStringLiteral("instant"),
            QStringLiteral("English"),
            QStringLiteral("console"),
            QStringLiteral("none"),
            QStringLiteral("off"),
            QStringLiteral("socks5"),
            QStringLiteral("host"),
            QStringLiteral("port"),
            QStringLiteral("proxy"),
            // fallback_reason endings and settings-file keys: ids as records and files spell them
            QStringLiteral("timeout"),
            QStringLiteral("drained"),
            QStringLiteral("name"),
            QStringLiteral("format"),
            QStringLiteral("model"),
            QStringLiteral("query"),
            QStringLiteral("stages"),
        };
        return allowed.contains(w)
            || w == w.toUpper() /* kind codes, variables */ || w.contains(QRegularExpression(QStringLiteral("[0-9_]")));
    }

    // Every text a person reads under `root`: labels, buttons, tooltips, combo items, tabs, headers,
    // charts' titles, axes and series, actions. `fieldTips`: the tooltips of fields too (they show the
    // syntax to type, such as 1500ms).
    static QStringList visibleTexts(QWidget *root, bool fieldTips = true)
    {
        QStringList texts;
        const auto add = [&texts](const QString &t) {
            if (!t.trimmed().isEmpty())
                texts << t;
        };
        QList<QWidget *> widgets = root->findChildren<QWidget *>();
        widgets.prepend(root);
        for (QWidget *w : widgets) {
            if ((!w->isVisibleTo(root) && w != root) || w->property("content").toBool())
                continue; // hidden, or a generation's own content (the story, the panels): data, not the interface
            if (fieldTips || !qobject_cast<QLineEdit *>(w))
                add(w->toolTip());
            add(w->windowTitle());
            if (auto *l = qobject_cast<QLabel *>(w))
                add(QTextDocumentFragment::fromHtml(l->text()).toPlainText());
            if (auto *b = qobject_cast<QAbstractButton *>(w))
                add(b->text());
            if (auto *c = qobject_cast<QComboBox *>(w))
                for (int i = 0; i < c->count(); ++i)
                    add(c->itemText(i));
            if (auto *e = qobject_cast<QLineEdit *>(w))
                add(e->placeholderText());
            if (auto *t = qobject_cast<QTabBar *>(w))
                for (int i = 0; i < t->count(); ++i)
                    add(t->tabText(i));
            if (auto *g = qobject_cast<QGroupBox *>(w))
                add(g->title());
            if (auto *v = qobject_cast<QAbstractItemView *>(w); v && v->model())
                for (int c = 0; c < v->model()->columnCount(); ++c)
                    add(v->model()->headerData(c, Qt::Horizontal).toString());
            if (auto *chart = qobject_cast<QChartView *>(w); chart && chart->chart()) {
                add(chart->chart()->title());
                for (QAbstractAxis *a : chart->chart()->axes())
                    add(a->titleText());
                for (QAbstractSeries *series : chart->chart()->series())
                    add(series->name());
            }
        }
        for (QAction *a : root->findChildren<QAction *>()) {
            add(QString(a->text()).remove(QLatin1Char('&')));
            add(a->toolTip());
        }
        return texts;
    }

    // The texts under `root` that hold an English word a person would read.
    static QStringList englishIn(QWidget *root)
    {
        const QStringList texts = visibleTexts(root);
        QStringList english;
        // One word for fallback (대체, docs/translations.md), and no particle that depends on how a
        // name is pronounced (%1이(가), %1(으)로): in Korean these read as mistakes.
        static const QRegularExpression wrongKorean(QStringLiteral("폴백|\\((가|를|는|으)\\)|\\(으\\)로|\\(과\\)|\\(와\\)"));
        for (const QString &t : texts)
            if (t.contains(wrongKorean))
                english << QStringLiteral("(wrong Korean) %1").arg(t.left(160));
        static const QRegularExpression word(QStringLiteral("[A-Za-z0-9][A-Za-z0-9_]*"));
        for (const QString &t : texts) {
            // Paths, addresses and ids are data, not words: left out whole.
            QString text = t;
            text.remove(QRegularExpression(QStringLiteral("\\S*[/:@.][A-Za-z]\\S*")));
            text.remove(QRegularExpression(QStringLiteral("[a-z0-9]+://\\S+"))); // addresses
            text.remove(QRegularExpression(QStringLiteral("--[a-z-]+"))); // command-line options
            text.remove(QRegularExpression(QStringLiteral("[A-Za-z0-9_]+(-[A-Za-z0-9_]+)+"))); // ids: primary-hang, gpt-4o
            for (auto it = word.globalMatch(text); it.hasNext();) {
                if (const QString w = it.next().captured(); !allowedWord(w)) {
                    english << QStringLiteral("\"%1\" in: %2").arg(w, t.left(160));
                    break;
                }
            }
        }
        return english;
    }

    // Durations written another way than the one formatter writes them (durationText): "2500ms",
    // "0.2 s" for 206 ms, "60.0 s" for a minute, "1500 ms" for 1.5 s.
    static QStringList badDurations(const QStringList &texts)
    {
        static const QRegularExpression duration(QStringLiteral("(?<![\\w.])(\\d+(?:\\.\\d+)?)(\\s*)(ms|s|min)\\b"));
        QStringList bad;
        for (const QString &t : texts) {
            for (auto it = duration.globalMatch(t); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                const double value = m.captured(1).toDouble();
                const bool decimal = m.captured(1).contains(QLatin1Char('.'));
                const QString unit = m.captured(3);
                const bool spaced = !m.captured(2).isEmpty();
                const bool ok = spaced
                    && ((unit == u"ms" && !decimal && value < 1000) || (unit == u"s" && (decimal || value == 0) && value >= 1 && value < 60)
                        || (unit == u"s" && t.mid(m.capturedStart() - 4, 4).contains(QStringLiteral("min"))) || unit == u"min");
                if (!ok) {
                    bad << QStringLiteral("\"%1\" in: %2").arg(m.captured(), t.left(160));
                    break;
                }
            }
        }
        return bad;
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
        // Only what the dialog named changes: the storyboard card is drained (its header says so), the
        // image stage's is not and offers no Restore.
        QVERIFY(strip->controlLine(Provider::Gemini, Role::Primary, Stage::Image).isEmpty());
        QTRY_VERIFY(qobject_cast<QLabel *>(card.data())->text().contains(QStringLiteral("<b>DRAINED</b>")));
        if (auto *image = strip->findChild<HealthCard *>(QStringLiteral("healthCard_gemini_primary_image"))) {
            QObject owner;
            for (QAction *a : strip->cardActions(image, &owner))
                QVERIFY(a->objectName() != u"restoreAction");
        }
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
        // The dialogs that run their own loop (exec): measured from a timer while they are open, then
        // closed as a person would (Escape): Connect…, About, and the close confirmation.
        QStringList modal;
        QTimer hand;
        connect(&hand, &QTimer::timeout, this, [&modal] {
            QWidget *d = QApplication::activeModalWidget();
            if (!d)
                return;
            const QSize hint = d->minimumSizeHint().expandedTo(d->minimumSize());
            modal << QStringLiteral("%1 %2×%3 (needs %4×%5)")
                         .arg(d->objectName().isEmpty() ? QString::fromLatin1(d->metaObject()->className()) : d->objectName())
                         .arg(d->width())
                         .arg(d->height())
                         .arg(hint.width())
                         .arg(hint.height());
            if (d->width() > 1024 || d->height() > 700 || hint.width() > 1024 || hint.height() > 700)
                modal.last().prepend(QStringLiteral("TOO BIG: "));
            QTest::keyClick(d, Qt::Key_Escape);
        });
        hand.start(50);
        for (const char *name : { "connectAction", "aboutAction" })
            m_window->findChild<QAction *>(QLatin1StringView(name))->trigger();
        // A generation running in this window: closing asks first.
        m_window->runView()->setStory(QStringLiteral("A story. Two. Three. Four."));
        m_window->runView()->setScenario(QStringLiteral("primary-hang"));
        m_window->runView()->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QStringLiteral("60 s"));
        auto *generate = m_window->runView()->findChild<QPushButton *>(QStringLiteral("generateButton"));
        QVERIFY(generate->isEnabled());
        QTest::mouseClick(generate, Qt::LeftButton);
        m_window->close();
        hand.stop();
        QVERIFY(m_window->isVisible()); // Escape kept it open
        QCOMPARE(modal.size(), 3);
        for (const QString &m : modal)
            QVERIFY2(!m.startsWith(QStringLiteral("TOO BIG")), qPrintable(m));
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
        QJsonObject settings = source->policy->settingsJson(ProviderTable());
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
        // Started on the engine (its POST answered), so that the engine dies under a running generation.
        QTRY_VERIFY_WITH_TIMEOUT(remote.remote().pendingSummary().startsWith(QStringLiteral("1 waiting for a result: 0 posting")), 5'000);
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
            const QString next = result.nextStep ? result.nextStep->message : QString();
            qInfo().noquote() << "result after the engine died:" << enumName(result.failure->kind) << result.failure->detail << "/" << next;
            QVERIFY2(result.failure->kind != FailureKind::NETWORK, qPrintable(result.failure->detail));
            QVERIFY2(!next.contains(QStringLiteral("gemini")), qPrintable(next));
        }
        engine.stop();
    }

    // Attached, the console lists a provider its engine's settings file adds (not a built-in, unknown to
    // this process before): in the Run, Failures, Latency and Control views' provider pickers, read from
    // GET /v1/config into the connection's table (docs/architecture.md, "What the front end holds"), and,
    // drained, in the health strip. The process's registry learns its id and never lists it.
    void attachedConsoleListsTheEnginesAddedProvider()
    {
        cleanup();
        QTemporaryDir dir;
        const QString settings = dir.filePath(QStringLiteral("settings.json"));
        QFile f(settings);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(
                    QJsonObject { { QStringLiteral("providers"),
                                    QJsonArray { QJsonObject { { QStringLiteral("id"), QStringLiteral("attached-acme") },
                                                               { QStringLiteral("format"), QStringLiteral("openai") },
                                                               { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:9/v1") },
                                                               { QStringLiteral("model"), QStringLiteral("acme-7b") } } } } })
                    .toJson());
        f.close();
        QVERIFY(!ProviderRegistry::find(u"attached-acme")); // this process has never heard of it
        test::Engine engine(dir.filePath(QStringLiteral("engine")));
        const QString token = engine.token(QStringLiteral("console"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start({ QStringLiteral("--settings"), settings }));
        RemoteConnection remote(EngineEndpoint { engine.url, token.toLatin1() });
        remote.open();
        // As `bullpen --engine URL` does: the window is made and shown at once, before the engine's
        // configuration has arrived; its pickers take the engine's providers when it does.
        MainWindow window(remote);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(remote.usable() && !remote.runningConfig().isEmpty(), 10'000);
        auto *failuresPicker = window.findChild<FailuresView *>()->findChild<QComboBox *>(QStringLiteral("providerCombo"));
        QVERIFY(failuresPicker);
        QTRY_VERIFY2(failuresPicker->findData(QStringLiteral("attached-acme")) >= 0, "the Failures view's provider filter");
        auto *controlPicker = window.findChild<QComboBox *>(QStringLiteral("controlDrainProvider"));
        QVERIFY(controlPicker);
        QVERIFY2(controlPicker->findData(QStringLiteral("attached-acme")) >= 0, "the Control view's drain picker");
        QCOMPARE(controlPicker->itemText(controlPicker->findData(QStringLiteral("attached-acme"))), QStringLiteral("attached-acme"));
        for (const char *name : { "primaryCombo", "fallbackCombo", "latencyProvider" }) {
            auto *picker = window.findChild<QComboBox *>(QLatin1StringView(name));
            QVERIFY2(picker && picker->findData(QStringLiteral("attached-acme")) >= 0, name);
        }

        const std::optional<Provider> acme = ProviderRegistry::find(u"attached-acme");
        QVERIFY(acme);
        QVERIFY2(ProviderRegistry::spec(*acme).baseUrl.isEmpty(), "the engine's provider is its connection's, not the process's");
        QVERIFY(remote.providers().all().contains(*acme));
        DrainRequest drain;
        drain.provider = *acme;
        drain.reason = QStringLiteral("maintenance");
        remote.drainProvider(drain);
        const auto card = [&] {
            auto *c = window.healthStrip()->findChild<QWidget *>(QStringLiteral("healthCard_attached-acme_primary"));
            return c && c->isVisible();
        };
        QSignalSpy read(window.healthStrip(), &HealthStrip::updated);
        for (int i = 0; i < 20 && !card(); ++i) { // the strip reads the engine's drains when asked
            window.healthStrip()->refresh();
            QVERIFY(read.wait(10'000));
        }
        QVERIFY2(card(), "no health card for the drained added provider");
        remote.restoreProvider(*acme);
        engine.stop();
    }

    // Attached, the audit trail (and with it the charts' drain and breaker markers) is read from the
    // engine: GET /v1/audit with its query apart from the path (a `?` in the path was sent as %3F, the
    // engine answered 404, and the Control view's audit and the annotations stayed empty).
    void attachedAuditFeedsTheAnnotations()
    {
        cleanup();
        QTemporaryDir dir;
        test::Engine engine(dir.path());
        const QString token = engine.token(QStringLiteral("console"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        QVERIFY(engine.start());
        RemoteConnection remote(EngineEndpoint { engine.url, token.toLatin1() });
        remote.open();
        QTRY_VERIFY_WITH_TIMEOUT(remote.usable(), 10'000);
        AnnotationModel annotations;
        connect(&remote, &EngineConnection::auditChanged, &annotations, &AnnotationModel::setAudit);
        QSignalSpy failed(&remote, &EngineConnection::providerActionFailed);
        DrainRequest drain;
        drain.provider = Provider::Gemini;
        drain.reason = QStringLiteral("status page says down");
        remote.drainProvider(drain); // answered: the providers and the audit are read again
        QTRY_COMPARE_WITH_TIMEOUT(annotations.rowCount(), 1, 10'000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        const auto markers = annotations.markers(QDateTime::currentDateTimeUtc().addSecs(-60), QDateTime::currentDateTimeUtc().addSecs(60));
        QCOMPARE(int(markers.size()), 1);
        QCOMPARE(markers.front().kind, annotations::Kind::Drain);
        QVERIFY2(markers.front().toolTip.contains(QStringLiteral("why: status page says down")), qPrintable(markers.front().toolTip));
        engine.stop();
    }

    // Under Korean, every text a person reads — labels, buttons, tooltips, menus, tab and column
    // names, chart titles, axes and legends, dialogs — has no English word but the allowed ones
    // (provider, scenario and model names, ids and kind codes, units, variables).
    void koreanShowsNoEnglish()
    {
        QTranslator ui, core, qt;
        QVERIFY(ui.load(QStringLiteral(":/i18n/bullpen_ko.qm")));
        QVERIFY(core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")));
        QVERIFY2(qt.load(QLocale(QLocale::Korean), QStringLiteral("qtbase"), QStringLiteral("_"),
                         QLibraryInfo::path(QLibraryInfo::TranslationsPath)),
                 "Qt's own Korean (qtbase_ko.qm, Debian's qt6-translations-l10n) is missing");
        for (QTranslator *t : { &ui, &core, &qt })
            QCoreApplication::installTranslator(t);
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::Korean));
        const auto restore = qScopeGuard([&] {
            for (QTranslator *t : { &ui, &core, &qt })
                QCoreApplication::removeTranslator(t);
            QLocale::setDefault(before);
        });
        cleanup();
        init();
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("primary-overloaded"), 6);
        traffic(QStringLiteral("healthy"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 7, 30'000);
        QVERIFY(m_engine->store()->flush());
        QString failed;
        for (const QList<QVariant> &r : finished)
            if (r.first().value<GenerationResult>().storyboard.fallback.applied)
                failed = r.first().value<GenerationResult>().generationId;
        m_engine->drainProvider({ Provider::Gemini, Role::Primary, Stage::Storyboard, QStringLiteral("사고 4711"), {} });
        QSignalSpy read(m_window->healthStrip(), &HealthStrip::updated);
        m_window->healthStrip()->refresh();
        QVERIFY(read.wait(10'000));
        QStringList english;
        QTabWidget *tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(0);
            QCoreApplication::processEvents();
            english << englishIn(m_window.get());
        }
        m_window->openGeneration(failed);
        auto *replay = m_window->failuresView()->findChild<QAbstractButton *>(QStringLiteral("replayButton"));
        QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), 10'000);
        english << englishIn(m_window.get());
        QTest::mouseClick(replay, Qt::LeftButton);
        QDialog *replayDialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((replayDialog = m_window->failuresView()->findChild<ReplayDialog *>()) && replayDialog->isVisible(),
                                 10'000);
        english << englishIn(replayDialog);
        replayDialog->close();
        DrainDialog drain(Provider::Gemini, Role::Primary, Stage::Storyboard, m_window.get());
        english << englishIn(&drain);
        english.removeDuplicates();
        english.sort();
        for (const QString &t : english)
            qInfo().noquote() << "English under Korean:" << QString(t).replace(QLatin1Char('\n'), QStringLiteral(" / "));
        QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("%1 texts with English words (listed above)").arg(english.size())));
    }

    // Every duration a person reads is written by the one formatter, and an axis keeps one unit.
    void durationsSaidOneWay()
    {
        QSignalSpy finished(&m_engine->client(), &EngineClient::finished);
        traffic(QStringLiteral("primary-overloaded"), 2);
        traffic(QStringLiteral("healthy"), 2);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 4, 30'000);
        QVERIFY(m_engine->store()->flush());
        QString failed;
        for (const QList<QVariant> &r : finished)
            if (r.first().value<GenerationResult>().storyboard.fallback.applied)
                failed = r.first().value<GenerationResult>().generationId;
        QStringList bad;
        QTabWidget *tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(0);
            QCoreApplication::processEvents();
            bad << badDurations(visibleTexts(m_window.get(), false));
        }
        m_window->openGeneration(failed);
        auto *replay = m_window->failuresView()->findChild<QAbstractButton *>(QStringLiteral("replayButton"));
        QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), 10'000);
        bad << badDurations(visibleTexts(m_window.get(), false));
        QTest::mouseClick(replay, Qt::LeftButton);
        QDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = m_window->failuresView()->findChild<ReplayDialog *>()) && dialog->isVisible(), 10'000);
        bad << badDurations(visibleTexts(dialog, false));
        dialog->close();
        bad.removeDuplicates();
        for (const QString &b : bad)
            qInfo().noquote() << "Duration written another way:" << QString(b).replace(QLatin1Char('\n'), QStringLiteral(" / "));
        QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("%1 durations written another way (listed above)").arg(bad.size())));
        // An axis: one unit for every tick.
        for (const auto &[max, step] :
             { std::pair { 800.0, 200.0 }, std::pair { 65'000.0, 10'000.0 }, std::pair { 300'000.0, 60'000.0 } }) {
            QSet<QString> unitsSeen;
            for (double t = 0; t <= max; t += step)
                unitsSeen.insert(units::onAxis(t, max, step).section(QLatin1Char(' '), 1));
            QVERIFY2(unitsSeen.size() == 1, qPrintable(QStringList(unitsSeen.begin(), unitsSeen.end()).join(QLatin1Char(','))));
        }
        // Fields take both spellings and show one.
        QCOMPARE(units::field(std::chrono::milliseconds(2500)), QStringLiteral("2.5 s"));
        QCOMPARE(parseDuration(u"2.5 s"), parseDuration(u"2500 ms"));
    }

    // The smaller things an operator met, each as it was seen.
    void smallerThings()
    {
        // The first key typed goes into the story (a console that starts on Run); Ctrl+L brings it back
        // from any view.
        QSettings().setValue(QStringLiteral("window/tab"), 0);
        cleanup();
        init();
        auto *story = m_window->runView()->findChild<QPlainTextEdit *>(QStringLiteral("storyEdit"));
        QApplication::setActiveWindow(m_window.get());
        QTRY_COMPARE(QApplication::focusWidget(), story);
        m_window->tabs()->setCurrentIndex(3);
        QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->runView());
        QTRY_COMPARE(QApplication::focusWidget(), story);
        // F1 names Shift+Tab as a person presses it.
        QTest::keyClick(m_window.get(), Qt::Key_F1);
        QTableWidget *keys = nullptr;
        QTRY_VERIFY((keys = m_window->findChild<QTableWidget *>(QStringLiteral("shortcutTable"))));
        for (int r = 0; r < keys->rowCount(); ++r)
            QVERIFY2(!keys->item(r, 0)->text().contains(QStringLiteral("Backtab")), qPrintable(keys->item(r, 0)->text()));
        keys->window()->close();
        // Latency offers no comparison of a provider with itself.
        LatencyView *latency = m_window->latencyView();
        latency->setSelection(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("storyboard"));
        auto *compare = latency->findChild<QComboBox *>(QStringLiteral("latencyCompareWith"));
        auto *items = qobject_cast<QStandardItemModel *>(compare->model());
        QVERIFY(items);
        QTRY_VERIFY(!items->item(compare->findData(QStringLiteral("gemini")))->isEnabled());
        QVERIFY(items->item(compare->findData(QStringLiteral("qwen")))->isEnabled());
        // A scenario says what it does.
        auto *scenarios = m_window->runView()->findChild<QComboBox *>(QStringLiteral("scenarioCombo"));
        QVERIFY(scenarios->itemData(scenarios->findText(QStringLiteral("primary-outage")), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("10 s")));
        // Notifications are ticked only where they can be shown.
        auto *notify = m_window->settingsView()->findChild<QCheckBox *>(QStringLiteral("notificationsSetting"));
        QCOMPARE(notify->isEnabled(), DesktopNotifier::unavailableReason().isEmpty());
        if (!notify->isEnabled())
            QVERIFY(!notify->isChecked());
        // A failed result was answered by nobody.
        QSignalSpy done(m_window.get(), &MainWindow::generationFinished);
        m_window->runView()->setStory(QStringLiteral("A story. Two. Three. Four."));
        m_window->runView()->setScenario(QStringLiteral("both-down"));
        QTest::mouseClick(m_window->runView()->findChild<QPushButton *>(QStringLiteral("generateButton")), Qt::LeftButton);
        QVERIFY(done.wait(30'000));
        QCOMPARE(done.first().first().value<GenerationResult>().state, FinalState::Failed);
        m_window->resultView()->showResult(done.first().first().value<GenerationResult>());
        const QString meta =
            QTextDocumentFragment::fromHtml(m_window->resultView()->findChild<QLabel *>(QStringLiteral("fallbackMetadata"))->text())
                .toPlainText();
        QVERIFY2(meta.contains(QRegularExpression(QStringLiteral("Answered by: —"))), qPrintable(meta));
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
