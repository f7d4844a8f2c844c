// SPDX-License-Identifier: MIT
// bullpen: the operator console (docs/contract.md §9). With no provider key configured it runs on the built-in
// simulator over real HTTP and says so in the status bar. The interface language follows the system
// locale (English or Korean), or Settings → Language, or --lang.
//
// `--screenshots DIR` runs a short scripted tour and saves a PNG of each view, then exits; it works
// under QT_QPA_PLATFORM=offscreen. The tour uses a fresh store in a temporary folder holding seven days
// of synthetic history (HistoryFiller) under the tour's own real runs: healthy, fallback on overload,
// timeout fallback, final auth failure, then a comparison. It runs once in English (DIR/*.png) and once
// in Korean (DIR/ko/*.png).
#include "config/eventloops.h"
#include "config/exitcode.h"
#include "config/qtnoise.h"
#include "pipeline/comparison.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "runtime/secretstore.h"
#include "store/historyfiller.h"
#include "store/store.h"
#include "views/compareview.h"
#include "views/failuresview.h"
#include "views/healthstrip.h"
#include "views/latencyview.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/replaydialog.h"
#include "views/resultview.h"
#include "views/runview.h"
#include "views/settingsview.h"
#include "views/tones.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <memory>

using namespace bullpen;

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

const QString kDemoStory = QStringLiteral("하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. \"열쇠를 잊었어,\" "
                                          "고양이가 말한다. 하루와 고양이는 함께 집으로 돌아간다.");

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

// "ko", "en" or "" (the system's).
QString chooseLanguage(const QString &fromCommandLine)
{
    if (!fromCommandLine.isEmpty())
        return fromCommandLine;
    const QString saved = QSettings().value(QStringLiteral("ui/language")).toString();
    if (!saved.isEmpty())
        return saved;
    return QLocale::system().language() == QLocale::Korean ? QStringLiteral("ko") : QStringLiteral("en");
}

// Installs Bullpen's and Qt's own translations for `language`; English needs none.
class Translations
{
public:
    void use(const QString &language)
    {
        for (QTranslator *t : { &m_bullpen, &m_core, &m_qt })
            QCoreApplication::removeTranslator(t);
        if (language != u"ko")
            return;
        // The console's own text, and the engine's text it shows (next steps, connection state).
        for (auto [translator, file] :
             { std::pair { &m_bullpen, ":/i18n/bullpen_ko.qm" }, std::pair { &m_core, ":/i18n/bullpen_core_ko.qm" } }) {
            if (translator->load(QString::fromLatin1(file)))
                QCoreApplication::installTranslator(translator);
            else
                QTextStream(stderr) << "bullpen: " << file << " is missing from this build; that text shows in English\n";
        }
        if (m_qt.load(QLocale(QLocale::Korean), QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
    }

private:
    QTranslator m_bullpen;
    QTranslator m_core;
    QTranslator m_qt;
};

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
        run->setStory(kDemoStory);
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
            m_engine.drainProvider(Provider::Gemini, QStringLiteral("incident 4711: 503s since 03:10"), std::nullopt);
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
            // A timeout without a unit: refused beside its field, Save off (docs/contract.md §4.6).
            m_window.settingsView()->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutSetting"))->setText(QStringLiteral("60"));
            save(m_window.settingsView(), QStringLiteral("13-settings.png"));
            captureStoreWarning();
        });
        latency->setSelection(QStringLiteral("gemini"), QStringLiteral("primary"), QStringLiteral("storyboard"));
        latency->setRange(7LL * 24 * 3'600'000, 3'600'000);
        latency->reload();
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
class ConsoleHost final : public QObject
{
public:
    bool embedded(const SetupOptions &options)
    {
        auto engine = std::make_unique<EngineSetup>();
        if (!engine->init(options)) {
            QStringList lines;
            for (const ConfigError &e : engine->errors())
                lines << e.toString();
            refuse(lines.join(QLatin1Char('\n')));
            return false;
        }
        show(std::move(engine));
        return true;
    }

    void attach(const EngineEndpoint &endpoint)
    {
        if (QString why; !EngineSetup::installProxy(QProcessEnvironment::systemEnvironment(), &why)) {
            refuse(why);
            return;
        }
        auto connection = std::make_unique<RemoteConnection>(endpoint);
        connection->setKeyFilePath(EngineSetup::defaultKeyFile());
        connection->open();
        show(std::move(connection));
    }

    MainWindow *window() const { return m_window.get(); }
    EngineConnection *connection() const { return m_connection.get(); }

