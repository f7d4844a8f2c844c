// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "failure/failure.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace bullpen {

// One recorded attempt as the tuner reads it (docs/contract.md §17): the store hands them over one at
// a time, a generation's attempts together and in order.
struct TraceAttempt
{
    QString generationId;
    Role role = Role::Primary;
    bool success = false;
    std::optional<FailureKind> kind;
    double durationMs = 0;
    std::optional<double> cost;
};

// One setting to try: the relief preset's primary and fallback timeouts.
struct TuneCandidate
{
    std::chrono::milliseconds primaryTimeout { 60'000 };
    std::chrono::milliseconds fallbackTimeout { 60'000 };
    bool today = false; // the setting in force
};

// The primary timeouts tried when none are named: `bullpen-cli tune`'s default and the Tune panel's
// curve read this one list.
const QList<std::chrono::milliseconds> &defaultTuneTimeouts();

// The candidates of a tune: every primary timeout with every fallback timeout (none given: today's),
// in that order. `bullpen-cli tune`, GET /v1/stats/tune and the Tune panel build theirs here.
QList<TuneCandidate> tuneCandidates(const QList<std::chrono::milliseconds> &primaryTimeouts,
                                    const QList<std::chrono::milliseconds> &fallbackTimeouts, const TuneCandidate &today);

// What the stage would have done under one candidate, over the same generations.
struct TunePrediction
{
    TuneCandidate candidate;
    double p50Ms = 0;
    double p95Ms = 0;
    double successRate = 0;
    double fallbackRate = 0; // generations the fallback answered, of all (as the Latency view counts them)
    double fallbackCalledRate = 0; // generations that called the fallback at all
    double cost = 0; // of the attempts whose cost is known
    qint64 costUnknown = 0; // generations with an attempt of unknown cost
    // Generations whose prediction rests on a recorded timeout at T that says only "longer than T"
    // (the candidate waits longer than the record did), and on a fallback that was never called.
    qint64 censored = 0;
    qint64 imputedFallback = 0;
};

// One generation as predicted under a candidate: its stage latency (its attempts' times, as the
// Latency view sums them), its outcome and what it cost. What a real replay of that generation under
// the same candidate is checked against (docs/contract.md §17; core/replay/replayagreement.h).
struct PredictedGeneration
{
    QString generationId; // kept only when the tuner was asked to (Tuner::keepIds)
    double ms = 0;
    bool success = false;
    bool fallbackCalled = false;
    bool fallbackAnswered = false;
    double cost = 0;
    bool costUnknown = false;
    // Rests on a stand-in, not on this generation's record: a primary answer after a recorded timeout
    // (censored), or a fallback it never called (imputed from the fallbacks of other generations).
    bool censored = false;
    bool imputed = false;

    void pay(float c)
    {
        if (c < 0)
            costUnknown = true;
        else
            cost += c;
    }
};

struct TuneReport
{
    Stage stage = Stage::Storyboard;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 generations = 0;
    TunePrediction recorded; // what happened (its candidate: today's setting)
    QList<TunePrediction> predictions;

    QJsonObject toJson() const;
    static TuneReport fromJson(const QJsonObject &json);
};

// Replays recorded attempt timings under candidate settings, with no network: add() every attempt
// (streamed from the store: a generation is kept as a few numbers, its rows are not), then predict().
class Tuner final
{
public:
    explicit Tuner(Stage stage);

    // Remember each generation's id (call before add()): per-generation predictions name their
    // generation. For a check against replays over a small history; the tune itself never needs ids.
    void keepIds() { m_keepIds = true; }
    void add(const TraceAttempt &attempt);
    TuneReport predict(const QList<TuneCandidate> &candidates, const TuneCandidate &today);
    // Every generation's prediction under `candidate`, in the order they were added: the same walk,
    // and the same stand-ins, as predict() sums.
    std::vector<PredictedGeneration> generations(const TuneCandidate &candidate);

private:
    enum class Outcome : std::uint8_t { None, Success, Eligible, Final, Timeout };
    struct Trace
    {
        float primaryMs = 0;
        float fallbackMs = 0;
        float primaryCost = -1; // < 0: unknown
        float fallbackCost = -1;
        Outcome primary = Outcome::None; // None: skipped (breaker, drain)
        Outcome fallback = Outcome::None; // None: not called
    };
    struct Sample
    {
        float ms = 0;
        float cost = -1;
        bool success = false;
    };
    void close();
    void ready(); // every attempt added: the last generation closed, the stand-ins sorted
    PredictedGeneration walk(std::size_t i, const TuneCandidate &candidate) const;
    TunePrediction run(const TuneCandidate &candidate) const;
    TunePrediction recorded(const TuneCandidate &today) const;

    Stage m_stage;
    QString m_open; // the generation being read
    Trace m_current;
    std::vector<Trace> m_traces;
    std::vector<QString> m_ids; // beside m_traces, with keepIds()
    bool m_keepIds = false;
    bool m_ready = false;
    std::vector<float> m_primarySuccessMs; // sorted before predicting: the uncensored primary durations
    std::vector<Sample> m_fallbacks; // every recorded fallback attempt: what an uncalled fallback would have done
};

} // namespace bullpen
