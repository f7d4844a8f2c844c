// SPDX-License-Identifier: MIT
// `bullpen-tour DIR`: a short scripted tour that saves a PNG of each view, then exits; it works
// under QT_QPA_PLATFORM=offscreen. The tour uses a fresh store in a temporary folder holding seven days
// of synthetic history (HistoryFiller) under the tour's own real runs: healthy, fallback on overload,
// timeout fallback, final auth failure, a drained primary, then a comparison. It runs in English
// (DIR/*.png), in Korean (DIR/ko/*.png) and on a dark palette (DIR/dark/*.png).
#include "screenshottour.h"

#include "config/exitcode.h"
#include "devsupport/historyfiller.h"
#include "engine/breakerboard.h"
#include "models/demostory.h"
#include "pipeline/comparison.h"
#include "runtime/enginesetup.h"
#include "store/store.h"
#include "views/compareview.h"
#include "views/controlview.h"
#include "views/failuresview.h"
#include "views/healthstrip.h"
#include "views/latencyview.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/replaydialog.h"
#include "views/resultview.h"
#include "views/runview.h"
#include "views/settingsview.h"
#include "views/spendpanel.h"
#include "views/tones.h"
#include "views/tunepanel.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

namespace bullpen::tour {

namespace {

struct DemoStep
{
    const char *scenario;
    const char *name;
    const char *primaryTimeout;
    bool drainPrimary = false; // an operator drained gemini first: the stage goes straight to the fallback
};

constexpr DemoStep kDemo[] = {
    { "healthy", "healthy", "60s" },
    { "primary-overloaded", "fallback-overload", "60s" },
    { "primary-hang", "fallback-timeout", "2s" },
    { "primary-auth", "auth-failure", "60s" },
    { "healthy", "primary-drained", "60s", true },
};

// The tour's settings file: a provider added by configuration (docs/configuration.md, "Providers"),
// so that the pickers and Settings show one.
QString writeTourSettings(const QString &path)
{
    QFile settings(path);
    if (settings.open(QIODevice::WriteOnly))
        settings.write(R"({ "providers": [ { "id": "local-vllm", "name": "Local vLLM", "format": "openai",
                           "base_url": "http://10.0.0.5:8000/v1", "model": "Qwen/Qwen2.5-7B-Instruct" } ] })");
    return path;
}

// Runs the demo steps one after another, saving the views after each, then the history views.
class ScreenshotTour final : public QObject
{
public:
    ScreenshotTour(MainWindow &window, EngineSetup &engine, QString dir)
        : m_window(window)
        , m_engine(engine)
        , m_dir(std::move(dir))
    {
        connect(&m_window, &MainWindow::generationFinished, this, [this](const GenerationResult &r) {
            if (m_step < int(std::size(kDemo)) && QLatin1StringView(kDemo[m_step].name) == u"fallback-timeout")
                m_replayed = r.generationId; // replayed later, from Failures
            if (m_step < int(std::size(kDemo)))
                QTimer::singleShot(200, this, [this] { capture(); });
        });
        connect(m_window.comparisons(), &ComparisonRunner::finished, this,
                [this](const Comparison &) { QTimer::singleShot(300, this, [this] { captureHistory(); }); });
    }

