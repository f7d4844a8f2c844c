// SPDX-License-Identifier: MIT
// bench_engine: what the engine itself costs and how exactly it keeps time, through the whole
// pipeline over real loopback HTTP to the in-process simulator:
//   stage cost - the storyboard stage alone (StageService, HTTP adapter, classify, parse, validate)
//               against a zero-latency simulator, minus a bare QNetworkAccessManager POST of the same
//               request and body to the same simulator, in the same round: through the egress guard
//               (Bullpen's own HTTP/1.1 client on the stage's thread, as shipped for plain http://
//               providers; target: median stage/POST ratio <= 1.6, p99 <= 2.5) and with the adapter on
//               Qt's client straight to the simulator (as https:// providers are reached; median ratio
//               <= 1.5); the guard's share: guarded over straight, same round, median <= 1.22; the
//               guarded stage minus the POST, median <= 0.10 ms (the other differences in ms are
//               reported). Twice:
//               the answer streamed (server-sent events) and as one JSON body (figures ending in
//               _unstreamed), with the same targets.
//   overhead  - sequential generations against a zero-latency scenario: a generation's wall time minus
//               the time its provider requests spent on the wire (the sum of its attempts' durations,
//               every stage). Target: median <= 0.5 ms, p99 <= 2 ms.
//   deadline  - 200 generations at once whose primary hangs (1 s timeout), on the engine threads the
//               console runs (4th argument, default 2): how late each attempt's
//               deadline fired (the attempt's end minus its deadline) and how late its abort completed
//               (cancel handlers done minus the deadline). Target: p99 <= 5 ms. Every run checks with the
//               simulator's own count that each attempt's request reached it (exit 4 if not), and says
//               how long the engine thread(s) ran and how long they sat runnable waiting for a core
//               (Linux schedstat): on 2 cores a late deadline is mostly the latter.
//   on the wire - 1,000 hanging primaries to one provider host at once (in-flight limit raised to match):
//               how soon after the first start the simulator had received every request (target 100 ms),
//               and the process's resident memory with all of them in flight (target 300 MiB).
//   build/dev/tests/bench/bench_engine [overhead runs, default 500] [concurrent hanging attempts, default 200]
//                                      [attempts on the wire at once, default 1000] [engine threads, default 2]
#include "benchstats.h"
#include "config/eventloops.h"
#include "contract/providerregistry.h"
#include "engine/stageservice.h"
#include "providers/httpstagegenerator.h"
#include "providers/networkpool.h"
#include "providers/storyboardclient.h"
#include "providers/wireformat.h"
#include "runtime/enginesetup.h"
#include "sim/providersimulator.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>

using namespace bullpen;
using namespace bullpen::bench;
using namespace std::chrono;

