// SPDX-License-Identifier: MIT
#include "generationresult.h"

#include "contract/jsonfields.h"

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
    // The storyboard stage's JSON carries docs/contract.md §4.5's fallback fields at the top level, as before.
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
    const auto known = [](qint64 n) {
        return n >= 0 ? QJsonValue(static_cast<double>(n)) : QJsonValue();
    };
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
    o.insert(QStringLiteral("elapsed_ms"), toJsonMs(elapsed));
    // What the generation's own fields above overwrote of the storyboard stage's, and which later
    // stages ran (fromJson reads them back).
    o.insert(QStringLiteral("storyboard_state"), toId(storyboard.state));
    o.insert(QStringLiteral("storyboard_elapsed_ms"), toJsonMs(storyboard.elapsed));
    o.insert(QStringLiteral("captions_state"), captions ? QJsonValue(toId(captions->state)) : QJsonValue());
    o.insert(QStringLiteral("image_state"), image ? QJsonValue(toId(image->state)) : QJsonValue());
    if (probe) {
        o.insert(QStringLiteral("synthetic"), true);
        o.insert(QStringLiteral("probe"), probe->toString());
    }
    return o;
}

std::optional<GenerationResult> GenerationResult::fromJson(const QJsonObject &json, QString *error)
{
    // The top level is the storyboard stage's JSON with the generation's own state, failure, elapsed
    // time and every stage's attempts over it; what was overwritten travels under its own name.
    QJsonObject storyboardJson = json;
    // (Results cached by builds before 2026-12 carry no storyboard_state; they were all successes.)
    storyboardJson.insert(
        QStringLiteral("state"),
        json.value(QLatin1StringView(json.contains(QLatin1StringView("storyboard_state")) ? "storyboard_state" : "state")));
    storyboardJson.insert(QStringLiteral("elapsed_ms"), json.value(QLatin1StringView("storyboard_elapsed_ms")));
    storyboardJson.insert(QStringLiteral("tokens_in"), json.value(QLatin1StringView("storyboard_tokens_in")));
    storyboardJson.insert(QStringLiteral("tokens_out"), json.value(QLatin1StringView("storyboard_tokens_out")));
    for (const char *key : { "kind", "public_code", "stage", "detail" })
        storyboardJson.remove(QLatin1StringView(key));
    if (json.value(QLatin1StringView("stage")).toString() == u"storyboard") {
        for (const char *key : { "kind", "stage", "detail" })
            storyboardJson.insert(QLatin1StringView(key), json.value(QLatin1StringView(key)));
    }
    std::optional<StageResult> storyboard = StageResult::fromJson(storyboardJson, error);
    if (!storyboard)
        return std::nullopt;

    JsonFields r(json);
    GenerationResult g;
    g.generationId = r.string("generation_id");
    g.state = r.id<FinalState>("state", finalStateFromId);
    if (const auto kind = r.optEnum<FailureKind>("kind")) {
        g.failure = Failure { *kind, r.optString("detail"), false, std::nullopt };
        g.failedStage = r.optId("stage", stageFromId).value_or(Stage::Storyboard);
    }
    if (const QJsonValue next = json.value(QLatin1StringView("next_step")); next.isObject())
        g.nextStep = NextStep::fromJson(next.toObject());
    // Every stage's attempts are listed together; each goes back to its own stage.
    const QList<AttemptRecord> all = storyboard->attempts;
    storyboard->attempts.clear();
    const auto stageOf = [&](const char *key) -> std::optional<StageResult> {
        const std::optional<FinalState> ended = r.optId(key, finalStateFromId);
        if (!ended)
            return std::nullopt;
        StageResult s;
        s.generationId = g.generationId;
        s.state = *ended;
        s.fallback.primaryProvider = storyboard->fallback.primaryProvider;
        return s;
    };
    g.captions = stageOf("captions_state");
    g.image = stageOf("image_state");
    for (const AttemptRecord &a : all) {
        StageResult *owner = a.stage == Stage::Captions && g.captions ? &*g.captions
            : a.stage == Stage::Image && g.image                      ? &*g.image
                                                                      : &*storyboard;
        owner->attempts << a;
    }
    g.storyboard = std::move(*storyboard);
    const QJsonArray lines = json.value(QLatin1StringView("captions")).toArray();
    for (const QJsonValue &l : lines)
        g.captionLines << l.toString();
    g.captionsDefaulted = r.optBoolean("captions_defaulted");
    g.degraded = r.optBoolean("degraded");
    g.imagePath = r.optString("image_path");
    g.imageSha256 = r.optString("image_sha256");
    g.fromCache = r.optBoolean("from_cache");
    g.elapsed = fromJsonMs(r.optNumber("elapsed_ms").value_or(0));
    if (r.optBoolean("synthetic")) {
        g.probe = ProbeTarget::fromString(r.optString("probe"));
        if (!g.probe)
            r.fail("probe", "provider/role/stage of a synthetic generation");
    }
    if (!r.error().isEmpty()) {
        if (error)
            *error = r.error();
        return std::nullopt;
    }
    return g;
}

} // namespace bullpen