    void start() { next(); }

private:
    void save(QWidget *view, const QString &name)
    {
        m_window.tabs()->setCurrentWidget(view);
        // Layouts settle over a few passes (a message shown under a field grows its row).
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QApplication::processEvents();
        }
        const QString path = QDir(m_dir).filePath(name);
        if (m_window.grab().save(path))
            QTextStream(stdout) << "bullpen: wrote " << path << "\n";
        else
            QTextStream(stderr) << "bullpen: could not write " << path << "\n";
    }

    void next()
    {
        RunView *run = m_window.runView();
        run->setStory(demoStory());
        run->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("haru_paul@example.com"));
        if (m_step >= int(std::size(kDemo))) {
            // Last: a comparison of the two providers on the healthy scenario.
            run->setScenario(QStringLiteral("healthy"));
            run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QStringLiteral("60s"));
            m_window.compare();
            return;
        }
        const DemoStep &s = kDemo[m_step];
        run->setScenario(QString::fromLatin1(s.scenario));
        run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QString::fromLatin1(s.primaryTimeout));
        if (m_step == 0)
            save(run, QStringLiteral("01-run.png"));
        if (s.drainPrimary) {
            // Shown on gemini's health card too; restored once captured.
            m_engine.drainProvider(
                { Provider::Gemini, Role::Primary, Stage::Storyboard, QStringLiteral("incident 4711: 503s since 03:10"), {} });
            m_engine.refreshProviders();
        }
        m_window.generate(1);
    }

    void capture()
    {
        const QString name = QString::fromLatin1(kDemo[m_step].name);
        const int n = m_step < 4 ? 2 + m_step * 2 : 16 + (m_step - 4) * 2; // 10-15 are the comparison and history views
        save(m_window.liveView(), QStringLiteral("%1-live-%2.png").arg(n, 2, 10, QLatin1Char('0')).arg(name));
        save(m_window.resultView(), QStringLiteral("%1-result-%2.png").arg(n + 1, 2, 10, QLatin1Char('0')).arg(name));
        if (kDemo[m_step].drainPrimary)
            m_engine.restoreProvider(Provider::Gemini);
        ++m_step;
        next();
    }

    // Once the failures view has both its charts and the selected generation's detail (each read on
    // the reader thread, in either order), `then` runs.
    void whenFailuresSettled(const std::function<void()> &then)
    {
        FailuresView *failures = m_window.failuresView();
        auto charted = std::make_shared<bool>(false);
        auto detailed = std::make_shared<bool>(false);
        const auto bothIn = [this, failures, charted, detailed, then] {
            if (!*charted || (!*detailed && !failures->detailGenerationId().isEmpty()))
                return;
            disconnect(failures, nullptr, this, nullptr);
            then();
        };
        connect(failures, &FailuresView::chartsUpdated, this, [charted, bothIn] {
            *charted = true;
            bothIn();
        });
        connect(failures, &FailuresView::detailShown, this, [detailed, bothIn] {
            *detailed = true;
            bothIn();
        });
    }

    void captureHistory()
    {
        save(m_window.compareView(), QStringLiteral("10-compare.png"));
        // The tour's own runs are on disk: the failures view shows them on top of the synthetic week.
        // The newest failure (the tour's auth failure) is selected: its detail pane is in the picture.
        FailuresView *failures = m_window.failuresView();
        whenFailuresSettled([this, failures] {
            save(failures, QStringLiteral("11-failures.png"));
            // An investigation: the TIMEOUT bar clicked, the table filtered to it, the newest one's detail.
            whenFailuresSettled([this, failures] {
                save(failures, QStringLiteral("15-investigation.png"));
                captureReplay();
            });
            failures->filterByBar(HistoryGroup::Kind, QStringLiteral("TIMEOUT"));
        });
        failures->applyFilter();
    }

    // Replay locally… on the investigated timeout, as recorded: both timelines and the verdict.
    void captureReplay()
    {
        FailuresView *failures = m_window.failuresView();
        connect(failures, &FailuresView::replayOpened, this, [this, failures](ReplayDialog *dialog) {
            disconnect(failures, &FailuresView::replayOpened, this, nullptr);
            connect(dialog, &ReplayDialog::replayFinished, this, [this, dialog] {
                QTimer::singleShot(100, this, [this, dialog] {
                    const QString path = QDir(m_dir).filePath(QStringLiteral("24-replay.png"));
                    if (dialog->grab().save(path))
                        QTextStream(stdout) << "bullpen: wrote " << path << "\n";
                    dialog->close();
                    captureLatency();
                });
            });
            if (!dialog->startReplay())
                captureLatency();
        });
        connect(failures, &FailuresView::detailShown, this, [this, failures] {
            disconnect(failures, &FailuresView::detailShown, this, nullptr);
            failures->replayDetail();
        });
        failures->showDetail(m_replayed);
    }

    void captureLatency()
    {
        LatencyView *latency = m_window.latencyView();
        connect(latency, &LatencyView::loaded, this, [this, latency] {
            disconnect(latency, nullptr, this, nullptr);
            save(latency, QStringLiteral("12-latency.png"));
            captureTuneAndSpend(latency);
        });
        latency->setSelection(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("storyboard"));
        latency->setRange(7LL * 24 * 3'600'000, 3'600'000);
        latency->reload();
    }

    // The Latency view's Tune and Spend panels at 1024×700 (docs/contract.md §16, §17), each once read.
    void captureTuneAndSpend(LatencyView *latency)
    {
        auto *below = latency->findChild<QTabWidget *>(QStringLiteral("latencyBelow"));
        const QSize usual = m_window.size();
        m_window.resize(1024, 700);
        connect(latency->tunePanel(), &TunePanel::loaded, this, [this, latency, below, usual] {
            disconnect(latency->tunePanel(), nullptr, this, nullptr);
            save(latency, QStringLiteral("18-tune.png"));
            connect(latency->spendPanel(), &SpendPanel::loaded, this, [this, latency, below, usual] {
                disconnect(latency->spendPanel(), nullptr, this, nullptr);
                save(latency, QStringLiteral("19-spend.png"));
                below->setCurrentIndex(0);
                m_window.resize(usual);
                // A timeout without a unit: refused beside its field, Save off (docs/contract.md §4.6).
                m_window.settingsView()->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutSetting"))->setText(QStringLiteral("60"));
                save(m_window.settingsView(), QStringLiteral("13-settings.png"));
                captureSmall();
                captureStoreWarning();
            });
            below->setCurrentWidget(latency->spendPanel());
        });
        below->setCurrentWidget(latency->tunePanel());
    }

    // The Settings view scrolled to the fields made from the settings table (its first group on top).
    void captureSettingsFields()
    {
        SettingsView *view = m_window.settingsView();
        auto *scroll = view->findChild<QScrollArea *>();
        auto *first = view->findChild<QGroupBox *>(QStringLiteral("group:%1").arg(int(SettingGroup::Storyboard)));
        if (!scroll || !first)
            return;
        scroll->verticalScrollBar()->setValue(first->mapTo(scroll->widget(), QPoint()).y());
        save(view, QStringLiteral("37-small-settings-fields.png"));
        scroll->verticalScrollBar()->setValue(0);
    }

    // The smallest window every view is made for (1024×700): the views an operator reads most.
    void captureSmall()
    {
        const QSize usual = m_window.size();
        m_window.resize(1024, 700);
        const std::pair<QWidget *, const char *> views[] = {
            { m_window.liveView(), "30-small-live.png" },       { m_window.failuresView(), "31-small-failures.png" },
            { m_window.latencyView(), "32-small-latency.png" }, { m_window.settingsView(), "33-small-settings.png" },
            { m_window.resultView(), "35-small-result.png" },   { m_window.compareView(), "36-small-compare.png" }
        };
        for (const auto &[view, name] : views)
            save(view, QLatin1StringView(name));
        captureSettingsFields();
        // The Control view during an incident: a drain with an expiry, an open breaker and its alerts.
        const BreakerKey key { Provider::Gemini, Role::Primary, Stage::Storyboard };
        for (int i = 0; i < 5; ++i)
            m_engine.engine().breakers().record(key, BreakerCount::Blamed, false, m_engine.context().clock->now(), FailureKind::TIMEOUT);
        m_engine.drainProvider({ Provider::Qwen, Role::Fallback, std::nullopt, QStringLiteral("incident 4711: quota warnings"),
                                 QDateTime::currentDateTimeUtc().addSecs(3600) });
        m_window.controlView()->refresh();
        save(m_window.controlView(), QStringLiteral("34-small-control.png"));
        m_engine.restoreProvider(Provider::Qwen);
        m_engine.resetBreaker({ Provider::Gemini, Role::Primary, Stage::Storyboard, {} });
        m_window.resize(usual);
    }

    // The status bar after record writes failed (docs/contract.md §5): the tour's store loses a table underneath
    // the writer, and one more generation runs.
    void captureStoreWarning()
    {
        Store *store = m_engine.store();
        if (!store) {
            QApplication::quit();
            return;
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tour-saboteur"));
            db.setDatabaseName(store->databasePath());
            if (db.open())
                QSqlQuery(db).exec(QStringLiteral("DROP TABLE events"));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("tour-saboteur"));
        connect(
            store, &Store::writeFailed, this,
            [this] {
                QTimer::singleShot(300, this, [this] {
                    save(m_window.runView(), QStringLiteral("14-store-warning.png"));
                    QApplication::quit();
                });
            },
            Qt::SingleShotConnection);
        m_window.runView()->setScenario(QStringLiteral("healthy"));
        m_window.generate(1);
    }

    MainWindow &m_window;
    EngineSetup &m_engine;
    QString m_dir;
    int m_step = 0;
    QString m_replayed; // the fallback-timeout run: Replay locally… plays it for 24-replay.png
};

