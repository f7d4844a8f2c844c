// SPDX-License-Identifier: MIT
#include "generationrowjson.h"

#include <QFileInfo>
#include <QJsonValue>

namespace bullpen {

namespace {

// The row's text fields, in the order they are written. `always`: written as "" rather than null when
// empty. `before`: the name older engines wrote, still read.
struct TextField
{
    const char *name;
    QString GenerationRow::*member;
    bool always = false;
    const char *before = nullptr;
};

const TextField kTextFields[] = {
    { "user", &GenerationRow::userMask },
    { "user_key", &GenerationRow::userKey },
    { "policy", &GenerationRow::policy, true },
    { "state", &GenerationRow::state, true },
    { "public_code", &GenerationRow::publicCode },
    { "kind", &GenerationRow::kind },
    { "stage", &GenerationRow::stage },
    { "detail", &GenerationRow::detail },
    { "decision", &GenerationRow::decision },
    { "provider_fallback_reason", &GenerationRow::fallbackReason },
    { "primary_final_model_provider", &GenerationRow::primaryProvider, true, "primary_provider" },
    { "final_model_provider", &GenerationRow::finalProvider, false, "final_provider" },
    { "final_model_id", &GenerationRow::finalModel, false, "final_model" },
    { "fallback_provider", &GenerationRow::fallbackProvider },
    { "next_step", &GenerationRow::nextStep },
    { "instance", &GenerationRow::instance },
    { "probe", &GenerationRow::probe },
    { "replay_of", &GenerationRow::replayOf },
};

QJsonValue count(qint64 n)
{
    return n >= 0 ? QJsonValue(static_cast<double>(n)) : QJsonValue();
}

} // namespace

QJsonObject GenerationRowJson::toJson(const GenerationRow &r)
{
    QJsonObject o {
        { QStringLiteral("generation_id"), r.id },
        { QStringLiteral("created_at_ms"), static_cast<double>(r.createdAtMs) },
        { QStringLiteral("finished_at_ms"), r.finishedAtMs ? QJsonValue(static_cast<double>(*r.finishedAtMs)) : QJsonValue() },
        { QStringLiteral("provider_fallback_applied"), r.fallbackApplied },
        { QStringLiteral("tokens_in"), count(r.tokensIn) },
        { QStringLiteral("tokens_out"), count(r.tokensOut) },
        { QStringLiteral("elapsed_ms"), r.elapsedMs },
        { QStringLiteral("synthetic"), r.synthetic() },
    };
    for (const TextField &f : kTextFields) {
        const QString &value = r.*f.member;
        o.insert(QLatin1StringView(f.name), value.isEmpty() && !f.always ? QJsonValue() : QJsonValue(value));
    }
    // The comic is named by its digest everywhere (a remote engine serves it at /v1/images/{sha256});
    // a row of a store older than the digest column is named by its file's name, which is the digest.
    const QString sha = !r.imageSha256.isEmpty() ? r.imageSha256
        : r.imagePath.isEmpty()                  ? QString()
                                                 : QFileInfo(r.imagePath).completeBaseName();
    o.insert(QStringLiteral("image_sha256"), sha.isEmpty() ? QJsonValue() : QJsonValue(sha));
    return o;
}

std::optional<GenerationRow> GenerationRowJson::fromJson(const QJsonObject &o)
{
    const QString id = o.value(QLatin1StringView("generation_id")).toString();
    if (id.isEmpty() || !o.value(QLatin1StringView("created_at_ms")).isDouble())
        return std::nullopt;
    GenerationRow r;
    r.id = id;
    r.createdAtMs = o.value(QLatin1StringView("created_at_ms")).toInteger();
    if (const QJsonValue f = o.value(QLatin1StringView("finished_at_ms")); f.isDouble())
        r.finishedAtMs = f.toInteger();
    r.fallbackApplied = o.value(QLatin1StringView("provider_fallback_applied")).toBool();
    r.tokensIn = o.value(QLatin1StringView("tokens_in")).toInteger(-1);
    r.tokensOut = o.value(QLatin1StringView("tokens_out")).toInteger(-1);
    r.elapsedMs = o.value(QLatin1StringView("elapsed_ms")).toDouble();
    for (const TextField &f : kTextFields) {
        QJsonValue v = o.value(QLatin1StringView(f.name));
        if (v.isUndefined() && f.before)
            v = o.value(QLatin1StringView(f.before));
        r.*f.member = v.toString();
    }
    r.imageSha256 = o.value(QLatin1StringView("image_sha256")).toString();
    return r;
}

} // namespace bullpen
