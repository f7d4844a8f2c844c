// SPDX-License-Identifier: MIT
#include "generationresult.h"

#include "contract/storyboardvalidator.h"

#include <QJsonArray>

namespace bullpen {

QList<AttemptRecord> GenerationResult::attempts() const
{
    QList<AttemptRecord> all = storyboard.attempts;
    if (captions)
        all += captions->attempts;
    if (image)
        all += image->attempts;
    return all;
}

QJsonObject GenerationResult::toJson() const
{
    // The storyboard stage's JSON carries SPEC 4.5's fallback fields at the top level, as before.
    QJsonObject o = storyboard.toJson();
    o.insert(QStringLiteral("generation_id"), generationId);
    o.insert(QStringLiteral("state"), toId(state));
    o.insert(QStringLiteral("public_code"), failure ? QJsonValue(enumName(failure->publicCode())) : QJsonValue());
    o.insert(QStringLiteral("kind"), failure ? QJsonValue(enumName(failure->kind)) : QJsonValue());
    o.insert(QStringLiteral("stage"), failure ? QJsonValue(toId(failedStage)) : QJsonValue());
    o.insert(QStringLiteral("detail"), failure ? QJsonValue(failure->detail) : QJsonValue());
    o.insert(QStringLiteral("next_step"), nextStep ? QJsonValue(nextStep->toJson()) : QJsonValue());
    QJsonArray attemptArray;
    const QList<AttemptRecord> all = attempts();
    for (const AttemptRecord &a : all)
        attemptArray.append(a.toJson());
    o.insert(QStringLiteral("attempts"), attemptArray);
    // Token counts named for what they cover: the storyboard stage's answer that was used, and every
    // attempt of every stage (what the providers may bill). Unknown counts are left out of the totals.
    o.remove(QStringLiteral("tokens_in"));
    o.remove(QStringLiteral("tokens_out"));
    const auto known = [](qint64 n) { return n >= 0 ? QJsonValue(static_cast<double>(n)) : QJsonValue(); };
    o.insert(QStringLiteral("storyboard_tokens_in"), known(storyboard.tokens.input));
    o.insert(QStringLiteral("storyboard_tokens_out"), known(storyboard.tokens.output));
    qint64 totalIn = 0, totalOut = 0;
    for (const AttemptRecord &a : all) {
        totalIn += std::max<qint64>(0, a.tokens.input);
        totalOut += std::max<qint64>(0, a.tokens.output);
    }
    o.insert(QStringLiteral("total_tokens_in"), static_cast<double>(totalIn));
    o.insert(QStringLiteral("total_tokens_out"), static_cast<double>(totalOut));
    o.insert(QStringLiteral("captions"), QJsonArray::fromStringList(captionLines));
    o.insert(QStringLiteral("captions_defaulted"), captionsDefaulted);
    o.insert(QStringLiteral("degraded"), degraded);
    o.insert(QStringLiteral("image_path"), imagePath.isEmpty() ? QJsonValue() : QJsonValue(imagePath));
    o.insert(QStringLiteral("image_sha256"), imageSha256.isEmpty() ? QJsonValue() : QJsonValue(imageSha256));
    o.insert(QStringLiteral("from_cache"), fromCache);
    o.insert(QStringLiteral("elapsed_ms"), static_cast<double>(elapsed.count()) / 1000.0);
    return o;
}

std::optional<GenerationResult> GenerationResult::fromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("state")).toString() != u"succeeded")
        return std::nullopt;
    const StoryboardCheck check = StoryboardValidator::validate(json.value(QStringLiteral("storyboard")).toObject());
    if (!check.ok())
        return std::nullopt;
    GenerationResult r;
    r.state = FinalState::Succeeded;
    r.storyboard.state = FinalState::Succeeded;
    r.storyboard.storyboard = check.storyboard;
    r.storyboard.decision = json.value(QStringLiteral("decision")).toString();
    r.storyboard.fallback.applied = json.value(QStringLiteral("provider_fallback_applied")).toBool();
    r.storyboard.fallback.reason = json.value(QStringLiteral("provider_fallback_reason")).toString();
    r.storyboard.fallback.primaryProvider = providerFromId(json.value(QStringLiteral("primary_final_model_provider")).toString()).value_or(Provider::Gemini);
    r.storyboard.fallback.finalProvider = providerFromId(json.value(QStringLiteral("final_model_provider")).toString());
    r.storyboard.fallback.finalModelId = json.value(QStringLiteral("final_model_id")).toString();
    const QJsonArray lines = json.value(QStringLiteral("captions")).toArray();
    for (const QJsonValue &l : lines)
        r.captionLines << l.toString();
    r.imagePath = json.value(QStringLiteral("image_path")).toString();
    r.imageSha256 = json.value(QStringLiteral("image_sha256")).toString();
    return r;
}

} // namespace bullpen
