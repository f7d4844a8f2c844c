// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerrolestage.h"
#include "cost/spend.h"
#include "engine/event.h"
#include "history/providerhealth.h"
#include "tuning/tuner.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

namespace bullpen {

// A generation as the history shows it: masked user, final state, fallback metadata.
struct GenerationRow
{
    QString id;
    qint64 createdAtMs = 0;
    std::optional<qint64> finishedAtMs;
    QString userMask;
    QString userKey;
    QString policy;
    QString state; // running, succeeded, failed, cancelled
    QString publicCode;
    QString kind;
    QString stage;
    QString detail;
    QString decision;
    bool fallbackApplied = false;
    QString fallbackReason;
    QString primaryProvider;
    QString finalProvider;
    QString finalModel;
    qint64 tokensIn = -1;
    qint64 tokensOut = -1;
    double elapsedMs = 0;
    QString fallbackProvider; // configured fallback provider, empty for none
    QString nextStep; // docs/contract.md §7 message of a final failure
    QString imagePath; // on this machine; empty for a remote engine's row
    QString imageSha256; // the comic's name everywhere (a remote engine serves it at /v1/images/{sha256})
    QString instance; // the engine instance that ran it (docs/contract.md §12.2); empty in stores older than schema 6
    // A probe (docs/contract.md §13): what it tried, "openai/fallback/storyboard"; empty for a user's generation.
    QString probe;
    QString replayOf; // a replay (docs/contract.md §14): the generation it played; empty otherwise
    bool synthetic() const { return !probe.isEmpty() || !replayOf.isEmpty(); }

    // "gemini", or "gemini → qwen" when another provider gave the final answer (one spelling for the
    // console, the CLI and exports).
    QString providerChain() const
    {
        return finalProvider.isEmpty() || finalProvider == primaryProvider ? primaryProvider
                                                                           : primaryProvider + QStringLiteral(" → ") + finalProvider;
    }
};

struct HistoryFilter
{
    std::optional<qint64> fromMs; // wall-clock milliseconds since the epoch, inclusive
    std::optional<qint64> toMs; // exclusive
    QList<HistoryState> states; // empty: any
    std::optional<PublicCode> publicCode;
    std::optional<FailureKind> kind;
    std::optional<Stage> stage; // the stage that failed
    std::optional<Provider> provider; // primary or final provider
    QString userKey; // the keyed hash of a user id (Masking::userKey)
    // A raw user id to match, for a reader that holds the installation's masking key (the store hashes
    // it into userKey; attached, the engine does). Never stored, never shown; without the key it
    // matches nothing.
    QString userId;
    QString idPrefix; // generations whose id starts with this (a whole id is its own prefix)
    std::optional<bool> fallbackApplied; // only generations a fallback answered (true), or only the others (false)
    // Only generations in which this provider, in this role, failed an attempt of this stage (not
    // counting NOT_SENT and CANCELLED, as the health cards do): a health card's way into Failures.
    using AttemptScope = ProviderRoleStage; // "gemini/primary/storyboard"
    std::optional<AttemptScope> failedAttempt;
    // Only generations with this fallback reason: a whole one ("gemini_circuit_open") or, naming no
    // provider, an ending (fallbackReasonEndings(): "circuit_open") that matches every provider's.
    QString fallbackReason;
    QString instance; // only this engine instance's generations
    // Probes (synthetic generations, docs/contract.md §13) are left out unless asked for: every count
    // and rate is users' traffic.
    enum class Synthetic { Exclude, Include, Only };
    Synthetic synthetic = Synthetic::Exclude;
    // Keyset paging: rows strictly older than (beforeMs, beforeId).
    std::optional<qint64> beforeMs;
    QString beforeId;
};

// A stage handed to the fallback: what the primary spent before it failed, and what the fallback provider then took.
struct FallbackWait
{
    qint64 atMs = 0; // when the fallback attempt completed
    QString primaryProvider;
    QString fallbackProvider;
    double primaryMs = 0; // every primary attempt of that stage, summed
    double fallbackMs = 0; // the fallback attempt
    bool fallbackSucceeded = false;
};

// A stored side-by-side comparison (docs/contract.md §9.6).
struct ComparisonRow
{
    QString id;
    qint64 createdAtMs = 0;
    QString primaryProvider;
    QString fallbackProvider;
    QJsonObject body;
};

struct LatencySample
{
    qint64 atMs = 0;
    double durationMs = 0;
    bool success = false;
};

// Completed attempts of one time bucket whose durations fall in one log-spaced bin of
// DurationHistogram (core/analytics/durationhistogram.h): what the latency view reads. The store
// answers whole hours from its hourly aggregates and the edges from its rows.
struct DurationCell
{
    qint64 startMs = 0; // the bucket's start
    bool success = false;
    int bin = 0;
    qint64 count = 0;
};

// Stages handed to the fallback of one time bucket whose primary time plus fallback time falls in one bin.
struct FallbackWaitCell
{
    qint64 startMs = 0;
    QString primaryProvider;
    QString fallbackProvider;
    int bin = 0;
    qint64 count = 0;
};

// Generations, and those the fallback answered, per time bucket (fallback rate over time).
struct RateBucket
{
    qint64 startMs = 0;
    qint64 generations = 0;
    qint64 fallbacks = 0;
};

// What a failure count is grouped by.
enum class HistoryGroup { PublicCode, Kind, State };

// The history as a front end reads it (docs/architecture.md): typed queries only, no SQL, no column
// names, no store type. Calls block; a console makes them from a reader thread (HistoryQueue), never
// from its GUI thread. The SQLite store implements it; a remote history implements the same.
class HistoryReader
{
public:
    virtual ~HistoryReader() = default;

