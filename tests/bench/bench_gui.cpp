// SPDX-License-Identifier: MIT
// bench_gui: the console's responsiveness. The real console on the built-in simulator, the
// Live view open, Generate ×N pressed; a 5 ms heartbeat timer (Qt::PreciseTimer) on the GUI thread
// records how late each beat fires: a late beat is an event loop stalled by the console's own work
// (models, batches, timeline, charts). Target: p99 <= 16 ms (one frame at 60 Hz).
//   build/dev/tests/bench/bench_gui [generations, default 200] [runs, default 3]
#include "benchstats.h"
#include "config/eventloops.h"
#include "remote/remoteconnection.h"
#include "runtime/enginesetup.h"
#include "views/liveview.h"
#include "views/mainwindow.h"
#include "views/runview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <ctime>

using namespace bullpen;
using namespace bullpen::bench;

namespace {

// BENCH_GUI_SLOW_EVENTS=1: which events the GUI thread spent more than 3 ms on (wall time, so a stall
// made of waiting for a core shows up too), by receiver (class:objectName up to three parents) and
// event type. Where to look when the maximum grows.
class TimedApplication final : public QApplication
{
public:
    using QApplication::QApplication;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!m_enabled || QThread::currentThread() != thread() || m_depth > 0)
            return QApplication::notify(receiver, event);
        const char *className = receiver->metaObject()->className(); // the event may delete its receiver
        const QPointer<QObject> alive(receiver);
        const int type = int(event->type());
        QElapsedTimer timer;
        timer.start();
        ++m_depth;
        const bool accepted = QApplication::notify(receiver, event);
        --m_depth;
        if (const double ms = double(timer.nsecsElapsed()) / 1e6; ms > 3) {
            const QString who = alive ? describe(receiver) : QString::fromLatin1(className) + QStringLiteral(" (deleted)");
            auto &[count, worst] = m_slow[QStringLiteral("%1 %2").arg(type).arg(who)];
            ++count;
            worst = std::max(worst, ms);
        }
        return accepted;
    }

    void report(QTextStream &out) const
    {
        if (!m_enabled)
            return;
        out << "  GUI-thread events over 3 ms (event type, receiver: count, worst ms):\n";
        for (auto it = m_slow.cbegin(); it != m_slow.cend(); ++it)
            out << QStringLiteral("    %1: %2, %3\n").arg(it.key()).arg(it->first).arg(it->second, 0, 'f', 1);
    }

private:
    static QString describe(QObject *o)
    {
        QStringList parts;
        for (int i = 0; o && i < 4; ++i, o = o->parent())
            parts << QString::fromLatin1(o->metaObject()->className()) + QLatin1Char(':') + o->objectName();
        return parts.join(QLatin1Char('<'));
    }

    const bool m_enabled = qEnvironmentVariableIntValue("BENCH_GUI_SLOW_EVENTS") == 1;
    int m_depth = 0;
    QMap<QString, std::pair<int, double>> m_slow;
};

constexpr double kFrameMs = 1000.0 / 60; // one frame at 60 Hz: a stall longer than that is a dropped frame

