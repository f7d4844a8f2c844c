// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"
#include "failure/failure.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>

#include <chrono>
#include <optional>

namespace bullpen {

class JsonFields;

// One provider call of one stage, as it ended.
struct AttemptRecord
{
    quint64 attemptId = 0;
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini;
    QString model;
    Role role = Role::Primary;
    int round = 1;
    bool success = false;
    std::optional<Failure> failure;
    std::optional<int> httpStatus;
    std::chrono::microseconds startedAt { 0 }; // offsets from the generation's start
    std::chrono::microseconds duration { 0 };
    std::chrono::microseconds deadline { 0 };
    std::optional<std::chrono::microseconds> cancelledAt;
    std::optional<std::chrono::microseconds> sentAt; // when the request had been written (absent: never sent)
    std::optional<std::chrono::microseconds> firstByteAt; // when the provider's answer began (its head); absent: never
    // When the answer's last byte arrived: an attempt is on time if this is before its deadline, however
    // long reading the answer then took (docs/contract.md §12.3); absent: no whole answer arrived.
    std::optional<std::chrono::microseconds> answerCompleteAt;
    qint64 bytesReceived = 0; // bytes of the answer's body read
    std::optional<int> streamEvents; // events of a streamed answer read (absent: not a stream)
    AbortReason abortedBy = AbortReason::None;
    int cancelHandlersRun = 0;
    int requestsSent = 0;
    TokenUsage tokens;
    // What the provider charged for it (docs/contract.md §16): tokens reported × its price; absent when
    // it did not say (a timeout) or no price is known; never a guessed 0.
    std::optional<double> cost;
    QString currency; // of cost ("USD")

    std::optional<FailureKind> kind() const { return failure ? std::optional<FailureKind>(failure->kind) : std::nullopt; }
    QJsonObject toJson() const;
    // Reads what toJson() wrote (also inside an attempt-completed event); `fields` keeps the first error.
    static AttemptRecord read(JsonFields &fields);
    static std::optional<AttemptRecord> fromJson(const QJsonObject &json, QString *error = nullptr);
};

// docs/contract.md §4.5: what every result carries about the fallback.
struct FallbackMetadata
{
    bool applied = false; // provider_fallback_applied
    QString reason; // provider_fallback_reason, e.g. gemini_provider_unavailable
    Provider primaryProvider = Provider::Gemini; // primary_final_model_provider
    std::optional<Provider> finalProvider; // final_model_provider
    QString finalModelId; // final_model_id
};

// The final state of one stage run (docs/contract.md §4.5); for the storyboard stage alone, of a generation.
struct StageResult
{
    QString generationId;
    FinalState state = FinalState::Failed;
    std::optional<Storyboard> storyboard; // storyboard stage
    QStringList captions; // captions stage
    QByteArray image; // image stage
    QString imageMime;
    std::optional<Failure> failure; // the final failure: FAILED or CANCELLED
    Stage failedStage = Stage::Storyboard;
    FallbackMetadata fallback;
    QList<AttemptRecord> attempts;
    TokenUsage tokens; // of the provider whose storyboard is used
    QString decision; // why the engine did or did not call the fallback provider, in one line
    std::chrono::microseconds elapsed { 0 }; // from the stage's request to its end, admission wait included
    std::chrono::microseconds queued { 0 }; // of which waiting for admission, before the budget started

    QJsonObject toJson() const;
    // Reads what toJson() wrote. Captions and image bytes are not part of it (a result names its image
    // by hash; the captions travel with the generation's result).
    static std::optional<StageResult> fromJson(const QJsonObject &json, QString *error = nullptr);
};

// "gemini_provider_unavailable", "gemini_timeout", "qwen_rate_limited" …
QString fallbackReason(Provider from, const Failure &failure);
// A skipped primary's (docs/contract.md §13): "gemini_drained", else "gemini_circuit_open".
QString skipReason(Provider primary, bool drained);
// What fallback reasons end with after "<provider>_", most common first: timeout, provider_unavailable,
// …, and a skipped primary's circuit_open and drained (docs/contract.md §13). Kinds not listed end
// with their own name in lower case.
QStringList fallbackReasonEndings();

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::StageResult)
