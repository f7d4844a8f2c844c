// SPDX-License-Identifier: MIT
// bullpen-monkey (scripts/monkey.sh): drives the real console with real input events — clicks and
// keys on widgets picked at random, context menus, dialogs accepted and rejected, Tab/Shift+Tab,
// Alt+digits, F1, resizes between 1024×700 and 1920×1080, the palette switched — while the embedded
// engine runs a mix of scenarios with outages, so breakers and drains change under it. It fails on a
// crash (the script sees it), a Qt warning of the kinds that mean a bug (kBugWarnings), or a GUI
// thread blocked for longer than the watchdog's limit. Every action is appended to a log file as it
// is taken, so the last ones are there whatever ends the process; --seed replays the same choices.
#include "monkeyactions.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "views/mainwindow.h"
#include "views/tones.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSettings>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace bullpen;

namespace {

// Qt's words for a bug in the program (a widget deleted in use, painting outside paintEvent, a
// connection to nothing, an object used across threads), not for a condition of the environment.
constexpr const char *kBugWarnings[] = {
    "deleted while",
    "Recursive repaint",
    "QPainter::begin",
    "Painter not active",
    "No such signal",
    "No such slot",
    "different thread",
    "Cannot create children",
    "QBasicTimer",
    "Timers cannot",
    "from wrong model",
    "QAbstractItemModelTester",
    "Attempting to add QLayout",
    "Attempting to set QLayout",
    "invalid nullptr parameter",
    "QObject::disconnect: Unexpected",
};

std::atomic<int> g_bugWarnings { 0 };
QtMessageHandler g_previous = nullptr;
FILE *g_log = nullptr;

void onMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type != QtDebugMsg && type != QtInfoMsg) {
        for (const char *bug : kBugWarnings) {
            if (message.contains(QLatin1StringView(bug))) {
                ++g_bugWarnings;
                std::fprintf(stderr, "monkey: a Qt warning that means a bug: %s\n", qPrintable(message));
                if (g_log)
                    std::fprintf(g_log, "!! Qt warning: %s\n", qPrintable(message));
                break;
            }
        }
    }
    if (g_previous)
        g_previous(type, context, message);
}

// The GUI thread beats every 50 ms (in nested event loops too: a modal dialog's or a menu's); the
// watchdog thread ends the process when no beat came for `limitMs`.
class Watchdog
{
public:
    explicit Watchdog(qint64 limitMs)
        : m_limitMs(limitMs)
        , m_thread([this] { watch(); })
    {
        beat();
    }
    ~Watchdog()
    {
        m_stop = true;
        m_thread.join();
    }
    void beat() { m_beat = now(); }

private:
    static qint64 now()
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    void watch()
    {
        while (!m_stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            const qint64 silent = now() - m_beat;
            if (silent > m_limitMs) {
                std::fprintf(stderr, "monkey: FAILED: the GUI thread did not answer for %lld ms (limit %lld ms)\n",
                             static_cast<long long>(silent), static_cast<long long>(m_limitMs));
                if (g_log) {
                    std::fprintf(g_log, "!! GUI thread blocked for %lld ms\n", static_cast<long long>(silent));
                    std::fflush(g_log);
                }
                std::_Exit(4);
            }
        }
    }
    const qint64 m_limitMs;
    std::atomic<qint64> m_beat { 0 };
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
};

struct Options
{
    int seconds = 60;
    quint32 seed = 7;
    QString engine; // empty: the embedded engine
    QString log;
    qint64 watchdogMs = 1000;
    QString lang;
    QString theme;
};

std::optional<Options> parse(const QStringList &arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Drives the console with random real input while the embedded engine runs outages."));
    p.addHelpOption();
    p.addOption({ QStringLiteral("seconds"), QStringLiteral("How long to run (default 60)."), QStringLiteral("n"), QStringLiteral("60") });
    p.addOption({ QStringLiteral("seed"), QStringLiteral("The random seed (default 7)."), QStringLiteral("s"), QStringLiteral("7") });
    p.addOption({ QStringLiteral("engine"), QStringLiteral("Attach to this bullpen-engine (token from BULLPEN_ENGINE_TOKEN)."),
                  QStringLiteral("url") });
    p.addOption({ QStringLiteral("log"), QStringLiteral("Append each action to this file."), QStringLiteral("file") });
    p.addOption({ QStringLiteral("watchdog-ms"), QStringLiteral("Fail when the GUI thread is blocked this long (default 1000)."),
                  QStringLiteral("ms"), QStringLiteral("1000") });
    p.addOption({ QStringLiteral("lang"), QStringLiteral("en or ko (default: from the seed)."), QStringLiteral("lang") });
    p.addOption({ QStringLiteral("theme"), QStringLiteral("light or dark (default: from the seed)."), QStringLiteral("theme") });
    p.process(arguments);
    Options o;
    bool ok1 = false, ok2 = false, ok3 = false;
    o.seconds = p.value(QStringLiteral("seconds")).toInt(&ok1);
    o.seed = p.value(QStringLiteral("seed")).toUInt(&ok2);
    o.watchdogMs = p.value(QStringLiteral("watchdog-ms")).toLongLong(&ok3);
    if (!ok1 || !ok2 || !ok3 || o.seconds <= 0 || o.watchdogMs <= 0) {
        std::fprintf(stderr, "monkey: --seconds, --seed and --watchdog-ms take positive whole numbers\n");
        return std::nullopt;
    }
    o.log = p.value(QStringLiteral("log"));
    o.engine = p.value(QStringLiteral("engine"));
    o.lang = p.value(QStringLiteral("lang"));
    o.theme = p.value(QStringLiteral("theme"));
    return o;
}