    static void refuse(const QString &text)
    {
        QTextStream(stderr) << "bullpen: refused:\n  " << QString(text).replace(QLatin1Char('\n'), QStringLiteral("\n  ")) << "\n";
        // No one can click a dialog without a screen (offscreen, minimal): printed above only.
        const QString platform = QGuiApplication::platformName();
        if (platform != u"offscreen" && platform != u"minimal")
            QMessageBox::critical(nullptr, QObject::tr("Bullpen cannot start"), text);
    }

private:
    void show(std::unique_ptr<EngineConnection> connection)
    {
        std::unique_ptr<MainWindow> old = std::move(m_window);
        if (old)
            old->hide();
        auto window = std::make_unique<MainWindow>(*connection);
        connect(window.get(), &MainWindow::attachRequested, this, [this](const EngineEndpoint &endpoint) {
            // From the old window's own signal: replace it once that signal has returned.
            QTimer::singleShot(0, this, [this, endpoint] { attach(endpoint); });
        });
        window->show();
        m_window = std::move(window);
        old.reset(); // the old views before the engine they watched
        m_old = std::move(m_connection);
        m_connection = std::move(connection);
        m_old.reset();
    }

    std::unique_ptr<EngineConnection> m_connection;
    std::unique_ptr<EngineConnection> m_old;
    std::unique_ptr<MainWindow> m_window;
};

// `--engine URL`: the token from BULLPEN_ENGINE_TOKEN, else from the 0600 key file (where Connect…
// keeps it), never from the settings file or the command line.
std::optional<EngineEndpoint> endpointFor(const QString &url, QString *error)
{
    EngineEndpoint e;
    if (!EngineEndpoint::parseUrl(url, &e.base, error) || !e.trustFromEnvironment(error))
        return std::nullopt;
    // The environment, then the system keychain, then the 0600 key file (docs/install.md, "Keys").
    e.token = qgetenv("BULLPEN_ENGINE_TOKEN").trimmed();
    if (e.token.isEmpty()) {
        if (const secrets::Result r = secrets::read(QStringLiteral("BULLPEN_ENGINE_TOKEN")); r.status == secrets::Status::Ok)
            e.token = r.value.trimmed().toLatin1();
    }
    if (e.token.isEmpty()) {
        QString why;
        e.token =
            KeyFile::value(EngineSetup::defaultKeyFile(), QStringLiteral("BULLPEN_ENGINE_TOKEN"), &why).value_or(QString()).toLatin1();
        if (e.token.isEmpty()) {
            *error = why.isEmpty() ? QStringLiteral("no API token for the engine: set BULLPEN_ENGINE_TOKEN, or start the console and use "
                                                    "Engine → Connect… to keep one in the key file")
                                   : why;
            return std::nullopt;
        }
    }
    return e;
}

// `--grab FILE`: once the engine answers, one generation of the demo story, then the Live view with
// the status bar saved to FILE (the attached console's picture in the README), then exit.
void grabWhenReady(ConsoleHost &host, const QString &file)
{
    auto go = [&host, file] {
        MainWindow *window = host.window();
        window->runView()->setStory(kDemoStory);
        window->runView()->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("haru_paul@example.com"));
        window->runView()->setScenario(QStringLiteral("primary-overloaded"));
        QObject::connect(
            window, &MainWindow::generationFinished, window,
            [window, file] {
                // Once the health strip has read the store again (its run is in it), not before.
                QTimer::singleShot(1500, window, [window] { window->healthStrip()->refresh(); });
                QObject::connect(
                    window->healthStrip(), &HealthStrip::updated, window,
                    [window, file] {
                        // The Live view, then the Settings tab (an attached engine's running configuration) beside it.
                        bool ok = true;
                        const QString settingsFile = QFileInfo(file).path() + QLatin1Char('/') + QFileInfo(file).completeBaseName()
                            + QStringLiteral("-settings.png");
                        for (const auto &[tab, path] : { std::pair { 0, file }, std::pair { 1, settingsFile } }) {
                            window->tabs()->setCurrentIndex(tab == 0 ? window->tabs()->indexOf(window->liveView())
                                                                     : window->tabs()->count() - 1);
                            for (int i = 0; i < 3; ++i)
                                QApplication::processEvents();
                            const bool saved = window->grab().save(path);
                            QTextStream(saved ? stdout : stderr) << "bullpen: " << (saved ? "wrote " : "could not write ") << path << "\n";
                            ok = ok && saved;
                        }
                        QApplication::exit(ok ? 0 : 1);
                    },
                    Qt::SingleShotConnection);
            },
            Qt::SingleShotConnection);
        window->generate(1);
    };
    EngineConnection *c = host.connection();
    if (c->usable() && !c->attached()) {
        QTimer::singleShot(300, go);
        return;
    }
    QObject::connect(
        c, &EngineConnection::configChanged, c, [go] { QTimer::singleShot(300, go); }, Qt::SingleShotConnection);
}

} // namespace

// --theme: light or dark on Fusion; system (or nothing) leaves the platform's palette. False for anything else.
bool applyTheme(const QString &name)
{
    if (!name.isEmpty() && name != u"light" && name != u"dark" && name != u"system")
        return false;
    if (name == u"dark" || name == u"light") {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(name == u"dark" ? tones::darkPalette() : QApplication::style()->standardPalette());
    }
    return true;
}

