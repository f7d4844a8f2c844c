// SPDX-License-Identifier: MIT
// An outage, with breakers on and off, side by side in one run (docs/contract.md §13).
//
// The storyboard stage (the real StageService and BreakerBoard) on a ManualClock: generations arrive at
// 10 per second for 300 s; the primary answers in 300 ms, except from 90 s to 210 s, when it hangs until
// its 10 s timeout; the fallback answers in 200 ms. The clock is exact, so the figures are the engine's
// decisions, not this machine's speed; what a real network adds on top is bench_engine's and the
// soak's to say. Last, the engine's own cost per generation with the board and without, paired blocks
// on a healthy primary (wall time on this machine; judged as a ratio).
//
//   bench_outage [--json]      prints each figure as a JSON line and a line for people; exits 1 when a target is missed
#include "benchstats.h"
#include "engine/breakerboard.h"
#include "engine/manualclock.h"
#include "engine/stageservice.h"
#include "scriptedgenerator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>
#include <map>

using namespace bullpen;
using namespace std::chrono;
using namespace std::chrono_literals;

namespace {

constexpr auto kRun = 300s;
constexpr auto kOutageFrom = 90s;
constexpr auto kOutageTo = 210s;
constexpr auto kEvery = 100ms;
constexpr auto kPrimaryTimeout = 10s;
constexpr auto kPrimaryLatency = 300ms;
constexpr auto kFallbackLatency = 200ms;

// A provider whose answer depends on the clock: healthy, or hanging during [from, to).
class TimedProvider final : public StageGenerator
{
public:
    TimedProvider(ManualClock &clock, Provider provider, milliseconds latency, Clock::time_point from, Clock::time_point to)
        : m_clock(clock)
        , m_provider(provider)
        , m_latency(latency)
        , m_from(from)
        , m_to(to)
    {
        if (provider != Provider::Gemini) // the sample is in Gemini's words; a normal stop in this provider's
            m_ok.finishReason = provider == Provider::Anthropic ? QStringLiteral("end_turn") : QStringLiteral("stop");
    }
    Provider provider() const override { return m_provider; }
    WireDialect dialect() const override { return dialectOf(m_provider); } // a built-in's
    QString model() const override { return toId(m_provider) + QStringLiteral("-model"); }
    bool isConfigured() const override { return true; }
    void generate(const StageRequest &, std::shared_ptr<AttemptContext> context) override
    {
        sentAt.push_back(m_clock.now());
        context->noteRequestSent();
        const bool hang = m_clock.now() >= m_from && m_clock.now() < m_to;
        auto timer = std::make_shared<std::unique_ptr<Timer>>();
        if (!hang) {
            std::weak_ptr<AttemptContext> weak = context;
            *timer = m_clock.arm(m_clock.now() + m_latency, [weak, this] {
                if (auto c = weak.lock())
                    c->deliver(m_ok);
            });
        }
        context->onCancel([timer] { timer->reset(); });
    }
    std::vector<Clock::time_point> sentAt;

private:
    ManualClock &m_clock;
    Provider m_provider;
    milliseconds m_latency;
    Clock::time_point m_from, m_to;
    ProviderResponse m_ok = *test::Step::ok(0ms).response;
};

struct OutageRun
{
    bench::Sample outageSeconds; // time to result of generations started during the outage, once open (on) / all (off)
    int primaryRequestsInOutage = 0; // sent during [from, to)
    int primaryRequestsBeforeAnyFailure = 0; // of which sent before the first timeout could be seen
    int trialsWhileOpen = 0;
    double openAfterS = -1; // outage start → breaker opened
    double backAfterS = -1; // recovery → first primary success
    int failed = 0;
    int generations = 0;
};

OutageRun runOutage(bool breakers)
{
    ManualClock clock;
    const auto t0 = clock.now();
    TimedProvider gemini(clock, Provider::Gemini, kPrimaryLatency, t0 + kOutageFrom, t0 + kOutageTo);
    TimedProvider qwen(clock, Provider::Qwen, kFallbackLatency, t0 + 1000h, t0 + 1000h);
    BreakerSettings settings;
    settings.enabled = breakers;
    BreakerBoard board(settings);
    StageService service(clock);
    service.addGenerator(&gemini);
    service.addGenerator(&qwen);
    service.setBreakers(&board);
    StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    policy.primaryTimeout = kPrimaryTimeout;

    OutageRun out;
    std::map<QString, Clock::time_point> startedAt;
    std::optional<Clock::time_point> openedAt;
    QObject::connect(&board, &BreakerBoard::changed, &board, [&](const BreakerChange &c) {
        if (c.type == u"breaker_opened" && c.key.role == Role::Primary && !openedAt)
            openedAt = clock.now();
    });
    QObject::connect(&service, &StageService::finished, &service, [&](const StageResult &r) {
        const auto begun = startedAt.at(r.generationId);
        ++out.generations;
        if (r.state != FinalState::Succeeded)
            ++out.failed;
        const bool duringOutage = begun >= t0 + kOutageFrom && begun < t0 + kOutageTo;
        if (duringOutage && (!breakers || (openedAt && begun >= *openedAt)))
            out.outageSeconds.add(duration<double>(clock.now() - begun).count());
        const bool primaryAnswered = !r.attempts.isEmpty() && r.attempts.first().role == Role::Primary && r.attempts.first().success;
        if (primaryAnswered && out.backAfterS < 0 && begun >= t0 + kOutageTo)
            out.backAfterS = duration<double>(clock.now() - (t0 + kOutageTo)).count();
    });
    for (auto at = t0; at < t0 + kRun; at += kEvery) {
        clock.advanceTo(at);
        const QString id = service.start(StageRequest::forStory(QStringLiteral("story")), policy);
        startedAt[id] = at;
    }
    // Run on until the primary is back (breakers on), at most 10 more minutes.
    for (auto at = t0 + kRun; out.backAfterS < 0 && at < t0 + kRun + 10min; at += kEvery) {
        clock.advanceTo(at);
        startedAt[service.start(StageRequest::forStory(QStringLiteral("story")), policy)] = at;
    }
    clock.advance(5min);
    const auto firstFailureVisible = t0 + kOutageFrom + kPrimaryTimeout;
    for (const auto sent : gemini.sentAt) {
        if (sent < t0 + kOutageFrom || sent >= t0 + kOutageTo)
            continue;
        ++out.primaryRequestsInOutage;
        if (sent < firstFailureVisible)
            ++out.primaryRequestsBeforeAnyFailure;
        else if (openedAt && sent >= *openedAt)
            ++out.trialsWhileOpen;
    }
    if (openedAt)
        out.openAfterS = duration<double>(*openedAt - (t0 + kOutageFrom)).count();
    return out;
}

// Engine time per healthy generation, board on and off, in paired blocks.
std::pair<double, double> overheadUs()
{
    constexpr int kBlock = 2000;
    constexpr int kBlocks = 9;
    bench::Sample on, off;
    for (int b = 0; b < kBlocks * 2; ++b) {
        const bool withBoard = b % 2 == 0;
        ManualClock clock;
        TimedProvider gemini(clock, Provider::Gemini, kPrimaryLatency, clock.now() + 1000h, clock.now() + 1000h);
        TimedProvider qwen(clock, Provider::Qwen, kFallbackLatency, clock.now() + 1000h, clock.now() + 1000h);
        BreakerBoard board({});
        StageService service(clock);
        service.addGenerator(&gemini);
        service.addGenerator(&qwen);
        if (withBoard)
            service.setBreakers(&board);
        const StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < kBlock; ++i) {
            service.start(StageRequest::forStory(QStringLiteral("story")), policy);
            clock.advance(1ms);
        }
        clock.advance(1s);
        QCoreApplication::processEvents(); // finished runs are destroyed from the event loop
        (withBoard ? on : off).add(double(t.nsecsElapsed()) / 1000.0 / kBlock);
    }
    return { on.at(50), off.at(50) };
}

