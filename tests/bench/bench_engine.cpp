// SPDX-License-Identifier: MIT
// bench_engine: what the engine itself costs and how exactly it keeps time (issue 7), through the whole
// pipeline over real loopback HTTP to the in-process simulator:
//   overhead  - sequential generations against a zero-latency scenario: a generation's wall time minus
//               the time its provider requests spent on the wire (the sum of its attempts' durations,
//               every stage). Target: median <= 0.5 ms, p99 <= 2 ms.
//   deadline  - 200 generations at once whose primary hangs (1 s timeout): how late each attempt's
//               deadline fired (the attempt's end minus its deadline) and how late its abort completed
//               (cancel handlers done minus the deadline). Target: p99 <= 5 ms.
//   build/dev/tests/bench/bench_engine [overhead runs, default 500] [concurrent hanging attempts, default 200]
#include "benchstats.h"
#include "runtime/enginesetup.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace bullpen;
using namespace bullpen::bench;
using namespace std::chrono;

namespace {

double ms(microseconds us) { return double(us.count()) / 1000.0; }

std::unique_ptr<EngineSetup> engineOn(const QString &scenario, const QTemporaryDir &dir)
{
    SetupOptions o;
    o.forceSimulator = true;
    o.scenario = scenario;
    o.dataDir = dir.filePath(QStringLiteral("data-") + QFileInfo(scenario).baseName());
    o.settingsFile = dir.filePath(QStringLiteral("none.json"));
    o.keyFile = dir.filePath(QStringLiteral("none.env"));
    o.environment = QProcessEnvironment();
    auto engine = std::make_unique<EngineSetup>();
    if (!engine->init(o)) {
        QTextStream(stderr) << "bench_engine: " << engine->errors().constFirst().toString() << "\n";
        return nullptr;
    }
    return engine;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int runs = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 500;
    const int hanging = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 200;
    QTemporaryDir dir;
    const QString story = QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it together.");

    // --- overhead: zero latency, one generation at a time, after 20 for warm-up.
    const QString zero = dir.filePath(QStringLiteral("zero-latency.json"));
    {
        QFile f(zero);
        f.open(QIODevice::WriteOnly);
        f.write("{\"name\": \"zero-latency\", \"seed\": 1, \"providers\": {\"*\": {\"do\": \"ok\", \"latency_ms\": 0}}}");
    }
    Sample overhead, wall, wire;
    {
        auto engine = engineOn(zero, dir);
        if (!engine)
            return 2;
        int done = 0;
        const int warmUp = 20;
        QObject::connect(&engine->pipeline(), &GenerationPipeline::finished, &app, [&](const GenerationResult &r) {
            if (r.state != FinalState::Succeeded) {
                QTextStream(stderr) << "bench_engine: a zero-latency generation failed: " << (r.failure ? r.failure->detail : QString()) << "\n";
                QCoreApplication::exit(3);
                return;
            }
            if (done >= warmUp) {
                double onWire = 0;
                for (const AttemptRecord &a : r.attempts())
                    onWire += ms(a.duration);
                wall.add(ms(r.elapsed));
                wire.add(onWire);
                overhead.add(ms(r.elapsed) - onWire);
            }
            if (++done < runs + warmUp) {
                GenerationRequest g;
                g.story = story;
                g.fresh = true;
                engine->pipeline().start(g);
            } else {
                QCoreApplication::quit();
            }
        });
        GenerationRequest g;
        g.story = story;
        g.fresh = true;
        engine->pipeline().start(g);
        if (app.exec() != 0)
            return 3;
    }
    out << "engine overhead (whole pipeline: storyboard, captions, image; zero-latency simulator in-process; sequential):\n";
    out << "  wall time per generation, ms    " << wall.summary() << "\n";
    out << "  on the wire (sum of attempts)   " << wire.summary() << "\n";
    out << "  engine overhead, ms             " << overhead.summary(3) << "\n";

    // --- deadline precision: `hanging` primaries in flight, 1 s timeout, relief after each. Twice: all
    // started in the same instant (every deadline due in the same millisecond: the worst case for one
    // event loop), and started evenly over one timeout (the same number in flight, deadlines spread).
    // A third run: the burst again with no relief provider, to show what the relief starts cost.
    for (const int variant : {0, 1, 2}) {
        const bool spread = variant == 1;
        const bool relief = variant != 2;
        Sample fireLate, abortLate;
        auto engine = engineOn(QStringLiteral("primary-hang"), dir);
        if (!engine)
            return 2;
        PipelineOptions o = engine->pipeline().options();
        o.storyboard.primaryTimeout = 1000ms;
        o.storyboard.totalBudget.reset();
        if (!relief)
            o.storyboard.fallback.reset();
        engine->pipeline().setOptions(o);
        int done = 0;
        QObject::connect(&engine->pipeline(), &GenerationPipeline::finished, &app, [&](const GenerationResult &r) {
            for (const AttemptRecord &a : r.storyboard.attempts) {
                if (a.role != Role::Primary || a.abortedBy != AbortReason::Deadline)
                    continue;
                fireLate.add(ms(a.startedAt + a.duration - a.deadline));
                if (a.cancelledAt)
                    abortLate.add(ms(*a.cancelledAt - a.deadline));
            }
            if (++done == hanging)
                QCoreApplication::quit();
        });
        auto startOne = [&] {
            GenerationRequest g;
            g.story = story;
            g.fresh = true;
            engine->pipeline().start(g);
        };
        if (spread) {
            for (int i = 0; i < hanging; ++i)
                QTimer::singleShot(i * 1000 / hanging, Qt::PreciseTimer, &app, startOne);
        } else {
            for (int i = 0; i < hanging; ++i)
                startOne();
        }
        app.exec();
        out << QStringLiteral("deadline precision (%1 hanging primaries, 1 s timeout, over loopback HTTP, %2):\n")
                   .arg(hanging)
                   .arg(spread ? QStringLiteral("started evenly over 1 s")
                        : relief ? QStringLiteral("all started at once: every deadline in the same ms")
                                 : QStringLiteral("all started at once, no relief provider"));
        out << "  deadline fired late by, ms      " << fireLate.summary(3) << "\n";
        out << "  abort completed late by, ms     " << abortLate.summary(3) << "\n";
    }
    return 0;
}
