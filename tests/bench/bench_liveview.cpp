// SPDX-License-Identifier: MIT
// bench_liveview: the console's memory over a long attachment. The real main window, shown
// (offscreen), on the Live view, receives the event stream of N generations through its own batcher,
// as an attached console receives an engine's stream: the Live list, the event log, the timelines and
// the live latency statistics all take every event. The events are a real engine's (some answered by the fallback,
// failed and plain generations on a manual clock), given new ids and times. Prints the process's RSS
// after 50,000 generations and then at each checkpoint up to N. Target: RSS after 1,000,000 within
// 50 MiB of RSS after 50,000. Not part of the test run:
//   build/release/tests/bench/bench_liveview [generations, default 1000000]
#include "benchstats.h"
#include "config/eventloops.h"
#include "models/eventbatcher.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "runtime/enginesetup.h"
#include "scriptedgenerator.h"
#include "views/liveview.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

using namespace bullpen;
using bullpen::bench::residentMiB;

namespace {

constexpr char kUsage[] = R"(bench_liveview: the console's memory over a long attachment: the main window on the Live view takes the
event stream of N generations. Target: RSS after N (default 1,000,000) within 50 MiB of RSS after 50,000;
printed with its figure on one line; exits 1 when missed. BENCH_TIGHTEN=F tightens the target F times.
  bench_liveview [generations, default 1000000]
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    chooseEventLoops(GlibLoops::GuiThreadOnly); // as the programs do (config/eventloops.h)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const qint64 total = argc > 1 ? QString::fromLatin1(argv[1]).toLongLong() : 1'000'000;
    QTemporaryDir dir;
    SetupOptions o;
    o.forceSimulator = true;
    o.dataDir = dir.filePath(QStringLiteral("data"));
    o.settingsFile = dir.filePath(QStringLiteral("none.json"));
    o.keyFile = dir.filePath(QStringLiteral("none.env"));
    o.environment = QProcessEnvironment();
    EngineSetup engine;
    if (!engine.init(o)) {
        out << "bench_liveview: " << engine.errors().constFirst().toString() << "\n";
        return 2;
    }
    MainWindow window(engine);
    window.resize(1280, 860);
    window.show();
    window.tabs()->setCurrentWidget(window.liveView());
    auto *batcher = window.findChild<EventBatcher *>();
    if (!batcher) {
        out << "bench_liveview: the window has no event batcher\n";
        return 2;
    }

    // A real engine's events for 30 generations (a third answered by the fallback, a third failing), replayed with new
    // ids and the current time.
    QList<QList<Event>> templates;
    {
        QHash<QString, int> at;
        test::runMixedGenerations(30, [&](const Event &e) {
            if (!at.contains(e.generationId)) {
                at.insert(e.generationId, static_cast<int>(templates.size()));
                templates.append(QList<Event>());
            }
            templates[at.value(e.generationId)] << e;
        });
    }
    qint64 events = 0;
    auto feed = [&](qint64 from, qint64 to) {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (qint64 g = from; g < to; ++g) {
            const QString id = QStringLiteral("gen_%1").arg(g, 12, 16, QLatin1Char('0'));
            for (Event e : templates.at(static_cast<qsizetype>(g % templates.size()))) {
                e.generationId = id;
                e.wallTime = now;
                e.jsonCache.reset();
                batcher->add(e);
                ++events;
            }
            if (g % 500 == 499) { // about what one 50 ms frame carries at 10,000 generations a second
                batcher->flush();
                QCoreApplication::processEvents();
            }
        }
        batcher->flush();
        QCoreApplication::processEvents();
    };

    out << QStringLiteral("console fed the event stream of %L1 generations (main window shown, Live view open)\n").arg(total);
    out << "  generations        events  Live rows  RSS MiB  seconds\n";
    QElapsedTimer clock;
    clock.start();
    const double start = residentMiB();
    out << QStringLiteral("  %1  %2  %3  %4  %5\n").arg(0, 11).arg(0, 12).arg(0, 9).arg(start, 7, 'f', 1).arg(0.0, 7, 'f', 1);
    double at50k = 0;
    double peak = 0;
    qint64 fed = 0;
    for (const qint64 checkpoint : { 50'000LL, 100'000LL, 250'000LL, 500'000LL, 750'000LL, 1'000'000LL, 2'000'000LL }) {
        if (checkpoint > total)
            break;
        feed(fed, checkpoint);
        fed = checkpoint;
        const double rss = residentMiB();
        peak = std::max(peak, rss);
        if (checkpoint == 50'000)
            at50k = rss;
        const int rows = window.liveView()->findChild<QTableView *>(QStringLiteral("generationTable"))->model()->rowCount();
        out << QStringLiteral("  %1  %2  %3  %4  %5\n")
                   .arg(fed, 11)
                   .arg(events, 12)
                   .arg(rows, 9)
                   .arg(rss, 7, 'f', 1)
                   .arg(double(clock.elapsed()) / 1000.0, 7, 'f', 1);
        out.flush();
    }
    if (at50k > 0)
        out << QStringLiteral("RSS after %L1 generations %2 MiB, after 50,000 %3 MiB: %4 MiB more (target: within 50 MiB); peak %5 MiB\n")
                   .arg(fed)
                   .arg(residentMiB(), 0, 'f', 1)
                   .arg(at50k, 0, 'f', 1)
                   .arg(residentMiB() - at50k, 0, 'f', 1)
                   .arg(peak, 0, 'f', 1);
    bench::Judge judge(QStringLiteral("bench_liveview"));
    if (at50k <= 0 || fed <= 50'000) {
        QTextStream(stderr) << "bench_liveview: give more than 50,000 generations (the baseline is taken at 50,000)\n";
        return 2;
    }
    judge.atMost("rss_growth_mib_after_50k", residentMiB() - at50k, 50, "MiB",
                 QStringLiteral("the console's RSS after %L1 generations minus after 50,000").arg(fed));
    judge.report("rss_peak_mib", peak, "MiB");
    judge.report("generations_per_second_fed", double(fed) / (double(clock.elapsed()) / 1000.0), "1/s");
    return judge.exitCode();
}
