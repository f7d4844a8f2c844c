// SPDX-License-Identifier: MIT
// The tuner's breaker on/off candidates (docs/contract.md §13, §17): the generations replayed in the
// order they started through the engine's own breaker (BreakerBoard, with today's breaker settings),
// so that a generation arriving while the primary's breaker would be open goes straight to the fallback.
#include "engine/breakerboard.h"
#include "tuner.h"

#include <queue>

namespace bullpen {

namespace {

// A primary attempt under way in the replay: the breaker hears of it when it ends.
struct Ending
{
    double atMs = 0;
    BreakerCount count = BreakerCount::Success;
    bool trial = false;
    std::optional<FailureKind> kind;
    bool operator>(const Ending &o) const { return atMs > o.atMs; }
};

} // namespace

void Tuner::replayBreaker(const TuneCandidate &c, const Visit &visit) const
{
    using namespace std::chrono;
    if (m_order.empty())
        return;
    BreakerSettings settings = c.breakerSettings;
    settings.enabled = c.breaker == TuneBreaker::On;
    BreakerBoard board(settings);
    board.setLogged(false);
    board.setWallClock([] { return QDateTime::fromMSecsSinceEpoch(0, Qt::UTC); }); // no drains are replayed
    board.setRandom([] { return 0.5; }); // each cooldown shortened by half its jitter: the mean, and the same every run
    // One breaker: the stage's primary, whichever provider it was (the read does not name providers).
    const BreakerKey key { Provider::Gemini, Role::Primary, m_stage };
    const Routing r = routing(c.preset);
    // docs/contract.md §13.3: with no fallback the primary is tried as usual.
    const bool canSkip = !m_fallbacks.empty() && !r.fallbackOn.isEmpty();
    const auto origin = static_cast<double>(m_traces[m_order.front()].startMs);
    const auto at = [origin](double ms) {
        return Clock::time_point(duration_cast<Clock::duration>(duration<double, std::milli>(ms - origin)));
    };
    std::priority_queue<Ending, std::vector<Ending>, std::greater<>> underWay;
    std::size_t standIn = m_traces.size(); // the latest generation, in time, whose primary was recorded
    for (const std::uint32_t i : m_order) {
        const Trace &t = m_traces[i];
        const auto start = static_cast<double>(t.startMs);
        while (!underWay.empty() && underWay.top().atMs <= start) {
            const Ending &e = underWay.top();
            board.record(key, e.count, e.trial, at(e.atMs), e.kind);
            underWay.pop();
        }
        if (t.primary != Outcome::None)
            standIn = i;
        const BreakerGate gate = board.admit(key, at(start));
        const Gate g = gate.verdict == BreakerGate::Skip && canSkip ? Gate::Skip : Gate::Call;
        PrimaryPart called;
        called.ms = -1; // stays so when the primary was not called
        const PredictedGeneration w = walk(i, c, r, g, standIn, &called);
        if (called.ms < 0 && gate.verdict == BreakerGate::Trial)
            board.record(key, BreakerCount::Ignored, true, at(start)); // not sent: the next request is the trial
        if (called.ms >= 0)
            underWay.push(Ending { start + called.ms, breakerCount(called.kind), gate.verdict == BreakerGate::Trial, called.kind });
        visit(i, w);
    }
}

} // namespace bullpen