// The engine of the run: the simulator with short timeouts and a quick breaker, so that outages
// open breakers (and probes of them close again) many times within a minute.
QProcessEnvironment engineEnvironment()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT"), QStringLiteral("1500ms"));
    env.insert(QStringLiteral("STORYBOARD_FALLBACK_TIMEOUT"), QStringLiteral("3s"));
    env.insert(QStringLiteral("BULLPEN_BREAKER_WINDOW"), QStringLiteral("10s"));
    env.insert(QStringLiteral("BULLPEN_BREAKER_MIN_ATTEMPTS"), QStringLiteral("3"));
    env.insert(QStringLiteral("BULLPEN_BREAKER_COOLDOWN"), QStringLiteral("3s"));
    return env;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("bullpen-monkey"));
    const std::optional<Options> options = parse(QApplication::arguments());
    if (!options)
        return 2;
    QRandomGenerator rng(options->seed);
    const bool korean = options->lang.isEmpty() ? rng.bounded(2) == 1 : options->lang == u"ko";
    const bool dark = options->theme.isEmpty() ? rng.bounded(2) == 1 : options->theme == u"dark";
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (dark)
        QApplication::setPalette(tones::darkPalette());
    QTranslator ui, core;
    if (korean) {
        if (ui.load(QStringLiteral(":/i18n/bullpen_ko.qm")))
            QApplication::installTranslator(&ui);
        if (core.load(QStringLiteral(":/i18n/bullpen_core_ko.qm")))
            QApplication::installTranslator(&core);
    }
    g_log = options->log.isEmpty() ? nullptr : std::fopen(qPrintable(options->log), "w");
    g_previous = qInstallMessageHandler(onMessage);
    QTemporaryDir data;
    QDir::setCurrent(data.path()); // exports and replay files chosen at random land there, not in the checkout
    SetupOptions setup;
    setup.forceSimulator = true;
    setup.dataDir = data.path();
    setup.environment = engineEnvironment();
    setup.settingsFile = data.filePath(QStringLiteral("settings.json"));
    setup.keyFile = data.filePath(QStringLiteral("keys.env"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, data.filePath(QStringLiteral("config")));
    std::unique_ptr<EngineConnection> engine;
    if (options->engine.isEmpty()) {
        auto embedded = std::make_unique<EngineSetup>();
        if (!embedded->init(setup)) {
            std::fprintf(stderr, "monkey: the embedded engine did not start\n");
            return 2;
        }
        engine = std::move(embedded);
    } else {
        EngineEndpoint endpoint;
        QString why;
        if (!EngineEndpoint::parseUrl(options->engine, &endpoint.base, &why)) {
            std::fprintf(stderr, "monkey: --engine: %s\n", qPrintable(why));
            return 2;
        }
        endpoint.token = qgetenv("BULLPEN_ENGINE_TOKEN");
        auto remote = std::make_unique<RemoteConnection>(endpoint);
        remote->open();
        engine = std::move(remote);
    }
    auto window = std::make_unique<MainWindow>(*engine);
    window->resize(1024, 700);
    window->show();
    std::fprintf(stdout, "monkey: seed %u, %d s, %s, %s palette\n", options->seed, options->seconds, korean ? "Korean" : "English",
                 dark ? "dark" : "light");
    std::fflush(stdout);

    Watchdog watchdog(options->watchdogMs);
    QTimer beat;
    QObject::connect(&beat, &QTimer::timeout, [&watchdog] { watchdog.beat(); });
    beat.start(50);
    monkey::Actions actions(window.get(), engine.get(), options->seed, g_log);
    actions.start();
    QElapsedTimer clock;
    clock.start();
    QTimer end;
    QObject::connect(&end, &QTimer::timeout, [&] {
        if (clock.elapsed() >= options->seconds * 1000LL || g_bugWarnings > 0)
            actions.finish();
    });
    end.start(100);
    QObject::connect(&actions, &monkey::Actions::finished, &app, [&] { QApplication::exit(g_bugWarnings > 0 ? 3 : 0); });
    const int code = QApplication::exec();
    const monkey::Counts c = actions.counts();
    std::fprintf(stdout,
                 "monkey: %s after %lld s: %d actions (%d clicks, %d keys (%d past the focus widget, to a popup or modal dialog), %d "
                 "context menus, %d menu choices, %d dialogs seen, %d "
                 "dialogs accepted, %d rejected, %d drains applied, %d restores, %d resizes, %d palette switches, %d closes); %d "
                 "generations started; the actions took %lld ms in all, the slowest %lld ms (%s)\n",
                 code == 0 ? "passed" : "FAILED", static_cast<long long>(clock.elapsed() / 1000), c.actions, c.clicks, c.keys,
                 c.keysPastFocus, c.contextMenus, c.menuChoices, c.dialogsSeen, c.accepted, c.rejected, c.drains, c.restores, c.resizes,
                 c.palettes, c.closes, c.generations, static_cast<long long>(c.stepMs), static_cast<long long>(c.slowestStepMs),
                 c.slowestStep.isEmpty() ? "an action that noted nothing" : qPrintable(c.slowestStep));
    window.reset();
    if (g_log)
        std::fclose(g_log);
    return code;
}
