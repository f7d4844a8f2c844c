// SPDX-License-Identifier: MIT
#include "generationrequestjson.h"

#include "contract/jsontype.h"
#include "providers/jsonread.h"
#include "wire/storyboardpolicyjson.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <optional>

namespace bullpen {

using namespace std::chrono;

namespace {

// The body's own fields, then the storyboard policy's (StoryboardPolicyJson).
QStringList fields()
{
    static const QStringList all = QStringList { QStringLiteral("story"), QStringLiteral("user_id") }
        + StoryboardPolicyJson::requestFields()
        + QStringList { QStringLiteral("fresh"), QStringLiteral("scenario"), QStringLiteral("generation_id") };
    return all;
}

FieldError wrongType(const QString &field, const QString &expected, const QJsonValue &got)
{
    return FieldError { field, QStringLiteral("expected %1, got %2").arg(expected, jsonTypeName(got)) };
}

// A field that must be there and be a string with something in it.
std::optional<FieldError> requiredText(const QJsonObject &o, const QString &field, const QString &whyRequired, QString *out)
{
    const QJsonValue v = o.value(field);
    if (v.isUndefined())
        return FieldError { field, whyRequired };
    if (!v.isString())
        return wrongType(field, QStringLiteral("a string"), v);
    *out = v.toString();
    if (out->trimmed().isEmpty())
        return FieldError { field, QStringLiteral("is empty") };
    return std::nullopt;
}

} // namespace

std::variant<GenerationRequest, FieldError> GenerationRequestJson::parse(const QByteArray &body, const StagePolicy &defaults,
                                                                         const RequestLimits &limits, const ProviderTable &providers)
{
    QString why;
    const std::optional<QJsonObject> parsed = jsonread::object(body, &why);
    if (!parsed)
        return FieldError { QString(), why + QStringLiteral("; send one JSON object") };
    const QJsonObject &o = *parsed;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!fields().contains(it.key()))
            return FieldError { it.key(), QStringLiteral("unknown field; the fields are %1").arg(fields().join(QStringLiteral(", "))) };
    }

    GenerationRequest r;
    if (auto error = requiredText(o, QStringLiteral("story"), QStringLiteral("required"), &r.story))
        return *error;
    if (const qsizetype bytes = r.story.toUtf8().size(); bytes > limits.maxStoryBytes)
        return FieldError { QStringLiteral("story"),
                            QStringLiteral("is %1 bytes; at most %2 are accepted").arg(bytes).arg(limits.maxStoryBytes), true };

    // The user is optional, as in the console and the CLI (an operator's test generation has none); when
    // given it must say something: it is hashed and masked, never stored as sent.
    if (o.contains(QLatin1StringView("user_id"))) {
        if (auto error = requiredText(o, QStringLiteral("user_id"), QString(), &r.userId))
            return *error;
        if (r.userId.size() > limits.maxUserIdChars)
            return FieldError { QStringLiteral("user_id"), QStringLiteral("is longer than %1 characters").arg(limits.maxUserIdChars) };
    }

    StagePolicy p = defaults;
    if (auto error = StoryboardPolicyJson::readRequest(o, limits.maxTimeout, &p, providers))
        return *error;
    const std::optional<StagePolicy> routed = p.routed();
    if (!routed) // cannot happen: the preset was checked above or is the engine's own
        return FieldError { QStringLiteral("policy"), QStringLiteral("unknown") };
    r.storyboardPolicy = *routed;

    if (const QJsonValue v = o.value(QLatin1StringView("fresh")); !v.isUndefined()) {
        if (!v.isBool())
            return wrongType(QStringLiteral("fresh"), QStringLiteral("true or false"), v);
        r.fresh = v.toBool();
    }
    if (const QJsonValue v = o.value(QLatin1StringView("scenario")); !v.isUndefined()) {
        static const QRegularExpression name(QStringLiteral("^[a-z0-9][a-z0-9-]{0,63}$"));
        if (!v.isString())
            return wrongType(QStringLiteral("scenario"), QStringLiteral("a string"), v);
        if (!name.match(v.toString()).hasMatch())
            return FieldError { QStringLiteral("scenario"),
                                QStringLiteral("must be a built-in scenario name (lower-case letters, digits, '-')") };
        r.scenario.name = v.toString();
    }
    if (const QJsonValue v = o.value(QLatin1StringView("generation_id")); !v.isUndefined()) {
        static const QRegularExpression id(QStringLiteral("^gen_[0-9a-f]{32}$"));
        if (!v.isString())
            return wrongType(QStringLiteral("generation_id"), QStringLiteral("a string"), v);
        if (!id.match(v.toString()).hasMatch())
            return FieldError { QStringLiteral("generation_id"),
                                QStringLiteral("must be \"gen_\" and 32 lower-case hex digits, or left out") };
        r.generationId = v.toString();
    }
    return r;
}

QJsonObject GenerationRequestJson::toJson(const GenerationRequest &request)
{
    QJsonObject o { { QStringLiteral("story"), request.story } };
    if (!request.userId.isEmpty())
        o.insert(QStringLiteral("user_id"), request.userId);
    if (request.storyboardPolicy)
        StoryboardPolicyJson::writeRequest(*request.storyboardPolicy, &o);
    if (request.fresh)
        o.insert(QStringLiteral("fresh"), true);
    if (request.scenario.isSet())
        o.insert(QStringLiteral("scenario"), request.scenario.name);
    if (!request.generationId.isEmpty())
        o.insert(QStringLiteral("generation_id"), request.generationId);
    return o;
}

} // namespace bullpen
