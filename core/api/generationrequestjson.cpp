// SPDX-License-Identifier: MIT
#include "generationrequestjson.h"

#include "contract/jsontype.h"
#include "contract/providerregistry.h"
#include "providers/jsonread.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace bullpen {

using namespace std::chrono;

namespace {

const QStringList kFields { QStringLiteral("story"),   QStringLiteral("user_id"),  QStringLiteral("policy"),
                            QStringLiteral("primary"), QStringLiteral("fallback"), QStringLiteral("timeouts"),
                            QStringLiteral("fresh"),   QStringLiteral("scenario"), QStringLiteral("generation_id") };
const QStringList kTimeoutFields { QStringLiteral("primary_ms"), QStringLiteral("fallback_ms"), QStringLiteral("budget_ms") };

FieldError wrongType(const QString &field, const QString &expected, const QJsonValue &got)
{
    return FieldError { field, QStringLiteral("expected %1, got %2").arg(expected, jsonTypeName(got)) };
}

QString providerList()
{
    return ProviderRegistry::idList();
}

// A whole number of milliseconds in [1, max].
std::optional<FieldError> readMs(const QJsonValue &v, const QString &field, milliseconds max, milliseconds *out)
{
    if (!v.isDouble())
        return wrongType(field, QStringLiteral("a whole number of milliseconds"), v);
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < 1 || d > double(max.count()))
        return FieldError { field, QStringLiteral("must be a whole number of milliseconds from 1 to %1").arg(max.count()) };
    *out = milliseconds(static_cast<qint64>(d));
    return std::nullopt;
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
                                                                         const RequestLimits &limits)
{
    QString why;
    const std::optional<QJsonObject> parsed = jsonread::object(body, &why);
    if (!parsed)
        return FieldError { QString(), why + QStringLiteral("; send one JSON object") };
    const QJsonObject &o = *parsed;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!kFields.contains(it.key()))
            return FieldError { it.key(), QStringLiteral("unknown field; the fields are %1").arg(kFields.join(QStringLiteral(", "))) };
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
    if (const QJsonValue v = o.value(QLatin1StringView("policy")); !v.isUndefined()) {
        if (!v.isString())
            return wrongType(QStringLiteral("policy"), QStringLiteral("a string"), v);
        if (!StagePolicy::presetNames().contains(v.toString()))
            return FieldError {
                QStringLiteral("policy"),
                QStringLiteral("\"%1\" is not one of %2").arg(v.toString().left(64), StagePolicy::presetNames().join(QStringLiteral(", ")))
            };
        p.preset = v.toString();
    }
    if (const QJsonValue v = o.value(QLatin1StringView("primary")); !v.isUndefined()) {
        if (!v.isString())
            return wrongType(QStringLiteral("primary"), QStringLiteral("a string"), v);
        const auto provider = providerFromId(v.toString());
        if (!provider)
            return FieldError { QStringLiteral("primary"),
                                QStringLiteral("\"%1\" is not one of %2").arg(v.toString().left(64), providerList()) };
        p.primary = *provider;
    }
    if (const QJsonValue v = o.value(QLatin1StringView("fallback")); !v.isUndefined()) {
        if (v.isNull() || (v.isString() && v.toString() == u"none")) {
            p.fallback.reset();
        } else if (!v.isString()) {
            return wrongType(QStringLiteral("fallback"), QStringLiteral("a string or null"), v);
        } else if (const auto provider = providerFromId(v.toString())) {
            p.fallback = *provider;
        } else {
            return FieldError { QStringLiteral("fallback"),
                                QStringLiteral("\"%1\" is not one of %2, none").arg(v.toString().left(64), providerList()) };
        }
    }
    if (p.fallback && *p.fallback == p.primary)
        return FieldError { QStringLiteral("fallback"),
                            QStringLiteral("is the primary (%1); a fallback provider must be another one, or none").arg(toId(p.primary)) };
    if (const QJsonValue v = o.value(QLatin1StringView("timeouts")); !v.isUndefined()) {
        if (!v.isObject())
            return wrongType(QStringLiteral("timeouts"), QStringLiteral("an object"), v);
        const QJsonObject t = v.toObject();
        for (auto it = t.begin(); it != t.end(); ++it) {
            const QString field = QStringLiteral("timeouts.") + it.key();
            if (!kTimeoutFields.contains(it.key()))
                return FieldError { field,
                                    QStringLiteral("unknown field; the fields are %1").arg(kTimeoutFields.join(QStringLiteral(", "))) };
            milliseconds ms { 0 };
            if (auto error = readMs(it.value(), field, limits.maxTimeout, &ms))
                return *error;
            if (it.key() == u"primary_ms")
                p.primaryTimeout = ms;
            else if (it.key() == u"fallback_ms")
                p.fallbackTimeout = ms;
            else
                p.totalBudget = ms;
        }
    }
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
    if (const std::optional<StagePolicy> &p = request.storyboardPolicy) {
        o.insert(QStringLiteral("policy"), p->preset);
        o.insert(QStringLiteral("primary"), toId(p->primary));
        o.insert(QStringLiteral("fallback"), p->fallback ? toId(*p->fallback) : QStringLiteral("none"));
        QJsonObject t { { QStringLiteral("primary_ms"), static_cast<double>(p->primaryTimeout.count()) },
                        { QStringLiteral("fallback_ms"), static_cast<double>(p->fallbackTimeout.count()) } };
        if (p->totalBudget)
            t.insert(QStringLiteral("budget_ms"), static_cast<double>(p->totalBudget->count()));
        o.insert(QStringLiteral("timeouts"), t);
    }
    if (request.fresh)
        o.insert(QStringLiteral("fresh"), true);
    if (request.scenario.isSet())
        o.insert(QStringLiteral("scenario"), request.scenario.name);
    if (!request.generationId.isEmpty())
        o.insert(QStringLiteral("generation_id"), request.generationId);
    return o;
}

} // namespace bullpen