// How long after the outage ends traffic is back, at most, from the breaker's settings alone: the
// breaker opens at the latest when open_after_s allows; each trial sent while the outage lasts hangs
// until the timeout and reopens it with the cooldown doubled (up to the maximum), the wait counted from
// the trial's sending (a trial that outlasts the wait makes the next request the trial). Each wait may
// be up to cooldown_jitter shorter, never longer (engines sharing a store do not half-open in lockstep),
// which moves every later trial: so the bound takes the waits at their shortest, which fit the most
// failed trials into the outage and so reach the longest cooldown C; the last failed trial was sent
// before the outage ended; the next one goes at most max(C, a trial's timeout) after it and is
// answered in the primary's latency.
double backAfterBoundS(const BreakerSettings &s, seconds latestOpenAfter)
{
    milliseconds sent = kOutageFrom + latestOpenAfter; // where the wait counts from: the opening, then each trial's sending
    milliseconds failedAt = sent;
    milliseconds cooldown = s.cooldown;
    for (;;) {
        const auto shortest = duration_cast<milliseconds>(cooldown * (1.0 - s.cooldownJitter));
        const milliseconds trial = std::max(sent + shortest, failedAt);
        if (trial >= kOutageTo)
            break;
        sent = trial;
        failedAt = trial + kPrimaryTimeout;
        cooldown = std::min(cooldown * 2, s.maxCooldown);
    }
    return duration<double>(std::max(cooldown, duration_cast<milliseconds>(kPrimaryTimeout)) + kPrimaryLatency).count();
}