namespace {

// The storyboard stage's time over the time of a bare QNAM POST of the same body, same round (a ratio, so
// that a slower machine, which slows both, does not move it; the guarded difference is judged on its own,
// kGuardedStageCostMs below).
// Measured (release, 2 cores): straight 1.13-1.23; through the egress guard 1.28-1.33 when it was a relay,
// 0.55-0.62 since it is a client on the stage's thread. Gross regressions of the stage path fail these.
constexpr double kGuardedStageOverPost = 1.6;
constexpr double kGuardedStageOverPostP99 = 2.5;
constexpr double kStraightStageOverPost = 1.5;
// The egress guard as a share of the stage: the stage through the guard over the same stage straight on
// Qt's client, same round. Measured 1.08-1.12 when the guard was a keep-alive relay in front of Qt's
// client; a relay that opened a connection per request (0.34-0.46 ms guarded cost against ~0.13 ms
// straight) was 1.3-1.4. The guard as a client of its own, with no thread between, reads below 1.
constexpr double kGuardedOverStraight = 1.22;
// What the stage adds to a bare POST of the same body through the guard, median: the stage's own work
// (adapter, classify, parse, validate) less what the guard saves over Qt's client (the network
// thread's hand-overs). Not a ratio: the ask is 0.10 ms.
constexpr double kGuardedStageCostMs = 0.10;

double ms(microseconds us)
{
    return double(us.count()) / 1000.0;
}

std::unique_ptr<EngineSetup> engineOn(const QString &scenario, const QTemporaryDir &dir, const QProcessEnvironment &env = {},
                                      int threads = 0)
{
    SetupOptions o;
    o.engineThreads = threads;
    o.forceSimulator = true;
    o.scenario = scenario;
    o.dataDir = dir.filePath(QStringLiteral("data-") + QFileInfo(scenario).baseName());
    o.settingsFile = dir.filePath(QStringLiteral("none.json"));
    o.keyFile = dir.filePath(QStringLiteral("none.env"));
    o.environment = env;
    auto engine = std::make_unique<EngineSetup>();
    if (!engine->init(o)) {
        QTextStream(stderr) << "bench_engine: " << engine->errors().constFirst().toString() << "\n";
        return nullptr;
    }
    return engine;
}

// Requests the simulator received, every provider.
// Requests the simulator has read, once it has read `expected` or 2 s have passed: an attempt our
// deadline aborted may end before the simulator's (niced) thread has parsed its request, which then
// arrives a moment later; one that never arrives is still a mismatch.
int simulatorRequests(const EngineSetup &engine, int expected)
{
    const auto count = [&engine] {
        int n = 0;
        for (const Provider p : engine.simulator()->providers()->all())
            n += engine.simulator()->counters(p).requests;
        return n;
    };
    QDeadlineTimer settle(2000);
    while (count() < expected && !settle.hasExpired())
        QThread::msleep(5);
    return count();
}

// One storyboard stage on `service`, or one bare POST; its wall time in ms, or a negative number when it failed.
double timedStage(StageService &service, const StageRequest &request, const StagePolicy &policy, QEventLoop &loop)
{
    QElapsedTimer t;
    bool ok = false;
    const auto done = QObject::connect(&service, &StageService::finished, &loop, [&](const StageResult &r) {
        ok = r.state == FinalState::Succeeded;
        loop.quit();
    });
    t.start();
    service.start(request, policy);
    loop.exec();
    const double took = double(t.nsecsElapsed()) / 1e6;
    QObject::disconnect(done);
    return ok ? took : -1;
}

double timedPost(QNetworkAccessManager &nam, const QNetworkRequest &request, const QByteArray &body, QEventLoop &loop)
{
    QElapsedTimer t;
    t.start();
    QNetworkReply *reply = nam.post(request, body);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->readAll();
    const double took = double(t.nsecsElapsed()) / 1e6;
    const bool ok = reply->error() == QNetworkReply::NoError;
    reply->deleteLater();
    return ok ? took : -1;
}

// Stage cost: the storyboard stage as shipped (through the egress guard, which every plain http://
// provider goes through: docs/hostile-providers.md), the same stage with the adapter on Qt's client
// straight to the simulator, and a bare QNAM POST of the same request, one of each per round, in a
// rotating order; each stage's cost is its time minus the same round's POST. `stream`: the provider is
// asked for server-sent events (the default) or one JSON body; the figures of the latter end in
// "_unstreamed". Returns an exit code.
int measureStageCost(const QString &scenarioFile, const QString &story, int runs, bool stream, Judge &judge, QTextStream &out)
{
    QString why;
    const std::optional<Scenario> scenario = Scenario::load(scenarioFile, &why);
    ProviderSimulator sim;
    if (!scenario || !sim.start(0, &why)) {
        QTextStream(stderr) << "bench_engine: the simulator did not start: " << why << "\n";
        return 2;
    }
    sim.setScenario(*scenario);
    Settings settings = Settings::defaults();
    for (auto &entry : settings.providers) {
        entry.second.baseUrl = sim.baseUrl(entry.first);
        entry.second.apiKey = QStringLiteral("bench-key");
        entry.second.stream = stream;
    }
    NetworkPool pool;
    const ProviderEndpoint endpoint = StoryboardClient::endpointFor(settings, Provider::Gemini);
    HttpStageGenerator direct(pool, endpoint, HttpStageGenerator::Transport::Qt);
    StoryboardClient client(settings);
    StageService guardedService(SteadyClock::instance()), directService(SteadyClock::instance());
    client.registerWith(guardedService);
    directService.addGenerator(&direct);
    const StagePolicy policy = StagePolicy::relief(Provider::Gemini, std::nullopt);
    const StageRequest request = StageRequest::forStory(story);
    const std::unique_ptr<WireFormat> format = WireFormat::create(Provider::Gemini);
    QNetworkRequest bare = format->request(endpoint);
    bare.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const QByteArray body = format->body(endpoint, request);
    QNetworkAccessManager nam;
    QEventLoop loop;
    const int warmUp = 20;
    Sample guardedMs, directMs, postMs, guardedCost, directCost, relayCost, guardedRatio, directRatio, relayRatio;
    for (int i = 0; i < runs + warmUp; ++i) {
        double guarded = 0, straight = 0, post = 0;
        for (int k = 0; k < 3; ++k) {
            switch ((i + k) % 3) {
            case 0:
                guarded = timedStage(guardedService, request, policy, loop);
                break;
            case 1:
                straight = timedStage(directService, request, policy, loop);
                break;
            default:
                post = timedPost(nam, bare, body, loop);
                break;
            }
        }
        if (guarded < 0 || straight < 0 || post < 0) {
            QTextStream(stderr) << "bench_engine: a zero-latency storyboard stage or its bare POST failed\n";
            return 3;
        }
        if (i < warmUp)
            continue;
        guardedMs.add(guarded);
        directMs.add(straight);
        postMs.add(post);
        guardedCost.add(guarded - post);
        directCost.add(straight - post);
        relayCost.add(guarded - straight);
        guardedRatio.add(guarded / post);
        directRatio.add(straight / post);
        relayRatio.add(guarded / straight);
    }
    guardedService.shutdown();
    directService.shutdown();
    const auto name = [stream](const char *figure) {
        return QByteArray(figure).append(stream ? "" : "_unstreamed");
    };
    const QString answer = stream ? QStringLiteral("streamed answer (server-sent events)") : QStringLiteral("one JSON body");
    out << "stage cost, " << answer
        << " (the storyboard stage alone vs a bare QNAM POST of the same body; zero-latency simulator in-process;\n"
           "sequential; one of each per round, order rotating):\n";
    out << "  stage through the egress guard, ms  " << guardedMs.summary(3) << "\n";
    out << "  stage straight to the simulator, ms " << directMs.summary(3) << "\n";
    out << "  bare POST, ms                       " << postMs.summary(3) << "\n";
    out << "  guarded stage minus POST, ms        " << guardedCost.summary(3) << "\n";
    out << "  straight stage minus POST, ms       " << directCost.summary(3) << "\n";
    out << "  guarded minus straight (guard), ms  " << relayCost.summary(3) << "\n";
    out << "  guarded stage / POST                " << guardedRatio.summary(3) << "\n";
    out << "  straight stage / POST               " << directRatio.summary(3) << "\n";
    out << "  guarded stage / straight stage      " << relayRatio.summary(3) << "\n";
    const QString paired = QStringLiteral("storyboard stage alone over a bare POST of the same body, same round, %1, ").arg(answer);
    judge.atMost(name("stage_over_post_through_guard_median").constData(), guardedRatio.at(50), kGuardedStageOverPost, "x",
                 paired + QStringLiteral("median; as shipped for http:// providers (egress guard)"));
    judge.atMost(name("stage_over_post_through_guard_p99").constData(), guardedRatio.at(99), kGuardedStageOverPostP99, "x",
                 paired + QStringLiteral("p99; egress guard"));
    judge.atMost(name("stage_over_post_median").constData(), directRatio.at(50), kStraightStageOverPost, "x",
                 paired + QStringLiteral("median; adapter straight to the provider, as for https:// providers"));
    judge.atMost(
        name("guarded_over_straight_median").constData(), relayRatio.at(50), kGuardedOverStraight, "x",
        QStringLiteral("the stage through the egress guard over the same stage straight, same round, %1, median (the guard's share)")
            .arg(answer));
    const QString minus = QStringLiteral("storyboard stage alone minus a bare POST of the same body, same round, %1, ").arg(answer);
    judge.atMost(name("stage_cost_through_guard_ms_median").constData(), guardedCost.at(50), kGuardedStageCostMs, "ms",
                 minus + QStringLiteral("median; egress guard"));
    judge.report(name("stage_cost_through_guard_ms_p99").constData(), guardedCost.at(99), "ms",
                 minus + QStringLiteral("p99; egress guard"));
    judge.report(name("stage_cost_ms_median").constData(), directCost.at(50), "ms", minus + QStringLiteral("median; adapter straight"));
    judge.report(name("guard_relay_ms_median").constData(), relayCost.at(50), "ms",
                 QStringLiteral("the stage through the egress guard minus the stage straight, same round, %1, median").arg(answer));
    return 0;
}

// The targets of the header above: the engine's own cost, the deadline's precision (docs/contract.md
// section 11, invariant 2) and how soon a burst is on the wire.
constexpr double kOverheadMedianMs = 0.5;
constexpr double kOverheadP99Ms = 2.0;
constexpr double kDeadlineLateP99Ms = 5.0;
constexpr double kLastArrivalMs = 100.0;

constexpr char kUsage[] = R"(bench_engine: the engine's own cost and its deadlines' precision over loopback HTTP.
Targets: storyboard stage / bare POST median <= 1.6 (p99 <= 2.5) through the egress guard, <= 1.5 straight,
guarded stage minus bare POST median <= 0.10 ms, for a streamed answer and for one JSON body;
overhead median <= 0.5 ms, p99 <= 2 ms; deadline late p99 <= 5 ms; 1,000 requests on the wire within 100 ms
and 300 MiB. Each figure is printed with its target on one line; exits 1 when a target is missed
(3 or 4 when the run itself failed). BENCH_TIGHTEN=F tightens every target F times.
  bench_engine [overhead runs, default 500] [concurrent hanging attempts, default 200]
               [attempts on the wire at once, default 1000] [engine threads, default 2]
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    chooseEventLoops(GlibLoops::None); // as the programs do (config/eventloops.h)
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int runs = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 500;
    const int hanging = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 200;
    const int wireCount = argc > 3 ? QString::fromLatin1(argv[3]).toInt() : 1000;
    const int threads = argc > 4 ? QString::fromLatin1(argv[4]).toInt() : 2;
    bool allOnTheWire = true;
    bench::Judge judge(QStringLiteral("bench_engine"));
    QTemporaryDir dir;
    const QString story = QStringLiteral("Mina finds a key. \"Whose is it?\" she asks. A cat meows at the door. They open it together.");