// The console's window and the engine it holds. Connect… replaces both: the old window goes, a new one
// attaches to the engine named, with the same views.
} // namespace

int run(const QString &root, const std::function<void(const QString &language)> &useLanguage)
{
    for (const auto &[language, subdir] :
         { std::pair { QStringLiteral("en"), QString() }, std::pair { QStringLiteral("ko"), QStringLiteral("ko") },
           std::pair { QStringLiteral("en"), QStringLiteral("dark") } }) {
        const QString dir = subdir.isEmpty() ? root : QDir(root).filePath(subdir);
        QDir().mkpath(dir);
        useLanguage(language);
        if (subdir == u"dark") {
            QApplication::setStyle(QStringLiteral("Fusion"));
            QApplication::setPalette(tones::darkPalette());
        }
        QTemporaryDir data;
        SetupOptions options;
        options.forceSimulator = true; // the tour is scripted against the simulator
        options.dataDir = data.path();
        options.settingsFile = writeTourSettings(QDir(data.path()).filePath(QStringLiteral("bullpen.json")));
        options.keyFile = QDir(data.path()).filePath(QStringLiteral("keys.env"));
        options.environment = QProcessEnvironment(); // the machine's keys and settings stay out of the pictures
        options.engineThreads = 2;
        EngineSetup engine;
        if (!engine.init(options)) {
            QTextStream(stderr) << "bullpen: the screenshot tour could not start: " << engine.errors().constFirst().toString() << "\n";
            return kExitUsage;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const HistoryFillResult filled =
            HistoryFiller::fill(engine.store()->storeLocation(),
                                HistoryFillOptions { 30'000,
                                                     now - 7LL * 24 * 3'600'000,
                                                     now - 60'000,
                                                     7,
                                                     { QStringLiteral("engine-a:8700"), QStringLiteral("engine-b:8700") } });
        if (!filled.error.isEmpty()) {
            QTextStream(stderr) << "bullpen: could not seed the tour's history: " << filled.error << "\n";
            return kExitUsage;
        }
        MainWindow window(engine);
        window.resize(1280, 860);
        window.show();
        ScreenshotTour tour(window, engine, dir);
        QTimer::singleShot(300, &tour, [&tour] { tour.start(); });
        QCoreApplication::exec();
    }
    return 0;
}

} // namespace bullpen::tour
