// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerrolestage.h"
#include "engine/stageresult.h"
#include "nextstep.h"

#include <QJsonObject>
#include <QMetaType>

#include <optional>

namespace bullpen {

// A whole generation (docs/contract.md §2): storyboard, captions, image, storage, with its one final state.
struct GenerationResult
{
    QString generationId;
    FinalState state = FinalState::Failed;
    std::optional<Failure> failure;
    Stage failedStage = Stage::Storyboard;
    std::optional<NextStep> nextStep; // docs/contract.md §7, with every final failure

    StageResult storyboard; // stage result: attempts, fallback metadata, tokens
    std::optional<StageResult> captions;
    QStringList captionLines; // what is shown: the model's, or defaults from the scenes
    bool captionsDefaulted = false;
    bool degraded = false; // a default caption was substituted (never cached)
    std::optional<StageResult> image;
    QString imagePath; // content-addressed under the data directory
    QString imageSha256;
    bool fromCache = false;
    QString cacheKey;
    std::chrono::microseconds elapsed { 0 };
    // A synthetic generation (docs/contract.md §13): one attempt at this provider, role and stage, and nothing else.
    std::optional<ProbeTarget> probe;

    QList<AttemptRecord> attempts() const; // every stage's, in order
    QJsonObject toJson() const;
    // Reads what toJson() wrote: a cached result served again, or a result that crossed the wire from a
    // remote engine. Nothing, with the first wrong field in *error, for anything else.
    static std::optional<GenerationResult> fromJson(const QJsonObject &json, QString *error = nullptr);
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::GenerationResult)