int main(int argc, char *argv[])
{
    bullpen::chooseEventLoops(bullpen::GlibLoops::GuiThreadOnly); // before Qt makes any event loop (config/eventloops.h)
    bullpen::muteQtNoise(); // Qt lines that say nothing to act on, or too much (config/qtnoise.h)
    // With no display at all (a CI machine, ssh), draw offscreen rather than fail to start.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("bullpen"));
    QApplication::setOrganizationName(QStringLiteral("bullpen"));
    QApplication::setApplicationVersion(QStringLiteral(BULLPEN_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Bullpen operator console."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshots(
        QStringLiteral("screenshots"),
        QStringLiteral("Run the demo tour, save a PNG of each view to DIR (English), DIR/ko (Korean) and DIR/dark (a dark palette), exit."),
        QStringLiteral("dir"));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("Simulator scenario to start with."),
                                      QStringLiteral("name"));
    const QCommandLineOption lang(QStringLiteral("lang"),
                                  QStringLiteral("Interface language: en or ko (default: settings, then the system's)."),
                                  QStringLiteral("code"));
    const QCommandLineOption engineUrl(QStringLiteral("engine"),
                                       QStringLiteral("Attach to a running bullpen-engine at URL instead of embedding one (token from "
                                                      "BULLPEN_ENGINE_TOKEN or the key file)."),
                                       QStringLiteral("url"));
    const QCommandLineOption grab(QStringLiteral("grab"), QStringLiteral("Run one generation, save the window to FILE, exit."),
                                  QStringLiteral("file"));
    const QCommandLineOption open(
        QStringLiteral("open"),
        QStringLiteral("Open on the Failures tab with this generation's detail (its full id, gen_…; Copy id in the "
                       "detail pane gives it)."),
        QStringLiteral("generation"));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light, dark, or system (default)."), QStringLiteral("name"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the history, the masking key and images are kept (default: BULLPEN_DATA_DIR, "
                                                    "then ~/.local/share/bullpen). Not with --engine: an attached console keeps nothing."),
                                     QStringLiteral("dir"));
    parser.addOptions({ screenshots, scenario, lang, engineUrl, grab, open, theme, dataDir });
    parser.process(app);
    if (parser.isSet(lang) && parser.value(lang) != u"en" && parser.value(lang) != u"ko") {
        QTextStream(stderr) << "bullpen: --lang takes en or ko\n";
        return kExitUsage;
    }

    if (parser.isSet(open) && !parser.value(open).startsWith(QLatin1StringView("gen_"))) {
        QTextStream(stderr) << "bullpen: --open takes a generation id (gen_…), as Copy id or bullpen-cli history --json gives it\n";
        return kExitUsage;
    }
    if (parser.isSet(dataDir) && parser.isSet(engineUrl)) {
        QTextStream(stderr) << "bullpen: --data-dir is for the embedded engine; with --engine the engine keeps the history\n";
        return kExitUsage;
    }
    if (!applyTheme(parser.value(theme))) {
        QTextStream(stderr) << "bullpen: --theme takes light, dark or system\n";
        return kExitUsage;
    }

    Translations translations;
    if (!parser.isSet(screenshots)) {
        translations.use(chooseLanguage(parser.value(lang)));
        ConsoleHost host;
        if (parser.isSet(engineUrl)) {
            QString why;
            const std::optional<EngineEndpoint> endpoint = endpointFor(parser.value(engineUrl), &why);
            if (!endpoint) {
                ConsoleHost::refuse(QStringLiteral("--engine: ") + why);
                return kExitUsage;
            }
            host.attach(*endpoint);
        } else {
            SetupOptions options;
            options.scenario = parser.value(scenario);
            if (parser.isSet(dataDir))
                options.dataDir = parser.value(dataDir);
            options.engineThreads = SetupOptions::kThreadsFromEnvironment; // never on the GUI thread (docs/contract.md §12.3)
            options.useKeychain = true; // provider keys kept by Set key… in the system keychain
            if (!host.embedded(options))
                return kExitUsage;
        }
        if (parser.isSet(grab))
            grabWhenReady(host, parser.value(grab));
        if (parser.isSet(open) && host.window())
            host.window()->openGeneration(parser.value(open));
        return app.exec();
    }

    // The tour, once per language and then in English on a dark palette, each on a fresh store.
    const QString root = parser.value(screenshots);
    for (const auto &[language, subdir] :
         { std::pair { QStringLiteral("en"), QString() }, std::pair { QStringLiteral("ko"), QStringLiteral("ko") },
           std::pair { QStringLiteral("en"), QStringLiteral("dark") } }) {
        const QString dir = subdir.isEmpty() ? root : QDir(root).filePath(subdir);
        QDir().mkpath(dir);
        translations.use(language);
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
        app.exec();
    }
    return 0;
}
