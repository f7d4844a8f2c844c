// SPDX-License-Identifier: MIT
#include "tuner.h"

#include "engine/stagepolicy.h"

#include <QJsonArray>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <system_error>
#include <thread>

namespace bullpen {

using std::chrono::milliseconds;

namespace {

// The i-th point of a low-discrepancy sequence in [0, 1): which recorded sample stands in for what a
// generation never showed (a fallback it did not call, a primary answer it did not wait for). The same
// history gives the same predictions.
double spread(std::size_t i)
{
    const double x = static_cast<double>(i + 1) * 0.6180339887498949;
    return x - std::floor(x);
}

double percentile(std::vector<float> &v, double q)
{
    if (v.empty())
        return 0;
    const auto k =
        static_cast<std::size_t>(std::min<double>(static_cast<double>(v.size() - 1), std::floor(q * static_cast<double>(v.size()))));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

} // namespace

const QList<milliseconds> &defaultTuneTimeouts()
{
    using namespace std::chrono_literals;
    static const QList<milliseconds> list { 5s, 10s, 15s, 20s, 30s, 45s, 60s, 90s, 120s };
    return list;
}

QList<TuneCandidate> tuneCandidates(const QList<milliseconds> &primaryTimeouts, const QList<milliseconds> &fallbackTimeouts,
                                    const TuneCandidate &today)
{
    const QList<milliseconds> primaries = primaryTimeouts.isEmpty() ? QList { today.primaryTimeout } : primaryTimeouts;
    const QList<milliseconds> fallbacks = fallbackTimeouts.isEmpty() ? QList { today.fallbackTimeout } : fallbackTimeouts;
    QList<TuneCandidate> out;
    out.reserve(primaries.size() * fallbacks.size());
    for (const milliseconds p : primaries) {
        for (const milliseconds f : fallbacks) {
            TuneCandidate c = today; // today's preset and breaker settings, the breaker as recorded
            c.primaryTimeout = p;
            c.fallbackTimeout = f;
            c.today = false;
            c.breaker = TuneBreaker::AsRecorded;
            out << c;
        }
    }
    return out;
}

QString otherTunePreset(const QString &today)
{
    return today == u"relief" ? QStringLiteral("capacity") : QStringLiteral("relief");
}

QList<TuneCandidate> tuneAlternatives(const TuneCandidate &today)
{
    QList<TuneCandidate> out;
    const bool on = today.breakerSettings.enabled;
    for (const TuneBreaker b : { TuneBreaker::On, TuneBreaker::Off }) {
        TuneCandidate c = today;
        c.breaker = b;
        c.today = (b == TuneBreaker::On) == on;
        out << c;
    }
    TuneCandidate other = today;
    other.preset = otherTunePreset(today.preset);
    other.breaker = on ? TuneBreaker::On : TuneBreaker::Off;
    other.today = false;
    out << other;
    return out;
}

Tuner::Tuner(Stage stage)
    : m_stage(stage)
{
}

void Tuner::add(const TraceAttempt &a)
{
    m_ready = false;
    if (a.generationId != m_open) {
        close();
        m_open = a.generationId;
    }
    const Outcome outcome = a.success ? Outcome::Success : a.kind == FailureKind::TIMEOUT ? Outcome::Timeout : Outcome::Failed;
    const auto ms = static_cast<float>(a.durationMs);
    const float cost = a.cost ? static_cast<float>(*a.cost) : -1.0F;
    m_current.startMs = std::min(m_current.startMs, a.atMs - static_cast<qint64>(std::llround(a.durationMs)));
    if (a.role == Role::Primary && m_current.primary == Outcome::None) { // the first round's primary
        m_current.primary = outcome;
        m_current.primaryMs = ms;
        m_current.primaryCost = cost;
        m_current.primaryKind = static_cast<std::uint8_t>(a.kind.value_or(FailureKind::UNKNOWN));
        if (a.success)
            m_primarySuccessMs.push_back(ms);
    } else if (a.role == Role::Fallback && m_current.fallback == Outcome::None) {
        m_current.fallback = outcome;
        m_current.fallbackMs = ms;
        m_current.fallbackCost = cost;
        m_fallbacks.push_back(Sample { ms, cost, a.success });
    }
}

void Tuner::close()
{
    if (!m_open.isEmpty() && (m_current.primary != Outcome::None || m_current.fallback != Outcome::None)) {
        m_traces.push_back(m_current);
        if (m_keepIds)
            m_ids.push_back(m_open);
    }
    m_current = Trace {};
    m_open.clear();
}

TunePrediction Tuner::recorded(const TuneCandidate &today) const
{
    TunePrediction p;
    p.candidate = today;
    std::vector<float> ms;
    ms.reserve(m_traces.size());
    qint64 ok = 0, called = 0, answered = 0;
    for (const Trace &t : m_traces) {
        PredictedGeneration w;
        w.ms = t.primaryMs + (t.fallback == Outcome::None ? 0 : t.fallbackMs);
        if (t.primary != Outcome::None)
            w.pay(t.primaryCost);
        if (t.fallback != Outcome::None)
            w.pay(t.fallbackCost);
        ms.push_back(static_cast<float>(w.ms));
        ok += (t.primary == Outcome::Success || t.fallback == Outcome::Success) ? 1 : 0;
        called += t.fallback != Outcome::None ? 1 : 0;
        answered += t.fallback == Outcome::Success ? 1 : 0;
        p.cost += w.cost;
        p.costUnknown += w.costUnknown ? 1 : 0;
    }
    const double n = std::max<double>(1.0, static_cast<double>(m_traces.size()));
    p.successRate = static_cast<double>(ok) / n;
    p.fallbackCalledRate = static_cast<double>(called) / n;
    p.fallbackRate = static_cast<double>(answered) / n;
    p.p50Ms = percentile(ms, 0.50);
    p.p95Ms = percentile(ms, 0.95);
    return p;
}

Tuner::Routing Tuner::routing(const QString &preset)
{
    const std::optional<StagePolicy> p = StagePolicy::fromPreset(preset, Provider::Gemini, Provider::Qwen);
    const StagePolicy policy = p.value_or(StagePolicy::relief(Provider::Gemini, Provider::Qwen));
    return Routing { policy.fallback ? policy.fallbackOn : KindSet {}, policy.fallbackNeedsCapacityMarker };
}

Tuner::PrimaryPart Tuner::primaryPart(const Trace &t, std::size_t i, double T) const
{
    PrimaryPart p;
    if (t.primary == Outcome::Timeout && T > t.primaryMs) {
        // The record says only "longer than primaryMs": stand in an answer from the primary's
        // answers that took longer, if any did.
        p.censored = true;
        const auto from = std::upper_bound(m_primarySuccessMs.begin(), m_primarySuccessMs.end(), t.primaryMs);
        const auto later = std::distance(from, m_primarySuccessMs.end());
        const double d = later > 0 ? *(from + static_cast<std::ptrdiff_t>(spread(i) * static_cast<double>(later))) : T;
        p.success = d < T;
        p.ms = std::min(d, T);
    } else if (t.primaryMs < T && t.primary != Outcome::Timeout) {
        p.ms = t.primaryMs;
        p.success = t.primary == Outcome::Success;
        if (!p.success)
            p.kind = static_cast<FailureKind>(t.primaryKind);
        return p;
    } else { // cut at the candidate's timeout
        p.ms = T;
    }
    if (!p.success)
        p.kind = FailureKind::TIMEOUT;
    return p;
}

PredictedGeneration Tuner::walk(std::size_t i, const TuneCandidate &c, const Routing &r, Gate gate, std::size_t from,
                                PrimaryPart *called) const
{
    const auto T = static_cast<double>(c.primaryTimeout.count());
    const auto F = static_cast<double>(c.fallbackTimeout.count());
    const Trace &t = m_traces[i];
    PredictedGeneration w;
    if (m_keepIds)
        w.generationId = m_ids[i];
    const bool recordedCall = t.primary != Outcome::None;
    const bool call = gate == Gate::AsRecorded ? recordedCall : gate == Gate::Call && (recordedCall || from < m_traces.size());
    bool handOn = !call; // a skipped primary: straight to the fallback
    w.primarySkipped = !call;
    w.unobserved = gate == Gate::Call && !call; // to be called, but no primary was recorded before it
    if (call) {
        // A primary the record never called: the nearest recorded one before it says how it would have gone.
        const Trace &source = recordedCall ? t : m_traces[from];
        w.unobserved = !recordedCall;
        const PrimaryPart p = primaryPart(source, i, T);
        w.pay(source.primaryCost); // a primary cut short was still computed, and billed, by its provider
        w.censored = p.censored;
        w.costUnknown = w.costUnknown || (p.censored && p.success);
        w.ms = p.ms;
        w.success = p.success;
        handOn = p.kind && r.fallbackOn.contains(*p.kind);
        if (handOn && r.needsCapacityMarker)
            w.unobserved = true; // the marker is not kept: assumed present
        if (called)
            *called = p;
    }
    if (!handOn)
        return w;
    Sample f { t.fallbackMs, t.fallbackCost, t.fallback == Outcome::Success };
    bool known = t.fallback != Outcome::None;
    if (!known && !m_fallbacks.empty()) {
        f = m_fallbacks[static_cast<std::size_t>(spread(i) * static_cast<double>(m_fallbacks.size()))];
        known = true;
        w.imputed = true;
    }
    if (known) { // with no fallback ever called, the stage has none: the failure is final
        w.fallbackCalled = true;
        w.pay(f.cost);
        if (t.fallback == Outcome::Timeout && F > t.fallbackMs)
            w.censored = true; // still counted as failed: nothing says when it would have answered
        w.success = f.success && f.ms < F;
        w.fallbackAnswered = w.success;
        w.ms += std::min<double>(f.ms, F);
    }
    return w;
}

void Tuner::each(const TuneCandidate &c, const Visit &visit) const
{
    if (c.breaker != TuneBreaker::AsRecorded) {
        replayBreaker(c, visit);
        return;
    }
    const Routing r = routing(c.preset);
    for (std::size_t i = 0; i < m_traces.size(); ++i)
        visit(i, walk(i, c, r, Gate::AsRecorded, m_traces.size()));
}

TunePrediction Tuner::run(const TuneCandidate &c) const
{
    TunePrediction p;
    p.candidate = c;
    std::vector<float> latencies;
    latencies.reserve(m_traces.size());
    qint64 ok = 0, called = 0, answered = 0;
    each(c, [&](std::size_t, const PredictedGeneration &w) {
        latencies.push_back(static_cast<float>(w.ms));
        ok += w.success ? 1 : 0;
        called += w.fallbackCalled ? 1 : 0;
        answered += w.fallbackAnswered ? 1 : 0;
        p.cost += w.cost;
        p.costUnknown += w.costUnknown ? 1 : 0;
        p.censored += w.censored ? 1 : 0;
        p.imputedFallback += w.imputed ? 1 : 0;
        p.unobserved += w.unobserved ? 1 : 0;
    });
    const double n = std::max<double>(1.0, static_cast<double>(m_traces.size()));
    p.successRate = static_cast<double>(ok) / n;
    p.fallbackCalledRate = static_cast<double>(called) / n;
    p.fallbackRate = static_cast<double>(answered) / n;
    p.p50Ms = percentile(latencies, 0.50);
    p.p95Ms = percentile(latencies, 0.95);
    return p;
}

std::vector<TunePrediction> Tuner::runAll(const std::vector<TuneCandidate> &candidates) const
{
    // Each candidate is a pass of its own over the same traces, which no pass changes: the passes are
    // spread over the cores, each written to its own slot, so the report is the same as one by one.
    std::vector<TunePrediction> out(candidates.size());
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        for (std::size_t k = next++; k < candidates.size(); k = next++)
            out[k] = run(candidates[k]);
    };
    const std::size_t threads = m_threads ? m_threads : std::max(1U, std::thread::hardware_concurrency());
    std::vector<std::thread> helpers;
    for (std::size_t h = 1; h < std::min(threads, candidates.size()); ++h) {
        try {
            helpers.emplace_back(work);
        } catch (const std::system_error &) {
            break; // no thread to be had: the calling thread does the rest
        }
    }
    work();
    for (std::thread &h : helpers)
        h.join();
    return out;
}

void Tuner::ready()
{
    if (m_ready)
        return;
    close();
    std::sort(m_primarySuccessMs.begin(), m_primarySuccessMs.end());
    m_order.resize(m_traces.size());
    std::iota(m_order.begin(), m_order.end(), std::uint32_t(0));
    std::stable_sort(m_order.begin(), m_order.end(),
                     [this](std::uint32_t a, std::uint32_t b) { return m_traces[a].startMs < m_traces[b].startMs; });
    m_ready = true;
}

std::vector<PredictedGeneration> Tuner::generations(const TuneCandidate &candidate)
{
    ready();
    std::vector<PredictedGeneration> out(m_traces.size());
    each(candidate, [&out](std::size_t i, const PredictedGeneration &w) { out[i] = w; });
    return out;
}

TuneReport Tuner::predict(const QList<TuneCandidate> &candidates, const TuneCandidate &today)
{
    ready();
    TuneCandidate now = today;
    now.today = true;
    now.breaker = TuneBreaker::AsRecorded; // the grid's; the breaker replayed on and off is in the alternatives
    TuneReport r;
    r.stage = m_stage;
    r.generations = static_cast<qint64>(m_traces.size());
    r.recorded = recorded(now);
    std::vector<TuneCandidate> grid;
    bool hasToday = false;
    for (const TuneCandidate &c : candidates) {
        TuneCandidate marked = c;
        marked.today = c.primaryTimeout == today.primaryTimeout && c.fallbackTimeout == today.fallbackTimeout;
        hasToday = hasToday || marked.today;
        grid.push_back(marked);
    }
    if (!hasToday)
        grid.push_back(now);
    // The alternatives first: a replayed breaker is the longest pass, and is best begun early.
    const QList<TuneCandidate> alternatives = tuneAlternatives(now);
    std::vector<TuneCandidate> jobs(alternatives.begin(), alternatives.end());
    jobs.insert(jobs.end(), grid.begin(), grid.end());
    const std::vector<TunePrediction> all = runAll(jobs);
    const auto split = all.begin() + alternatives.size();
    r.alternatives = QList<TunePrediction>(all.begin(), split);
    r.predictions = QList<TunePrediction>(split, all.end());
    std::sort(r.predictions.begin(), r.predictions.end(), [](const TunePrediction &a, const TunePrediction &b) {
        return std::pair(a.candidate.primaryTimeout, a.candidate.fallbackTimeout)
            < std::pair(b.candidate.primaryTimeout, b.candidate.fallbackTimeout);
    });
    return r;
}

} // namespace bullpen