    // --- overhead: zero latency, one generation at a time, after 20 for warm-up.
    const QString zero = dir.filePath(QStringLiteral("zero-latency.json"));
    {
        QFile f(zero);
        f.open(QIODevice::WriteOnly);
        f.write("{\"name\": \"zero-latency\", \"seed\": 1, \"providers\": {\"*\": {\"do\": \"ok\", \"latency_ms\": 0}}}");
    }
    for (const bool stream : { true, false })
        if (const int failed = measureStageCost(zero, story, runs, stream, judge, out))
            return failed;

    Sample overhead, wall, wire;
    {
        auto engine = engineOn(zero, dir);
        if (!engine)
            return 2;
        int done = 0;
        const int warmUp = 20;
        QObject::connect(&engine->pipeline(), &GenerationPipeline::finished, &app, [&](const GenerationResult &r) {
            if (r.state != FinalState::Succeeded) {
                QTextStream(stderr) << "bench_engine: a zero-latency generation failed: " << (r.failure ? r.failure->detail : QString())
                                    << "\n";
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
    judge.atMost("overhead_ms_median", overhead.at(50), kOverheadMedianMs, "ms",
                 QStringLiteral("a generation's wall time minus its attempts' time on the wire"));
    judge.atMost("overhead_ms_p99", overhead.at(99), kOverheadP99Ms, "ms");

    // --- deadline precision: `hanging` primaries in flight, 1 s timeout, fallback after each. Twice: all
    // started in the same instant (every deadline due in the same millisecond: the worst case for one
    // event loop), and started evenly over one timeout (the same number in flight, deadlines spread).
    // A third run: the burst again with no fallback provider, to show what the fallback starts cost.
    for (const int variant : { 0, 1, 2 }) {
        const bool spread = variant == 1;
        const bool withFallback = variant != 2;
        Sample fireLate, abortLate;
        auto engine = engineOn(QStringLiteral("primary-hang"), dir, {}, threads);
        if (!engine)
            return 2;
        StagePolicy policy = engine->storyboardPolicy(); // gemini, answered by its fallback, qwen against the simulator
        policy.primaryTimeout = 1000ms;
        policy.totalBudget.reset();
        if (!withFallback)
            policy.fallback.reset();
        int done = 0;
        int attempts = 0;
        QObject::connect(&engine->engine(), &EngineClient::finished, &app, [&](const GenerationResult &r) {
            attempts += static_cast<int>(r.attempts().size());
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
            g.storyboardPolicy = policy; // the request's own, as the console sends it
            engine->engine().start(g);
        };
        // Where a late deadline's time went: the engine thread(s) on a core, or runnable and waiting
        // for one (Linux schedstat), over the whole run; and what the whole process used meanwhile.
        const QByteArray engineThreads = threads > 0 ? QByteArrayLiteral("bullpen-engine-") : QByteArray();
        const SchedTotals schedBefore = schedTotals(engineThreads);
        const SchedTotals qtBefore = schedTotals(QByteArrayLiteral("QNetworkAccessM")); // Qt's network threads, one per manager
        const double processCpuBefore = cpuMs();
        QElapsedTimer runClock;
        runClock.start();
        if (spread) {
            for (int i = 0; i < hanging; ++i)
                QTimer::singleShot(i * 1000 / hanging, Qt::PreciseTimer, &app, startOne);
        } else {
            for (int i = 0; i < hanging; ++i)
                startOne();
        }
        app.exec();
        const SchedTotals sched = schedTotals(engineThreads) - schedBefore;
        const SchedTotals qtThreads = schedTotals(QByteArrayLiteral("QNetworkAccessM")) - qtBefore;
        const double runMs = double(runClock.nsecsElapsed()) / 1e6;
        const double processCpu = cpuMs() - processCpuBefore;
        out << QStringLiteral("deadline precision (%1 hanging primaries, 1 s timeout, over loopback HTTP, %3 engine thread(s), %2):\n")
                   .arg(hanging)
                   .arg(spread             ? QStringLiteral("started evenly over 1 s")
                            : withFallback ? QStringLiteral("all started at once: every deadline in the same ms")
                                           : QStringLiteral("all started at once, no fallback provider"))
                   .arg(threads);
        out << "  deadline fired late by, ms      " << fireLate.summary(3) << "\n";
        out << "  abort completed late by, ms     " << abortLate.summary(3) << "\n";
        judge.atMost(variant == 0       ? "deadline_late_ms_p99_burst"
                         : variant == 1 ? "deadline_late_ms_p99_spread"
                                        : "deadline_late_ms_p99_burst_no_fallback",
                     fireLate.at(99), kDeadlineLateP99Ms, "ms", QStringLiteral("docs/contract.md invariant 2"));
        out << QStringLiteral("  engine thread(s) over the %1 ms run: %2 ms on a core, %3 ms runnable but waiting for one (%4 waits, "
                              "%5 ms each on average); the whole process used %6 ms of CPU, %7 % of what %8 cores give in that time\n")
                   .arg(runMs, 0, 'f', 0)
                   .arg(sched.cpuMs, 0, 'f', 1)
                   .arg(sched.waitMs, 0, 'f', 1)
                   .arg(sched.waits)
                   .arg(sched.waits > 0 ? sched.waitMs / double(sched.waits) : 0.0, 0, 'f', 3)
                   .arg(processCpu, 0, 'f', 0)
                   .arg(100.0 * processCpu / (runMs * QThread::idealThreadCount()), 0, 'f', 0)
                   .arg(QThread::idealThreadCount());
        out << QStringLiteral(
                   "  Qt's network threads (one per manager of the pool): %1, %2 ms on a core, %3 ms runnable but waiting for one\n")
                   .arg(qtThreads.threads)
                   .arg(qtThreads.cpuMs, 0, 'f', 1)
                   .arg(qtThreads.waitMs, 0, 'f', 1);
        const int received = simulatorRequests(*engine, attempts);
        out << QStringLiteral("  on the wire: the simulator received %1 requests for %2 attempts%3\n")
                   .arg(received)
                   .arg(attempts)
                   .arg(received == attempts ? QString() : QStringLiteral("  <-- MISMATCH"));
        allOnTheWire = allOnTheWire && received == attempts;
    }

    // --- on the wire: `wireCount` hanging primaries to one host at once, no fallback, limit raised to match.
    // The provider is a separate bullpen-sim process, as a real one would be: its receipt times and
    // counts come from its /_sim/counters, and this process's memory is the engine's alone.
    {
        QProcess sim;
        sim.start(QStringLiteral(BULLPEN_SIM_PATH),
                  { QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"), QStringLiteral("primary-hang"),
                    QStringLiteral("--fallback"), QStringLiteral("none") });
        QString geminiUrl, countersUrl;
        while (sim.waitForReadyRead(10'000) || sim.canReadLine()) {
            while (sim.canReadLine()) {
                const QStringList cols = QString::fromUtf8(sim.readLine()).trimmed().split(QLatin1Char('\t'));
                if (cols.value(0) == u"gemini")
                    geminiUrl = cols.value(1);
                else if (cols.value(0) == u"counters")
                    countersUrl = cols.value(1);
            }
            if (!countersUrl.isEmpty())
                break;
        }
        if (geminiUrl.isEmpty() || countersUrl.isEmpty()) {
            QTextStream(stderr) << "bench_engine: bullpen-sim did not start: " << sim.readAllStandardError() << "\n";
            return 2;
        }
        QProcessEnvironment env;
        env.insert(QStringLiteral("BULLPEN_MAX_IN_FLIGHT"), QString::number(wireCount));
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("bench-key"));
        env.insert(QStringLiteral("GEMINI_BASE_URL"), geminiUrl);
        env.insert(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"), QStringLiteral("none"));
        env.insert(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT"), QStringLiteral("3s"));
        SetupOptions so;
        so.dataDir = dir.filePath(QStringLiteral("data-wire"));
        so.settingsFile = dir.filePath(QStringLiteral("none.json"));
        so.keyFile = dir.filePath(QStringLiteral("none.env"));
        so.environment = env;
        auto engine = std::make_unique<EngineSetup>();
        if (!engine->init(so)) {
            QTextStream(stderr) << "bench_engine: " << engine->errors().constFirst().toString() << "\n";
            return 2;
        }
        const double rssBefore = residentMiB();
        double lastStartMs = -1, rssInFlight = -1;
        int done = 0, attempts = 0;
        const auto monotonicNs = [] {
            return std::chrono::duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
        };
        qint64 startNs = 0;
        // Where the burst's time went, up to the last attempt's start: the engine's thread on a core or
        // waiting for one, the rest of this process (the store's writer), and the provider's process.
        int started = 0;
        SchedTotals mainAtStart, mainAtLast;
        double processAtStart = 0, processAtLast = 0, simAtStart = 0, simAtLast = 0;
        QObject::connect(&engine->pipeline(), &GenerationPipeline::eventRecorded, &app, [&](const Event &e) {
            if (!std::holds_alternative<AttemptStarted>(e.body))
                return;
            lastStartMs = static_cast<double>(monotonicNs() - startNs) / 1e6;
            if (++started == wireCount) {
                mainAtLast = schedTotals({});
                processAtLast = cpuMs();
                simAtLast = cpuMsOf(sim.processId());
            }
        });
        Sample sendLag; // each attempt: its request written to the connection, after the attempt started
        int neverSent = 0;
        QObject::connect(&engine->pipeline(), &GenerationPipeline::finished, &app, [&](const GenerationResult &r) {
            attempts += static_cast<int>(r.attempts().size());
            for (const AttemptRecord &a : r.attempts()) {
                if (a.sentAt)
                    sendLag.add(ms(*a.sentAt - a.startedAt));
                else
                    ++neverSent;
            }
            if (++done == wireCount)
                QCoreApplication::quit();
        });
        // Memory with every request in flight: sampled 1 s in, long before the 3 s deadlines.
        QTimer::singleShot(1000, &app, [&] { rssInFlight = residentMiB(); });
        mainAtStart = schedTotals({});
        processAtStart = cpuMs();
        simAtStart = cpuMsOf(sim.processId());
        startNs = monotonicNs();
        for (int i = 0; i < wireCount; ++i) {
            GenerationRequest g;
            g.story = story;
            g.fresh = true;
            engine->pipeline().start(g);
        }
        app.exec();

        QNetworkAccessManager nam;
        QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(countersUrl)));
        QEventLoop wait;
        QObject::connect(reply, &QNetworkReply::finished, &wait, &QEventLoop::quit);
        wait.exec();
        const QJsonObject gemini = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("gemini")).toObject();
        reply->deleteLater();
        const int counted = gemini.value(QStringLiteral("requests")).toInt();
        const double lastArrivalMs =
            (gemini.value(QStringLiteral("last_request_monotonic_ns")).toDouble() - static_cast<double>(startNs)) / 1e6;
        sim.kill();
        sim.waitForFinished();
        out << QStringLiteral("on the wire (%1 hanging primaries to one host at once, in-flight limit %1, 3 s timeout; bullpen-sim in "
                              "its own process):\n")
                   .arg(wireCount);
        out << QStringLiteral("  the last request reached the provider %1 ms after the first start (the last attempt started at %2 ms)\n")
                   .arg(lastArrivalMs, 0, 'f', 1)
                   .arg(lastStartMs, 0, 'f', 1);
        const SchedTotals mainUsed = mainAtLast - mainAtStart;
        out << QStringLiteral(
                   "  until the last attempt started: the engine's thread %1 ms on a core, %2 ms waiting for one and %5 ms asleep "
                   "(blocked in a system call or idle); the rest of this process %3 ms of CPU; the provider's process %4 ms (at its "
                   "clock's 10 ms ticks)\n")
                   .arg(mainUsed.cpuMs, 0, 'f', 1)
                   .arg(mainUsed.waitMs, 0, 'f', 1)
                   .arg(processAtLast - processAtStart - mainUsed.cpuMs, 0, 'f', 1)
                   .arg(simAtLast - simAtStart, 0, 'f', 0)
                   .arg(std::max(0.0, lastStartMs - mainUsed.cpuMs - mainUsed.waitMs), 0, 'f', 1);
        out << "  each request written to its connection after its attempt started, ms " << sendLag.summary(1)
            << QStringLiteral(" (%1 never written)\n").arg(neverSent);
        judge.atMost("rss_mib_with_all_in_flight", rssInFlight, 300, "MiB",
                     QStringLiteral("the engine with every hanging attempt in flight"));
        judge.atMost("last_request_reached_provider_ms", lastArrivalMs, kLastArrivalMs, "ms",
                     QStringLiteral("every hanging attempt's request at the provider, after the first start"));
        out << QStringLiteral("  resident memory of the engine: %1 MiB before, %2 MiB with all %3 in flight\n")
                   .arg(rssBefore, 0, 'f', 1)
                   .arg(rssInFlight, 0, 'f', 1)
                   .arg(wireCount);
        out << QStringLiteral("  on the wire: the provider counted %1 requests for %2 attempts%3\n")
                   .arg(counted)
                   .arg(attempts)
                   .arg(counted == attempts ? QString() : QStringLiteral("  <-- MISMATCH"));
        allOnTheWire = allOnTheWire && counted == attempts;
    }
    if (!allOnTheWire) {
        QTextStream(stderr) << "bench_engine: some attempts never reached the simulator (see MISMATCH above)\n";
        return 4;
    }
    return judge.exitCode();
}
