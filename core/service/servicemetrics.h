// SPDX-License-Identifier: MIT
#pragma once

#include "engine/breakerboard.h"
#include "engine/clock.h"
#include "engine/event.h"
#include "history/providerwindow.h"
#include "store/retention.h"

#include <QByteArray>
#include <QJsonObject>
#include <QSet>

#include <array>
#include <deque>
#include <map>
#include <tuple>

namespace bullpen {

// What `GET /metrics` says (Prometheus text format 0.0.4) and `GET /v1/stats/providers` sums up, kept
// from the engine's own events as they happen: attempts by stage, provider, role and result, fallback,
// attempt durations as histograms, final states, late results. Gauges (in flight, subscribers, store
// write failures) are passed in when the page is written.
class ServiceMetrics final
{
public:
    struct Gauges
    {
        int generationsInFlight = 0;
        int sseSubscribers = 0;
        int connectionsOpen = 0;
        std::vector<std::pair<QByteArray, quint64>> connectionsEnded; // by reason, every reason from 0
        quint64 sseOverflows = 0;
        quint64 sseBackfilled = 0; // events read back from the store for resumed subscribers
        quint64 storeWriteFailures = 0;
        quint64 storeWritesQueued = 0;
        quint64 storeWriteBacklog = 0; // queued, neither written nor failed yet
        bool storeReachable = true;
        bool draining = false;
        quint64 auditWriteFailures = 0;
        RetentionStats retention; // what this engine's writer purged (retention.h)
        // What the built-in simulator received per provider (the provider's side of the wire), when the
        // engine runs on it: `soak --engine` compares these with the attempts (invariants 1 and 12).
        std::map<Provider, int> simulatorRequests;
        // Breakers and drains (docs/contract.md §13), as the board says them when the page is written.
        std::vector<BreakerView> breakers;
        std::vector<Drain> drains;
        QString version; // bullpen_build_info
    };

    // `wallMs` dates a probe's last run as /metrics shows it (a Unix time); `steadyMs` (steadyNowMs() of
    // the engine's clock) places an attempt in the windows below, so a step of the wall clock neither
    // empties nor stretches them.
    void record(const Event &event, qint64 wallMs, qint64 steadyMs);
    // `clock`'s now in milliseconds: the engine's own clock (EngineContext::clock), monotonic.
    static qint64 steadyNowMs(const Clock &clock);
    void countRequest(int status) { ++m_requests[status]; }
    QByteArray prometheus(const Gauges &gauges) const;

    // Per provider over the last `windowMs` (this engine's attempts, all stages): attempts, error %,
    // the most frequent failure kind, how often a failed primary was handed to the fallback, p50/p90 duration.
    // `nowSteadyMs` is steadyNowMs(clock) of the engine's clock: the windows run on its monotonic time.
    QList<ProviderWindow> providers(const QList<Provider> &providers, qint64 nowSteadyMs, qint64 windowMs) const;

    static constexpr std::array<double, 12> kBucketsSeconds { 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60 };

private:
    struct Histogram
    {
        std::array<quint64, kBucketsSeconds.size()> buckets {};
        quint64 count = 0;
        double sum = 0;
    };
    struct Recent
    {
        qint64 atMs = 0; // steadyNowMs()
        Provider provider = Provider::Gemini;
        Role role = Role::Primary;
        bool success = false;
        std::optional<FailureKind> kind;
        bool handedToFallback = false; // a fallback attempt followed this failed primary
        double durationMs = 0;
    };
    void prune(qint64 nowSteadyMs) const;
    void writeProbes(QByteArray &out) const;
    struct ProbeSeen
    {
        std::array<quint64, 2> runs {}; // ok, failed
        bool ok = false; // the latest
        qint64 atMs = 0;
        double seconds = 0;
    };
    QSet<QString> m_probing; // probes running: their events are not users'
    std::map<std::tuple<Stage, Provider, Role>, ProbeSeen> m_probes;

    std::map<std::tuple<Stage, Provider, Role, QString>, quint64> m_attempts; // result: success or a kind
    std::map<std::tuple<Provider, Stage, Role, QString>, double> m_spend; // by currency (docs/contract.md §16)
    std::map<std::tuple<Stage, Provider, Provider, FailureKind>, quint64> m_fallbacks;
    std::map<std::tuple<Stage, Provider, Provider, QString>, quint64> m_skips; // primary skipped: stage, from, to, state
    std::map<std::tuple<Stage, Provider, Role>, Histogram> m_durations;
    std::map<QString, quint64> m_finished; // by final state
    std::map<int, quint64> m_requests; // API answers by status
    quint64 m_late = 0;
    quint64 m_started = 0;
    mutable std::deque<Recent> m_recent; // the last 15 minutes
};

} // namespace bullpen
