// SPDX-License-Identifier: MIT
// bullpen: the operator console (docs/contract.md §9). With no provider key configured it runs on the built-in
// simulator over real HTTP and says so in the status bar. The interface language follows the system
// locale (English or Korean), or Settings → Language, or --lang.
//
// The screenshot tour is a program of its own (bullpen-tour, app/tour/main.cpp): the console links no tour.
#include "config/exitcode.h"
#include "config/settingstable.h"
#include "guistart.h"
#include "keychain/secretstore.h"
#include "models/demostory.h"
#include "models/viewlink.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "translations.h"
#include "views/controlview.h"
#include "views/healthstrip.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/runview.h"
#include "views/tones.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMessageBox>
#include <QStyle>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <memory>

using namespace bullpen;

namespace {

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

    void attach(EngineEndpoint endpoint)
    {
        QString why;
        endpoint.routes = EngineSetup::proxyRoutes(QProcessEnvironment::systemEnvironment(), &why);
        if (!endpoint.routes) {
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

// The Control view's Probes tab at 1024×700, saved to `path` once the engine's providers (with its
// prober's targets) have been read again; then the console exits.
void grabProbes(EngineConnection *engine, MainWindow *window, const QString &path, bool ok)
{
    window->resize(1024, 700);
    ControlView *control = window->controlView();
    if (auto *targets = control->findChild<QTabWidget *>(QStringLiteral("controlTabs")))
        targets->setCurrentIndex(1);
    QObject::connect(
        engine, &EngineConnection::providersChanged, window,
        [window, path, ok] {
            QTimer::singleShot(0, window, [window, path, ok] {
                const bool saved = window->grab().save(path);
                QTextStream(saved ? stdout : stderr) << "bullpen: " << (saved ? "wrote " : "could not write ") << path << "\n";
                QApplication::exit(ok && saved ? 0 : 1);
            });
        },
        Qt::SingleShotConnection);
    window->tabs()->setCurrentWidget(control); // shown, it asks the engine again
}

// `--grab FILE`: once the engine answers, one generation of the demo story, then the Live view with
// the status bar saved to FILE (the attached console's picture in the README), the Settings tab beside
// it, and the Control view's probes (FILE-control.png), then exit.
void grabWhenReady(ConsoleHost &host, const QString &file)
{
    auto go = [&host, file] {
        MainWindow *window = host.window();
        EngineConnection *engine = host.connection();
        window->runView()->setStory(demoStory());
        window->runView()->findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("haru_paul@example.com"));
        window->runView()->setScenario(QStringLiteral("primary-overloaded"));
        QObject::connect(
            window, &MainWindow::generationFinished, window,
            [engine, window, file] {
                // Once the health strip has read the store again (its run is in it), not before.
                QTimer::singleShot(1500, window, [window] { window->healthStrip()->refresh(); });
                QObject::connect(
                    window->healthStrip(), &HealthStrip::updated, window,
                    [engine, window, file] {
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
                        grabProbes(engine, window,
                                   QFileInfo(file).path() + QLatin1Char('/') + QFileInfo(file).completeBaseName()
                                       + QStringLiteral("-control.png"),
                                   ok);
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
    bullpen::prepareConsoleProcess(); // event loops, Qt's noise, offscreen without a display (guistart.h)
    QApplication app(argc, argv);
    bullpen::nameConsoleApplication();
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Bullpen operator console.\n\n") + settingsHelpText());
    parser.addHelpOption();
    parser.addVersionOption();
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
        QStringLiteral("Open a bullpen:// link (View > Copy link to this view gives one), or the Failures tab with this "
                       "generation's detail (its full id, gen_…; Copy id in the detail pane gives it)."),
        QStringLiteral("link"));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light, dark, or system (default)."), QStringLiteral("name"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the history, the masking key and images are kept (default: BULLPEN_DATA_DIR, "
                                                    "then ~/.local/share/bullpen). Not with --engine: an attached console keeps nothing."),
                                     QStringLiteral("dir"));
    parser.addOptions({ scenario, lang, engineUrl, grab, open, theme, dataDir });
    // The desktop entry opens a clicked bullpen:// link as `bullpen LINK` (docs/console.md, "Links").
    parser.addPositionalArgument(QStringLiteral("link"), QStringLiteral("A bullpen:// link to open (as --open)."),
                                 QStringLiteral("[link]"));
    parser.process(app);
    const QString openValue = parser.isSet(open) ? parser.value(open) : parser.positionalArguments().value(0);
    if (parser.isSet(lang) && parser.value(lang) != u"en" && parser.value(lang) != u"ko") {
        QTextStream(stderr) << "bullpen: --lang takes en or ko\n";
        return kExitUsage;
    }

    if (!openValue.isEmpty() && !openValue.startsWith(QLatin1StringView("gen_"))) {
        const auto link = ViewLink::parse(openValue);
        if (const auto *why = std::get_if<QString>(&link)) {
            QTextStream(stderr) << "bullpen: --open: " << *why << "\n";
            return kExitUsage;
        }
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
    if (!openValue.isEmpty() && host.window()) {
        if (openValue.startsWith(QLatin1StringView("gen_")))
            host.window()->openGeneration(openValue);
        else
            host.window()->openLink(openValue, nullptr); // checked above
    }
    return app.exec();
}
