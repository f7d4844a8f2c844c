// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providerrolestage.h"
#include "contract/storyboard.h"
#include "engine/stageresult.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <variant>

namespace bullpen {

// docs/contract.md §5: the structured events of a generation. Plain values, JSON both ways (so they can be stored
// and can cross a wire unchanged, docs/contract.md §12). Times are monotonic offsets from the generation's start;
// the wall-clock stamp is for people only and never used to measure.

struct StagePolicy;

struct GenerationStarted
{
    QString preset;
    Provider primary = Provider::Gemini;
    std::optional<Provider> fallback;
    std::chrono::milliseconds budget { 0 };
    QString user; // the display mask ("ha****ul"), never the raw id (docs/contract.md §5.1); empty: no user given
    QString instance; // the engine instance running it, as its event stream says (docs/contract.md §12.2); empty embedded
    std::optional<ProbeTarget> probe; // a synthetic generation: a probe of this provider, role and stage (docs/contract.md §13)
    QString replayOf; // a synthetic generation: the replay of this stored one (docs/contract.md §14)

    // The one place this event is built, by whichever part of the engine starts the generation.
    static GenerationStarted of(const StagePolicy &policy, const QString &rawUserId);
};

// The stage could not start its first attempt: the provider already has its limit of attempts in flight.
// The stage budget has not started; it starts at StageAdmitted.
struct StageQueued
{
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini;
    int ahead = 0; // generations waiting in front of this one
    int inFlight = 0; // the provider's attempts in flight when it joined
    int limit = 0; // the in-flight limit per provider
};

// A queued stage got its slot; its budget starts now.
struct StageAdmitted
{
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini;
    std::chrono::microseconds waited { 0 };
};

struct AttemptStarted
{
    Stage stage = Stage::Storyboard;
    quint64 attemptId = 0;
    Provider provider = Provider::Gemini;
    QString model;
    Role role = Role::Primary;
    int round = 1;
    std::chrono::milliseconds timeout { 0 };
    std::chrono::microseconds deadline { 0 }; // offset of the attempt's deadline
    std::chrono::milliseconds remainingBudget { 0 }; // of the stage, when the attempt started
};

// One attempt as it ended: the engine's own record of it (the same value a StageResult lists), plus
// whether the policy would hand its failure to the fallback provider.
struct AttemptCompleted : AttemptRecord
{
    bool fallbackEligible = false;
};

struct FallbackTriggered
{
    Stage stage = Stage::Storyboard;
    Provider from = Provider::Gemini;
    Provider to = Provider::Qwen;
    FailureKind kind = FailureKind::UNKNOWN;
    std::chrono::milliseconds remainingBudget { 0 };
    QString reason; // provider_fallback_reason, e.g. gemini_provider_unavailable
};

// docs/contract.md §13: the primary was not called because its breaker is open (or half-open with its
// trial in flight) or an operator drained it; the fallback gets the stage at once, with the whole budget.
struct PrimarySkipped
{
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini; // the primary that was skipped
    Provider to = Provider::Qwen; // the fallback that gets the stage
    QString state; // open, half_open or drained
    QDateTime since; // of that state
    QString why; // the breaker's or the drain's reason, in words
    QString reason; // provider_fallback_reason: <provider>_circuit_open or <provider>_drained
    std::chrono::milliseconds remainingBudget { 0 };
};

struct RetryScheduled
{
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    int nextRound = 2;
    FailureKind kind = FailureKind::UNKNOWN;
    std::chrono::milliseconds pause { 0 };
};

struct LateResultDiscarded
{
    Stage stage = Stage::Storyboard;
    quint64 attemptId = 0;
    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    std::chrono::microseconds lateBy { 0 }; // how long after the deadline it arrived
    bool wouldHaveSucceeded = false;
    TokenUsage tokens;
};

struct GenerationFinished
{
    FinalState state = FinalState::Failed;
    std::optional<PublicCode> publicCode;
    std::optional<FailureKind> kind;
    std::optional<Stage> stage;
    QString detail;
    bool fallbackApplied = false;
};

using EventBody = std::variant<GenerationStarted, StageQueued, StageAdmitted, AttemptStarted, AttemptCompleted, FallbackTriggered,
                               RetryScheduled, LateResultDiscarded, GenerationFinished, PrimarySkipped>;

struct Event
{
    QString generationId;
    quint64 sequence = 0; // 0, 1, 2 … within one generation
    std::chrono::microseconds at { 0 }; // monotonic offset from generation start
    QDateTime wallTime; // UTC, for display only
    EventBody body;

    // "generation_started", "storyboard_attempt_started", "storyboard_fallback_triggered", …
    QString type() const;
    QJsonObject toJson() const;
    // toJson() as compact UTF-8 (one line), as the store's writer and the service's event stream write
    // it. After shareJson() (by the producer, before the event is copied to its consumers) it is
    // written once, by whichever consumer asks first on whatever thread, and reused by every copy:
    // the engine thread that records the event never spends time on it.
    QByteArray compactJson() const;
    void shareJson();
    template<typename Object> void writeFields(Object &o) const; // toJson()'s fields, into a QJsonObject or straight to bytes
    struct JsonCache
    {
        std::once_flag once;
        QByteArray bytes;
    };
    std::shared_ptr<JsonCache> jsonCache {}; // set by shareJson(); shared by copies
    // Reads what toJson() wrote; on failure returns nothing and says why in *error.
    static std::optional<Event> fromJson(const QJsonObject &object, QString *error = nullptr);
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Event)
