// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "engine/breakersettings.h"
#include "engine/stagepolicy.h"
#include "failure/failure.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace bullpen {

// One recorded attempt as the tuner reads it (docs/contract.md §17): the store hands them over one at
// a time, a generation's attempts together and in order (not in time order: the tuner sorts the
// generations by when they started before it replays a breaker).
struct TraceAttempt
{
    QString generationId;
    qint64 atMs = 0; // when the attempt finished (wall time, as `attempts.at_ms`)
    Role role = Role::Primary;
    bool success = false;
    std::optional<FailureKind> kind;
    double durationMs = 0;
    std::optional<double> cost;
};

// How a candidate treats the primary's breaker (docs/contract.md §13).
enum class TuneBreaker : std::uint8_t {
    AsRecorded, // each generation's primary skipped exactly when the record skipped it (the timeout grid)
    On, // the engine's breaker (BreakerBoard) replayed over the generations in time order
    Off, // no breaker: every primary is called and waited for
};
QString toId(TuneBreaker breaker); // as_recorded, on, off
std::optional<TuneBreaker> tuneBreakerFromId(const QString &id);

// One setting to try: a routing preset's primary and fallback timeouts, with the breaker as recorded
// (the timeout grid) or replayed on or off.
struct TuneCandidate
{
    std::chrono::milliseconds primaryTimeout { 60'000 };
    std::chrono::milliseconds fallbackTimeout { 60'000 };
    bool today = false; // the setting in force
    QString preset = QStringLiteral("relief"); // which primary failures fall back (StagePolicy::fromPreset)
    TuneBreaker breaker = TuneBreaker::AsRecorded;
    // Today's: the breaker's settings (`breaker`, `breaker_window`, …) a replayed breaker runs with.
    BreakerSettings breakerSettings {};
};

// The primary timeouts tried when none are named: `bullpen-cli tune`'s default and the Tune panel's
// curve read this one list.
const QList<std::chrono::milliseconds> &defaultTuneTimeouts();

// The candidates of a tune: every primary timeout with every fallback timeout (none given: today's),
// in that order. `bullpen-cli tune`, GET /v1/stats/tune and the Tune panel build theirs here.
QList<TuneCandidate> tuneCandidates(const QList<std::chrono::milliseconds> &primaryTimeouts,
                                    const QList<std::chrono::milliseconds> &fallbackTimeouts, const TuneCandidate &today);

// The preset a tune offers beside today's (docs/contract.md §4): `relief` and `capacity` are each
// other's; `rounds` never switches provider, and its second round was never recorded unless it ran,
// so from `rounds` the other is the shipped default, `relief`.
QString otherTunePreset(const QString &today);
// Today's timeouts under settings other than the timeouts, each replayed in time order: the breaker on
// and off (one of them today's, marked), then the other preset with today's breaker.
QList<TuneCandidate> tuneAlternatives(const TuneCandidate &today);

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
    // Generations whose prediction rests on what the record cannot say: a primary this candidate calls
    // but the record skipped (its breaker was open, or it was drained), stood in by the primary's
    // recorded attempt nearest before it in time; or, under `capacity`, a TRANSIENT_SERVER failure
    // assumed to carry the capacity marker the attempts table does not keep.
    qint64 unobserved = 0;
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
    bool unobserved = false; // see TunePrediction::unobserved
    bool primarySkipped = false; // went straight to the fallback (the record's skip, or a replayed breaker's)

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
    QList<TunePrediction> predictions; // the timeout grid, breaker as recorded: the Tune panel's curve
    // Today's timeouts with the breaker replayed on and off, and under the other preset (tuneAlternatives).
    QList<TunePrediction> alternatives;

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
    // How many threads predict() runs its candidates on (0, the default: one per core).
    void setThreads(unsigned threads) { m_threads = threads; }
    void add(const TraceAttempt &attempt);
    TuneReport predict(const QList<TuneCandidate> &candidates, const TuneCandidate &today);
    // Every generation's prediction under `candidate`, in the order they were added: the same walk,
    // and the same stand-ins, as predict() sums.
    std::vector<PredictedGeneration> generations(const TuneCandidate &candidate);

private:
    enum class Outcome : std::uint8_t { None, Success, Failed, Timeout };
    struct Trace
    {
        qint64 startMs = std::numeric_limits<qint64>::max(); // when its first attempt started (wall time)
        float primaryMs = 0;
        float fallbackMs = 0;
        float primaryCost = -1; // < 0: unknown
        float fallbackCost = -1;
        Outcome primary = Outcome::None; // None: skipped (breaker, drain)
        Outcome fallback = Outcome::None; // None: not called
        std::uint8_t primaryKind = 0; // the FailureKind of a failed primary
    };
    struct Sample
    {
        float ms = 0;
        float cost = -1;
        bool success = false;
    };
    // Which primary failures a candidate's preset hands to the fallback.
    struct Routing
    {
        KindSet fallbackOn;
        bool needsCapacityMarker = false;
    };
    // How a primary called under a candidate ended: its time, and its failure kind if it failed.
    struct PrimaryPart
    {
        double ms = 0;
        bool success = false;
        bool censored = false;
        std::optional<FailureKind> kind;
    };
    // Whether a generation's primary is called: as the record says, or as a replayed breaker says.
    enum class Gate : std::uint8_t { AsRecorded, Call, Skip };
    using Visit = std::function<void(std::size_t, const PredictedGeneration &)>;
    static Routing routing(const QString &preset);
    void close();
    void ready(); // every attempt added: the last generation closed, the stand-ins sorted, the time order made
    PrimaryPart primaryPart(const Trace &t, std::size_t i, double timeoutMs) const;
    // Generation i under a candidate; `from`: whose recorded primary stands in when the record skipped it.
    PredictedGeneration walk(std::size_t i, const TuneCandidate &candidate, const Routing &r, Gate gate, std::size_t from,
                             PrimaryPart *called = nullptr) const;
    // Every generation under a candidate, each handed to `visit` with its index: in the order added for
    // the breaker as recorded, in time order for a replayed breaker (tunebreaker.cpp).
    void each(const TuneCandidate &candidate, const Visit &visit) const;
    void replayBreaker(const TuneCandidate &candidate, const Visit &visit) const;
    TunePrediction run(const TuneCandidate &candidate) const;
    std::vector<TunePrediction> runAll(const std::vector<TuneCandidate> &candidates) const; // run() each, on every core
    TunePrediction recorded(const TuneCandidate &today) const;

    Stage m_stage;
    QString m_open; // the generation being read
    Trace m_current;
    std::vector<Trace> m_traces;
    std::vector<std::uint32_t> m_order; // m_traces' indices by start time
    std::vector<QString> m_ids; // beside m_traces, with keepIds()
    bool m_keepIds = false;
    unsigned m_threads = 0;
    bool m_ready = false;
    std::vector<float> m_primarySuccessMs; // sorted before predicting: the uncensored primary durations
    std::vector<Sample> m_fallbacks; // every recorded fallback attempt: what an uncalled fallback would have done
};

} // namespace bullpen