    // Where the history lives, for people (a file path, a server).
    virtual QString location() const = 0;
    // Newest first, `limit` at most; keyset paging with filter.beforeMs / beforeId.
    virtual QList<GenerationRow> generations(const HistoryFilter &filter, int limit, QString *error = nullptr) = 0;
    virtual std::optional<GenerationRow> generation(const QString &id, QString *error = nullptr) = 0;
    // The result as the engine answered it when it finished (GenerationResult's JSON; without the
    // storyboard and captions when content is not stored), where this reader has it: an engine's store.
    virtual std::optional<QJsonObject> storedResult(const QString &id, QString *error = nullptr)
    {
        Q_UNUSED(id);
        Q_UNUSED(error);
        return std::nullopt;
    }
    virtual qint64 count(const HistoryFilter &filter, QString *error = nullptr) = 0;
    // When the oldest generation was created (ms since the epoch); nothing in an empty history.
    virtual std::optional<qint64> oldestGenerationMs(QString *error = nullptr) = 0;
    virtual QList<std::pair<QString, qint64>> countBy(HistoryGroup group, const HistoryFilter &filter, QString *error = nullptr) = 0;
    // Generations, and those the fallback answered, per bucket in [fromMs, toMs), of those `scope` selects by provider,
    // instance, user and id (its time, state, code, kind and stage are not used: a rate is over every
    // outcome, and codes, kinds and stages describe failures only).
    virtual QList<RateBucket> fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error = nullptr,
                                           const HistoryFilter &scope = {}) = 0;
    // One generation's recorded events and attempt rows, as stored (JSON objects).
    virtual QList<QJsonObject> events(const QString &generationId, QString *error = nullptr) = 0;
    virtual QList<QJsonObject> attempts(const QString &generationId, QString *error = nullptr) = 0;
    // Completed attempts of one provider in one role (and one stage, unless `stage` is unset).
    virtual QList<LatencySample> latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error = nullptr,
                                                std::optional<Stage> stage = std::nullopt) = 0;
    // Fallback attempts of one stage in a time range (for "the extra wait that fallback added").
    virtual QList<FallbackWait> fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error = nullptr) = 0;
    // The same two, counted per bucket of `bucketMs` from `fromMs` and per duration bin: what dashboards
    // read (their cost does not grow with the attempts in the range where whole hours are asked for).
    virtual QList<DurationCell> latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                 QString *error = nullptr) = 0;
    virtual QList<FallbackWaitCell> fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                          QString *error = nullptr) = 0;
    // Every provider and role's attempts completed in [fromMs, toMs), summed up (the health strip).
    virtual QList<ProviderHealth> providerHealth(qint64 fromMs, qint64 toMs, QString *error = nullptr) = 0;
    virtual QList<ComparisonRow> comparisons(int limit, std::optional<qint64> beforeMs = std::nullopt, const QString &beforeId = {},
                                             QString *error = nullptr) = 0;
    virtual std::optional<ComparisonRow> comparison(const QString &id, QString *error = nullptr) = 0;
    // What users' attempts cost in [fromMs, toMs), by provider, stage, role and currency (docs/contract.md §16).
    virtual std::optional<Spend> spend(qint64 fromMs, qint64 toMs, QString *error = nullptr);
    // The same for each of `slices` equal slices of [fromMs, toMs) (Spend::sliceMs), oldest first: the
    // Spend panel's bars. Here one spend() per slice; the store reads whole hours from its hourly spend.
    virtual std::optional<QList<Spend>> spendSlices(qint64 fromMs, qint64 toMs, int slices, QString *error = nullptr);
    // docs/contract.md §17: every users' attempt of `stage` completed in [fromMs, toMs), handed to `visit`
    // one at a time, a generation's together and in order, without holding the rows; false on an error.
    virtual bool forEachAttempt(Stage stage, qint64 fromMs, qint64 toMs, const std::function<void(const TraceAttempt &)> &visit,
                                QString *error = nullptr);
    // The tuner's report over those attempts (the store's; a remote history asks its engine).
    virtual std::optional<TuneReport> tune(Stage stage, qint64 fromMs, qint64 toMs, const QList<TuneCandidate> &candidates,
                                           const TuneCandidate &today, QString *error = nullptr);
    // A reader thread calls this before it ends (a connection may belong to the thread that used it).
    virtual void releaseThreadConnection() = 0;

    // One generation's events for the timeline and the event log: as recorded, or, where none were
    // kept (history imported from attempt rows alone), rebuilt from its attempt rows.
    struct Timeline
    {
        QList<Event> events;
        bool rebuilt = false;
    };
    Timeline timeline(const GenerationRow &row, QString *error = nullptr);
    // The rebuild: start, each attempt's start and completion (with fallback between), the final state.
    // Stored times are whole milliseconds, so the events are put back in time order and renumbered.
    static QList<Event> eventsFromAttempts(const GenerationRow &row, const QList<QJsonObject> &attempts);
};

// How the history's writes are going: counts, and signals for the console's status bar.
struct HistoryWriteStats
{
    quint64 queued = 0;
    quint64 written = 0;
    quint64 failed = 0;
    quint64 finalStateConflicts = 0; // a second final state for one generation (docs/contract.md §11.6)
    QString lastError;
    QString firstError; // the first failure since the history was opened: usually the cause
    qint64 unreachableSinceMs = 0; // the store's connection is lost and being re-made (0: reachable)
    quint64 dropped = 0; // of `failed`: refused because the records waiting for an unreachable store reached their bound
};

class HistoryWrites : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual HistoryWriteStats writeStats() const = 0;

Q_SIGNALS:
    void writeFailed(const QString &error);
    // The store's connection was lost (records are held and the connection re-made) or is back.
    void reachabilityChanged(bool reachable, const QString &message);
    // Final states now durable (committed; they survive the process being killed).
    void finalStatesCommitted(const QStringList &generationIds);
};

} // namespace bullpen
