// SPDX-License-Identifier: MIT
// bench_handoff: from a hanging primary's deadline to the fallback request reaching the simulator, over
// real loopback HTTP, N times in a row. Prints median, p90, p99 and max. Run by hand:
//   build/dev/tests/bench/bench_handoff [runs]
#include "benchstats.h"
#include "config/eventloops.h"
#include "engine/stageservice.h"
#include "providers/storyboardclient.h"
#include "sim/providersimulator.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <vector>

using namespace bullpen;
using namespace std::chrono;

namespace {

constexpr char kUsage[] = R"(bench_handoff: from a hanging primary's deadline to the fallback request reaching the simulator, over
loopback HTTP, N times in a row. Prints median, p90, p99 and max; states no target (the deadline's
precision is judged by bench_engine).
  bench_handoff [runs, default 200]
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    chooseEventLoops(GlibLoops::None); // as the programs do (config/eventloops.h)
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 200;
    QString error;
    ProviderSimulator sim;
    if (!sim.start(0, &error))
        return 1;
    sim.setScenario(*Scenario::load(QStringLiteral("primary-hang"), &error));
    sim.setRoles(Provider::Gemini, Provider::Qwen);
    Settings settings = Settings::defaults();
    for (auto &entry : settings.providers) {
        entry.second.baseUrl = sim.baseUrl(entry.first);
        entry.second.apiKey = QStringLiteral("k");
    }
    StoryboardClient client(settings);
    StageService service(SteadyClock::instance());
    client.registerWith(service);
    StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    policy.primaryTimeout = 100ms;

    std::vector<double> handoffMs;
    Clock::time_point primaryDeadline;
    QObject::connect(&service, &StageService::eventRecorded, &service, [&](const Event &e) {
        if (const auto *s = std::get_if<AttemptStarted>(&e.body); s && s->role == Role::Primary)
            primaryDeadline = SteadyClock::instance().now() + duration_cast<Clock::duration>(s->deadline - e.at);
    });
    QObject::connect(&sim, &ProviderSimulator::requestReceived, &sim, [&](Provider p, int) {
        if (p == Provider::Qwen)
            handoffMs.push_back(duration_cast<microseconds>(SteadyClock::instance().now() - primaryDeadline).count() / 1000.0);
    });
    int done = 0;
    QObject::connect(&service, &StageService::finished, &service, [&](const StageResult &) {
        if (++done < runs)
            service.start(StageRequest::forStory(QStringLiteral("A cat. A key. A door. Home.")), policy);
        else
            QCoreApplication::quit();
    });
    service.start(StageRequest::forStory(QStringLiteral("A cat. A key. A door. Home.")), policy);
    app.exec();
    std::sort(handoffMs.begin(), handoffMs.end());
    auto pct = [&](double p) {
        return handoffMs[std::min(handoffMs.size() - 1, static_cast<std::size_t>(p / 100.0 * handoffMs.size()))];
    };
    QTextStream(stdout)
        << QStringLiteral("primary deadline -> relief request at the simulator, %1 runs: median %2 ms, p90 %3 ms, p99 %4 ms, max %5 ms\n")
               .arg(handoffMs.size())
               .arg(pct(50), 0, 'f', 2)
               .arg(pct(90), 0, 'f', 2)
               .arg(pct(99), 0, 'f', 2)
               .arg(handoffMs.back(), 0, 'f', 2);
    return 0;
}