constexpr char kUsage[] = R"(bench_outage: an outage with breakers on and off, side by side, on a manual clock
(docs/contract.md section 13); then the engine's cost per generation with the board and without.
  bench_outage [--json]   prints each figure with its target on one line (and as a JSON line);
                          exits 1 when a target is missed. BENCH_TIGHTEN=F tightens every target F times.
)";

} // namespace

int main(int argc, char *argv[])
{
    if (bench::helpRequested(argc, argv, kUsage))
        return 0;
    QCoreApplication app(argc, argv);
    const bool json = app.arguments().contains(QStringLiteral("--json")); // the JSON lines only
    const OutageRun on = runOutage(true);
    const OutageRun off = runOutage(false);
    const auto [usOn, usOff] = overheadUs();
    const double overhead = usOn / usOff - 1.0;

    const double fallbackS = duration<double>(kFallbackLatency).count();
    const double timeoutS = duration<double>(kPrimaryTimeout).count();
    const int cooldowns = 1 + int((kOutageTo - kOutageFrom) / BreakerSettings {}.cooldown);
    bench::Judge judge(QStringLiteral("bench_outage"));
    judge.atMost("outage_p50_on_s", on.outageSeconds.at(50), fallbackS + 0.1, "s",
                 QStringLiteral("time to result during the outage, breakers on: ≤ fallback + 100 ms"));
    judge.atMost("outage_p95_on_s", on.outageSeconds.at(95), fallbackS + 0.1, "s", QStringLiteral("the same, p95"));
    judge.atLeast("outage_p50_off_s", off.outageSeconds.at(50), timeoutS, "s",
                  QStringLiteral("breakers off: every user waits the primary's timeout"));
    const auto latestOpenAfter = duration_cast<seconds>(kPrimaryTimeout) + 2s;
    judge.atMost("open_after_s", on.openAfterS, duration<double>(latestOpenAfter).count(), "s",
                 QStringLiteral("outage start → breaker open: ≤ primary timeout + 2 s"));
    judge.atMost("primary_requests_after_first_failure_on", double(on.primaryRequestsInOutage - on.primaryRequestsBeforeAnyFailure),
                 double(BreakerSettings {}.minAttempts + cooldowns), "requests", QStringLiteral("≤ min_attempts + 1 per cooldown"));
    judge.atLeast("primary_requests_off", double(off.primaryRequestsInOutage), double((kOutageTo - kOutageFrom) / kEvery), "requests",
                  QStringLiteral("breakers off: every generation of the outage"));
    judge.atMost("back_after_s", on.backAfterS, backAfterBoundS(BreakerSettings {}, latestOpenAfter), "s",
                 QStringLiteral("recovery → traffic back: ≤ the cooldown doubled by each trial during the outage (from the "
                                "breaker's settings; counted from the last failed trial's sending) + one request"));
    judge.atMost("overhead_ratio", overhead, 0.05, "ratio",
                 QStringLiteral("engine time per generation, breakers on over off, minus 1 (paired blocks)"));
    judge.report("engine_us_per_generation_on", usOn, "us");
    judge.report("engine_us_per_generation_off", usOff, "us");
    QTextStream out(stdout);
    if (!json)
        out << QStringLiteral(
                   "primary requests during the outage: on %1 (%2 before its first timeout could be seen, %3 trials once open), off %4\n"
                   "generations: on %5 (%6 failed), off %7 (%8 failed); engine time per generation: on %9 us, off %10 us\n")
                   .arg(on.primaryRequestsInOutage)
                   .arg(on.primaryRequestsBeforeAnyFailure)
                   .arg(on.trialsWhileOpen)
                   .arg(off.primaryRequestsInOutage)
                   .arg(on.generations)
                   .arg(on.failed)
                   .arg(off.generations)
                   .arg(off.failed)
                   .arg(usOn, 0, 'f', 2)
                   .arg(usOff, 0, 'f', 2);
    return judge.exitCode();
}
