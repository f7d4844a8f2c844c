// SPDX-License-Identifier: MIT
// bench_gui: the console's responsiveness (issue 7). The real console on the built-in simulator, the
// Live view open, Generate ×N pressed; a 5 ms heartbeat timer (Qt::PreciseTimer) on the GUI thread
// records how late each beat fires: a late beat is an event loop stalled by the console's own work
// (models, batches, timeline, charts). Target: p99 <= 16 ms (one frame at 60 Hz).
//   build/dev/tests/bench/bench_gui [generations, default 200] [runs, default 3]
#include "benchstats.h"
#include "runtime/enginesetup.h"
#include "views/liveview.h"
#include "remote/remoteconnection.h"
#include "views/mainwindow.h"
#include "views/runview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace bullpen;
using namespace bullpen::bench;

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const int count = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 200;
    const int runs = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 3;
    QTemporaryDir dir;
    SetupOptions o;
    o.forceSimulator = true;
    o.scenario = QStringLiteral("flaky");
    o.dataDir = dir.filePath(QStringLiteral("data"));
    o.settingsFile = dir.filePath(QStringLiteral("none.json"));
    o.keyFile = dir.filePath(QStringLiteral("none.env"));
    o.environment = QProcessEnvironment();
    // Engine threads as the console runs them (BULLPEN_ENGINE_THREADS, else the cores); 0 = on the GUI thread.
    const int threads = argc > 3 ? QString::fromLatin1(argv[3]).toInt() : LocalEngine::threadsFromEnvironment(QProcessEnvironment::systemEnvironment());
    o.engineThreads = threads;
    // BULLPEN_BENCH_ENGINE=URL (and BULLPEN_ENGINE_TOKEN): the console attached to that running
    // bullpen-engine instead (start it with --scenario flaky and a high --rate).
    std::unique_ptr<EngineConnection> connection;
    const QString attachTo = qEnvironmentVariable("BULLPEN_BENCH_ENGINE");
    if (!attachTo.isEmpty()) {
        auto remote = std::make_unique<RemoteConnection>(EngineEndpoint{QUrl(attachTo), qgetenv("BULLPEN_ENGINE_TOKEN")});
        remote->open();
        QElapsedTimer wait;
        wait.start();
        while (!(remote->usable() && !remote->runningConfig().isEmpty()) && wait.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (!remote->usable()) {
            out << "bench_gui: " << remote->describe() << "\n";
            return 2;
        }
        connection = std::move(remote);
    } else {
        auto engine = std::make_unique<EngineSetup>();
        if (!engine->init(o)) {
            out << "bench_gui: " << engine->errors().constFirst().toString() << "\n";
            return 2;
        }
        connection = std::move(engine);
    }
    MainWindow window(*connection);
    window.resize(1280, 860);
    window.show();
    RunView *run = window.runView();
    run->setStory(QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it together."));
    run->setScenario(QStringLiteral("flaky"));
    run->findChild<QLineEdit *>(QStringLiteral("primaryTimeoutEdit"))->setText(QStringLiteral("2s"));
    run->findChild<QSpinBox *>()->setValue(count);

    Sample late;
    for (int r = 0; r < runs; ++r) {
        int finished = 0;
        const auto c = QObject::connect(&window, &MainWindow::generationFinished, &app, [&](const GenerationResult &) {
            if (++finished == count)
                QTimer::singleShot(300, &app, [] { QCoreApplication::quit(); }); // the last batches drawn too
        });
        QElapsedTimer clock;
        QTimer beat;
        beat.setTimerType(Qt::PreciseTimer);
        beat.setInterval(5);
        qint64 last = -1;
        QObject::connect(&beat, &QTimer::timeout, &app, [&] {
            const qint64 now = clock.nsecsElapsed();
            if (last >= 0)
                late.add(std::max(0.0, double(now - last) / 1e6 - 5.0));
            last = now;
        });
        clock.start();
        beat.start();
        window.tabs()->setCurrentWidget(window.liveView());
        window.generate(count);
        app.exec();
        beat.stop();
        QObject::disconnect(c);
    }
    out << QStringLiteral("GUI event-loop stall while Generate ×%1 runs (%2 runs, scenario flaky, Live view open, %3), heartbeat lateness ms:\n")
               .arg(count)
               .arg(runs)
               .arg(!attachTo.isEmpty() ? QStringLiteral("attached to bullpen-engine at %1").arg(attachTo)
                    : threads > 0     ? QStringLiteral("%1 engine threads").arg(threads)
                                      : QStringLiteral("engine on the GUI thread"));
    out << "  " << late.summary(2) << "\n";
    return 0;
}
