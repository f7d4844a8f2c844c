// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <initializer_list>

namespace bullpen {

// The sentences the engine writes into its records (a stage's decision, a final failure's next step
// and detail, why a breaker opened or a fallback was not taken), one table of English templates.
// Records, the API, exports and logs keep the English; a console shows the reader's language by
// matching a stored sentence against the same table (localizedRecordText), so what was recorded
// before a translation existed, or by another engine, reads translated too.
enum class RecordText {
    // A stage's decision (docs/contract.md §4): why the fallback provider was or was not called.
    NoProviderStarted,
    QueueFull,
    ProbeNoFallback,
    ProbeNotSent,
    ProbeSucceeded,
    ProbeFailed,
    PrimarySucceeded,
    PrimarySucceededInRound,
    SkippedPrimaryFallbackSucceeded,
    FallbackSucceeded,
    CancelledAfterAttemptEnded,
    CancelledNoFallback,
    NoNextRound,
    NoFallbackBecause,
    NoFallbackBudgetUsed,
    NoFallbackInFlight,
    SkippedPrimaryFallbackFailed,
    FallbackFailedToo,
    FailedAfterRounds,
    NoFallbackConfigured,
    ShutDownBeforeNextAttempt,
    CancelledBeforeNextAttempt,
    ServedFromCache,
    // Why a failure is not handed to the fallback provider ("no fallback: …").
    KindNotHandedOn,
    NoCapacityMarker,
    FallbackHasNoKey,
    FallbackIsSameModel,
    // A final failure's detail when Bullpen itself ended it.
    CancelledByOperator,
    CancelledShuttingDown,
    QueueFullDetail,
    NoAdapter,
    // Breakers and drains: why a provider is skipped, opened, closed or restored.
    DrainedBy,
    DrainedByBecause,
    DrainedByUntil,
    DrainedByBecauseUntil,
    CircuitOpen,
    CircuitHalfOpen,
    FailedByRatio,
    FailedInARow,
    TrialSucceeded,
    TrialReachedProvider,
    TrialFailed,
    CooldownOver,
    DrainRanUntil,
    RestoredBy,
    RestoredByBecause,
    ResetBy,
    ResetByBecause,
    DrainNoLongerStored,
    // What to do next about a final failure (docs/contract.md §7).
    StepInStage,
    StepRateLimitedFor,
    StepRateLimited,
    StepQuota,
    StepTemporary,
    StepOverloadSuffix,
    StepAuthConfig,
    StepTls,
    StepRefused,
    StepRequestRejected,
    StepCancelled,
    StepInternal,
    StepNotSent,
    StepUnknown,
    StepEngineUnreachable,
    StepEngineRefused,
    Count
};

// The English sentence, for records: the template with %1, %2, … filled in one pass (an argument's
// own "%2" stays as it is).
QString recordText(RecordText text, std::initializer_list<QString> args = {});

// A stored sentence in the application's language (QCoreApplication::translate, context
// "bullpen::RecordText"; core/translations): matched against every template, the most specific
// match wins, and its arguments are translated in turn (a skipped primary's "drained by …" inside a
// decision). A sentence that matches no template (a provider's own words) comes back as it is.
QString localizedRecordText(const QString &english);

} // namespace bullpen
