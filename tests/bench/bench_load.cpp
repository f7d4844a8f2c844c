// SPDX-License-Identifier: MIT
// bench_load: the engine under load against `bullpen-sim` running as a separate process.
//   throughput [count per level, default 400]  - generations per second through the whole pipeline at
//                                                concurrency 1, 16, 64 and 256, with the CPU time per
//                                                generation of the engine process and of the simulator,
//                                                on 1 engine thread and on 2 (docs/contract.md §12.3), and the ratio;
//   memory [count, default 100000]             - resident memory of the engine process as it runs that
//                                                many generations (concurrency 32), sampled every 5 %.
// The simulator answers at once (a zero-latency scenario) and draws every comic, so the figures are
// the engine's and the simulator's own costs. The store is on (WAL, in a temporary folder).
//   build/dev/tests/bench/bench_load throughput|memory [count]
#include "benchstats.h"
#include "config/eventloops.h"
#include "runtime/enginesetup.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>

#include <map>

using namespace bullpen;
using namespace bullpen::bench;

namespace {

struct Simulator
{
    QProcess process;
    quint16 port = 0;
};

bool startSimulator(Simulator &sim, const QString &scenario)
{
    sim.process.setProgram(QStringLiteral(BULLPEN_SIM));
    sim.process.setArguments({ QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"), scenario });
    sim.process.setProcessChannelMode(QProcess::SeparateChannels);
    sim.process.start();
    if (!sim.process.waitForStarted(10'000))
        return false;
    const QRegularExpression portLine(QStringLiteral("on http://127\\.0\\.0\\.1:(\\d+)"));
    QByteArray seen;
    while (sim.process.waitForReadyRead(10'000)) {
        seen += sim.process.readAllStandardOutput();
        const auto m = portLine.match(QString::fromUtf8(seen));
        if (m.hasMatch()) {
            sim.port = static_cast<quint16>(m.captured(1).toUInt());
            return true;
        }
    }
    return false;
}

std::unique_ptr<EngineSetup> engineFor(quint16 port, const QString &dataDir, const QTemporaryDir &dir, int threads)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("STORYBOARD_PROVIDER"), QStringLiteral("gemini"));
    env.insert(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"), QStringLiteral("qwen"));
    env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("bench-key"));
    env.insert(QStringLiteral("DASHSCOPE_API_KEY"), QStringLiteral("bench-key"));
    env.insert(QStringLiteral("GEMINI_BASE_URL"), QStringLiteral("http://127.0.0.1:%1/v1beta").arg(port));
    env.insert(QStringLiteral("DASHSCOPE_BASE_URL"), QStringLiteral("http://127.0.0.1:%1/compatible-mode/v1").arg(port));
    SetupOptions o;
    o.environment = env;
    o.dataDir = dataDir;
    o.settingsFile = dir.filePath(QStringLiteral("none.json"));
    o.keyFile = dir.filePath(QStringLiteral("none.env"));
    o.engineThreads = threads;
    auto engine = std::make_unique<EngineSetup>();
    if (!engine->init(o)) {
        QTextStream(stderr) << "bench_load: " << engine->errors().constFirst().toString() << "\n";
        return nullptr;
    }
    return engine;
}

// Runs `count` generations with `concurrency` in flight; returns the failures.
int run(EngineSetup &engine, int count, int concurrency, const std::function<void(int)> &onDone = {})
{
    int started = 0, done = 0, failed = 0;
    const QString story = QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it together.");
    auto startOne = [&] {
        GenerationRequest g;
        g.story = story;
        g.userId = QStringLiteral("bench-user-%1").arg(started % 100);
        g.fresh = true;
        ++started;
        engine.engine().start(g);
    };
    const auto c = QObject::connect(&engine.engine(), &EngineClient::finished, &engine, [&](const GenerationResult &r) {
        failed += r.state == FinalState::Succeeded ? 0 : 1;
        ++done;
        if (onDone)
            onDone(done);
        if (started < count)
            startOne();
        else if (done == count)
            QCoreApplication::quit();
    });
    for (int i = 0; i < std::min(concurrency, count); ++i)
        startOne();
    QCoreApplication::exec();
    QObject::disconnect(c);
    return failed;
}

constexpr char kUsage[] = R"(bench_load: the engine under load against bullpen-sim in its own process; states no target (it reports).
  bench_load throughput [count per level, default 400]   generations/s at concurrency 1, 16, 64, 256
  bench_load memory [count, default 100000]              the engine's resident memory as it runs
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    chooseEventLoops(GlibLoops::None); // as the programs do (config/eventloops.h)
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QString mode = argc > 1 ? QString::fromLatin1(argv[1]) : QStringLiteral("throughput");
    QTemporaryDir dir;
    const QString zero = dir.filePath(QStringLiteral("zero-latency.json"));
    {
        QFile f(zero);
        f.open(QIODevice::WriteOnly);
        f.write("{\"name\": \"zero-latency\", \"seed\": 1, \"providers\": {\"*\": {\"do\": \"ok\", \"latency_ms\": 0}}}");
    }
    Simulator sim;
    if (!startSimulator(sim, zero)) {
        out << "bench_load: bullpen-sim did not start (" << BULLPEN_SIM << ")\n";
        return 2;
    }
    const qint64 simPid = sim.process.processId();
    std::unique_ptr<EngineSetup> engine;

    if (mode == u"throughput") {
        const int count = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 400;
        out << QStringLiteral("throughput, whole pipeline, bullpen-sim as a separate process (pid %1), %2 generations per level\n")
                   .arg(simPid)
                   .arg(count);
        std::map<std::pair<int, int>, double> rate; // (threads, concurrency) -> gen/s
        for (const int threads : { 1, 2 }) {
            engine = engineFor(sim.port, dir.filePath(QStringLiteral("data-%1").arg(threads)), dir, threads);
            if (!engine)
                return 2;
            run(*engine, 20, 4); // warm-up: connections, fonts in the simulator, the store's first pages
            out << QStringLiteral("  %1 engine thread%2:\n").arg(threads).arg(threads == 1 ? QString() : QStringLiteral("s"));
            out << QStringLiteral("  %1 %2 %3 %4 %5\n")
                       .arg(QStringLiteral("concurrency"), 12)
                       .arg(QStringLiteral("gen/s"), 10)
                       .arg(QStringLiteral("engine CPU ms/gen"), 20)
                       .arg(QStringLiteral("sim CPU ms/gen"), 16)
                       .arg(QStringLiteral("failed"), 8);
            for (int concurrency : { 1, 16, 64, 256 }) {
                const double cpu0 = cpuMs(), sim0 = cpuMsOf(simPid);
                QElapsedTimer t;
                t.start();
                const int failed = run(*engine, count, concurrency);
                const double seconds = double(t.nsecsElapsed()) / 1e9;
                rate[{ threads, concurrency }] = double(count) / seconds;
                out << QStringLiteral("  %1 %2 %3 %4 %5\n")
                           .arg(concurrency, 12)
                           .arg(double(count) / seconds, 10, 'f', 1)
                           .arg((cpuMs() - cpu0) / count, 20, 'f', 2)
                           .arg((cpuMsOf(simPid) - sim0) / count, 16, 'f', 2)
                           .arg(failed, 8);
                out.flush();
            }
            engine.reset();
        }
        for (int concurrency : { 16, 256 })
            out << QStringLiteral("  2 engine threads vs 1 at concurrency %1: %2x\n")
                       .arg(concurrency)
                       .arg(rate[{ 2, concurrency }] / rate[{ 1, concurrency }], 0, 'f', 2);
    } else {
        engine = engineFor(sim.port, dir.filePath(QStringLiteral("data")), dir,
                           LocalEngine::threadsFromEnvironment(QProcessEnvironment::systemEnvironment()));
        if (!engine)
            return 2;
        run(*engine, 20, 4);
        const int count = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 100'000;
        const int every = std::max(1, count / 20);
        out << QStringLiteral("memory: %1 generations at concurrency 32, resident MiB of the engine process\n").arg(count);
        out << QStringLiteral("  %1 %2\n").arg(QStringLiteral("after"), 10).arg(QStringLiteral("RSS MiB"), 10);
        out << QStringLiteral("  %1 %2\n").arg(20, 10).arg(residentMiB(), 10, 'f', 1);
        QElapsedTimer t;
        t.start();
        const int failed = run(*engine, count, 32, [&](int done) {
            if (done % every == 0) {
                out << QStringLiteral("  %1 %2\n").arg(done, 10).arg(residentMiB(), 10, 'f', 1);
                out.flush();
            }
        });
        out << QStringLiteral("  %1 generations in %2 s, %3 failed; store writes failed: %4\n")
                   .arg(count)
                   .arg(double(t.elapsed()) / 1000.0, 0, 'f', 1)
                   .arg(failed)
                   .arg(engine->store()->stats().failed);
    }
    sim.process.terminate();
    sim.process.waitForFinished(5000);
    return 0;
}