constexpr char kUsage[] = R"(bench_gui: the console's event-loop stall while Generate xN runs with the Live view open
(a 5 ms heartbeat on the GUI thread; how late each beat fires). Target: p99 <= one frame at 60 Hz;
exits 1 when missed. BENCH_TIGHTEN=F tightens the target F times.
  bench_gui [generations, default 200] [runs, default 3]
  BULLPEN_BENCH_ENGINE=URL attaches to a running bullpen-engine; BENCH_GUI_SLOW_EVENTS=1 names slow events.
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    chooseEventLoops(GlibLoops::GuiThreadOnly); // as the programs do (config/eventloops.h)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
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
    const int threads =
        argc > 3 ? QString::fromLatin1(argv[3]).toInt() : LocalEngine::threadsFromEnvironment(QProcessEnvironment::systemEnvironment());
    o.engineThreads = threads;
    // BULLPEN_BENCH_ENGINE=URL (and BULLPEN_ENGINE_TOKEN): the console attached to that running
    // bullpen-engine instead (start it with --scenario flaky and a high --rate).
    std::unique_ptr<EngineConnection> connection;
    const QString attachTo = qEnvironmentVariable("BULLPEN_BENCH_ENGINE");
    if (!attachTo.isEmpty()) {
        auto remote = std::make_unique<RemoteConnection>(EngineEndpoint { QUrl(attachTo), qgetenv("BULLPEN_ENGINE_TOKEN") });
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
    // The stall measured is Generate's, not the window's first frame (fonts, layouts, chart geometry):
    // the Live view is on screen and drawn before the clock starts.
    window.tabs()->setCurrentWidget(window.liveView());
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 500)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);

    Sample late;
    // What the worst beats were made of: the GUI thread's own CPU time inside the stall (its work, and
    // the kernel's network work that interrupts it), the time it sat runnable waiting for a core (Linux
    // schedstat), the rest blocked; and when in the run it happened.
    struct Stall
    {
        double lateMs, cpuMs, waitMs, atMs;
    };
    std::vector<Stall> stalls;
    const auto threadCpuNs = [] {
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
    };
    QFile schedstat(QStringLiteral("/proc/thread-self/schedstat")); // "run ns, run-queue wait ns, slices"
    const bool haveSchedstat = schedstat.open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    const auto runQueueWaitNs = [&]() -> qint64 {
        if (!haveSchedstat)
            return 0;
        schedstat.seek(0);
        const QList<QByteArray> fields = schedstat.read(128).split(' ');
        return fields.size() > 1 ? fields[1].toLongLong() : 0;
    };
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
        qint64 lastCpu = 0;
        qint64 lastWait = 0;
        QObject::connect(&beat, &QTimer::timeout, &app, [&] {
            const qint64 now = clock.nsecsElapsed();
            const qint64 cpu = threadCpuNs();
            const qint64 wait = runQueueWaitNs();
            if (last >= 0) {
                const double lateMs = std::max(0.0, double(now - last) / 1e6 - 5.0);
                late.add(lateMs);
                if (lateMs > kFrameMs)
                    stalls.push_back({ lateMs, double(cpu - lastCpu) / 1e6, double(wait - lastWait) / 1e6, double(now) / 1e6 });
            }
            last = now;
            lastCpu = cpu;
            lastWait = wait;
        });
        clock.start();
        beat.start();
        window.tabs()->setCurrentWidget(window.liveView());
        window.generate(count);
        app.exec();
        beat.stop();
        QObject::disconnect(c);
    }
    out << QStringLiteral(
               "GUI event-loop stall while Generate ×%1 runs (%2 runs, scenario flaky, Live view open, %3), heartbeat lateness ms:\n")
               .arg(count)
               .arg(runs)
               .arg(!attachTo.isEmpty() ? QStringLiteral("attached to bullpen-engine at %1").arg(attachTo)
                        : threads > 0   ? QStringLiteral("%1 engine threads").arg(threads)
                                        : QStringLiteral("engine on the GUI thread"));
    out << "  " << late.summary(2) << "\n";
    std::sort(stalls.begin(), stalls.end(), [](const Stall &a, const Stall &b) { return a.lateMs > b.lateMs; });
    if (!stalls.empty())
        out << "  beats over a frame (16.7 ms) late: " << stalls.size()
            << "; the worst (lateness / GUI thread CPU inside it / waiting for a core / ms into the run):\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(stalls.size(), 5); ++i)
        out << QStringLiteral("    %1 / %2 / %3 / %4\n")
                   .arg(stalls[i].lateMs, 0, 'f', 1)
                   .arg(stalls[i].cpuMs, 0, 'f', 1)
                   .arg(stalls[i].waitMs, 0, 'f', 1)
                   .arg(stalls[i].atMs, 0, 'f', 0);
    app.report(out);
    out.flush(); // the table above before the verdicts
    bench::Judge judge(QStringLiteral("bench_gui"));
    judge.atMost("heartbeat_late_ms_p99", late.at(99), kFrameMs, "ms", QStringLiteral("a GUI-thread stall: one frame at 60 Hz"));
    judge.report("heartbeat_late_ms_max", late.max(), "ms");
    judge.report("beats_over_a_frame_late", double(stalls.size()), "beats");
    return judge.exitCode();
}
