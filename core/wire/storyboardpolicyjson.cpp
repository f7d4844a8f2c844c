// SPDX-License-Identifier: MIT
#include "storyboardpolicyjson.h"

#include "contract/jsontype.h"
#include "contract/policyfields.h"
#include "contract/providerregistry.h"
#include "contract/providertable.h"

#include <cmath>
#include <limits>

namespace bullpen {

using namespace policyfields;
using ms = StoryboardPolicyJson::ms;

namespace {

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

FieldError wrongType(const QString &field, const QString &expected, const QJsonValue &got)
{
    return FieldError { field, QStringLiteral("expected %1, got %2").arg(expected, jsonTypeName(got)) };
}

double count(ms d)
{
    return static_cast<double>(d.count());
}

// A whole number of milliseconds in [1, max].
std::optional<FieldError> readMs(const QJsonValue &v, const QString &field, ms max, ms *out)
{
    if (!v.isDouble())
        return wrongType(field, QStringLiteral("a whole number of milliseconds"), v);
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < 1 || d > double(max.count()))
        return FieldError { field, QStringLiteral("must be a whole number of milliseconds from 1 to %1").arg(max.count()) };
    *out = ms(static_cast<qint64>(d));
    return std::nullopt;
}

// A provider an engine or a store names: any well-formed id (an engine's may be one this process does not list).
std::optional<FieldError> readProvider(const QJsonValue &v, const QString &field, Provider *out)
{
    if (!v.isString())
        return wrongType(field, QStringLiteral("a string"), v);
    const auto provider = providerFromStored(v.toString());
    if (!provider)
        return FieldError {
            field, QStringLiteral("\"%1\" is not a provider id (1 to 32 lower-case letters, digits and '-')").arg(v.toString().left(64))
        };
    *out = *provider;
    return std::nullopt;
}

// "gemini, qwen, openai, anthropic, local-vllm": the providers that may serve a storyboard here.
QString storyboardChoices(const ProviderTable &providers)
{
    QStringList ids;
    for (const Provider p : providers.serving(Stage::Storyboard))
        ids << toId(p);
    return ids.join(QStringLiteral(", "));
}

// A request's choice: a provider the engine's own table lists for the storyboard stage.
std::optional<FieldError> readChoice(const QJsonValue &v, const QString &field, const ProviderTable &providers, const QString &orElse,
                                     Provider *out)
{
    if (!v.isString())
        return wrongType(field, QStringLiteral("a string") + (orElse.isEmpty() ? QString() : QStringLiteral(" or null")), v);
    const std::optional<Provider> provider = providers.find(v.toString());
    if (provider && !providers.spec(*provider).serves(Stage::Storyboard))
        return FieldError { field,
                            QStringLiteral("%1 does not serve the storyboard stage; choose one of %2%3")
                                .arg(toId(*provider), storyboardChoices(providers), orElse) };
    if (!provider)
        return FieldError { field,
                            QStringLiteral("\"%1\" is not one of %2%3").arg(v.toString().left(64), storyboardChoices(providers), orElse) };
    *out = *provider;
    return std::nullopt;
}

std::optional<FieldError> readPreset(const QJsonValue &v, QString *out)
{
    if (!v.isString())
        return wrongType(key(kPreset), QStringLiteral("a string"), v);
    if (!StagePolicy::presetNames().contains(v.toString()))
        return FieldError {
            key(kPreset),
            QStringLiteral("\"%1\" is not one of %2").arg(v.toString().left(64), StagePolicy::presetNames().join(QStringLiteral(", ")))
        };
    *out = v.toString();
    return std::nullopt;
}

std::optional<FieldError> readFallback(const QJsonValue &v, const ProviderTable &providers, std::optional<Provider> *out)
{
    if (v.isNull() || (v.isString() && v.toString() == QLatin1StringView(kNone))) {
        out->reset();
        return std::nullopt;
    }
    Provider provider = Provider::Gemini;
    if (auto error = readChoice(v, key(kFallback), providers, QStringLiteral(", none"), &provider))
        return error;
    *out = provider;
    return std::nullopt;
}

std::optional<FieldError> readTimeouts(const QJsonValue &v, ms maxTimeout, StagePolicy *p)
{
    if (!v.isObject())
        return wrongType(key(kTimeouts), QStringLiteral("an object"), v);
    const QJsonObject t = v.toObject();
    const QStringList known { key(kPrimaryMs), key(kFallbackMs), key(kBudgetMs) };
    for (auto it = t.begin(); it != t.end(); ++it) {
        const QString field = key(kTimeouts) + QLatin1Char('.') + it.key();
        if (!known.contains(it.key()))
            return FieldError { field, QStringLiteral("unknown field; the fields are %1").arg(known.join(QStringLiteral(", "))) };
        ms d { 0 };
        if (auto error = readMs(it.value(), field, maxTimeout, &d))
            return error;
        if (it.key() == QLatin1StringView(kPrimaryMs))
            p->primaryTimeout = d;
        else if (it.key() == QLatin1StringView(kFallbackMs))
            p->fallbackTimeout = d;
        else
            p->totalBudget = d;
    }
    return std::nullopt;
}

} // namespace

QJsonObject StoryboardPolicyJson::toJson(const StagePolicy &p)
{
    QJsonObject o { { key(kPreset), p.preset },
                    { key(kPrimary), toId(p.primary) },
                    { key(kFallback), p.fallback ? QJsonValue(toId(*p.fallback)) : QJsonValue() },
                    { key(kPrimaryMs), count(p.primaryTimeout) },
                    { key(kFallbackMs), count(p.fallbackTimeout) } };
    if (p.totalBudget)
        o.insert(key(kBudgetMs), count(*p.totalBudget));
    return o;
}

std::variant<StagePolicy, FieldError> StoryboardPolicyJson::fromJson(const QJsonObject &o)
{
    StagePolicy p;
    // An engine's answer: its providers may be ones this process does not list (added by its settings).
    if (auto error = readPreset(o.value(QLatin1StringView(kPreset)), &p.preset))
        return *error;
    if (auto error = readProvider(o.value(QLatin1StringView(kPrimary)), key(kPrimary), &p.primary))
        return *error;
    if (const QJsonValue f = o.value(QLatin1StringView(kFallback)); !f.isNull()) {
        Provider fallback = p.primary;
        if (auto error = readProvider(f, key(kFallback), &fallback))
            return *error;
        p.fallback = fallback;
    }
    constexpr ms kAny { std::numeric_limits<qint64>::max() / 2 };
    if (auto error = readMs(o.value(QLatin1StringView(kPrimaryMs)), key(kPrimaryMs), kAny, &p.primaryTimeout))
        return *error;
    if (auto error = readMs(o.value(QLatin1StringView(kFallbackMs)), key(kFallbackMs), kAny, &p.fallbackTimeout))
        return *error;
    if (const QJsonValue b = o.value(QLatin1StringView(kBudgetMs)); !b.isUndefined() && !b.isNull()) {
        ms budget { 0 };
        if (auto error = readMs(b, key(kBudgetMs), kAny, &budget))
            return *error;
        p.totalBudget = budget;
    }
    const std::optional<StagePolicy> routed = p.routed();
    return routed ? std::variant<StagePolicy, FieldError>(*routed) : FieldError { key(kPreset), QStringLiteral("unknown") };
}

void StoryboardPolicyJson::writeRequest(const StagePolicy &p, QJsonObject *body)
{
    body->insert(key(kPreset), p.preset);
    body->insert(key(kPrimary), toId(p.primary));
    body->insert(key(kFallback), p.fallback ? toId(*p.fallback) : key(kNone));
    body->insert(key(kTimeouts), timeouts(p.primaryTimeout, p.fallbackTimeout, p.totalBudget));
}

std::optional<FieldError> StoryboardPolicyJson::readRequest(const QJsonObject &o, ms maxTimeout, StagePolicy *p,
                                                            const ProviderTable &providers)
{
    if (const QJsonValue v = o.value(QLatin1StringView(kPreset)); !v.isUndefined())
        if (auto error = readPreset(v, &p->preset))
            return error;
    if (const QJsonValue v = o.value(QLatin1StringView(kPrimary)); !v.isUndefined())
        if (auto error = readChoice(v, key(kPrimary), providers, QString(), &p->primary))
            return error;
    if (const QJsonValue v = o.value(QLatin1StringView(kFallback)); !v.isUndefined())
        if (auto error = readFallback(v, providers, &p->fallback))
            return error;
    if (p->fallback && *p->fallback == p->primary)
        return FieldError { key(kFallback),
                            QStringLiteral("is the primary (%1); a fallback provider must be another one, or none").arg(toId(p->primary)) };
    if (const QJsonValue v = o.value(QLatin1StringView(kTimeouts)); !v.isUndefined())
        if (auto error = readTimeouts(v, maxTimeout, p))
            return error;
    return std::nullopt;
}

QStringList StoryboardPolicyJson::requestFields()
{
    // In RequestField's order.
    return { key(kPreset), key(kPrimary), key(kFallback), key(kTimeouts) };
}

QJsonObject StoryboardPolicyJson::timeouts(std::optional<ms> primary, std::optional<ms> fallback, std::optional<ms> budget)
{
    QJsonObject t;
    if (primary)
        t.insert(key(kPrimaryMs), count(*primary));
    if (fallback)
        t.insert(key(kFallbackMs), count(*fallback));
    if (budget)
        t.insert(key(kBudgetMs), count(*budget));
    return t;
}

QString StoryboardPolicyJson::requestField(RequestField field)
{
    return requestFields().value(static_cast<qsizetype>(field));
}

QJsonObject StoryboardPolicyJson::toSettingsJson(const SettingsSection &s)
{
    const auto duration = [](ms d) {
        return QStringLiteral("%1ms").arg(d.count());
    };
    QJsonObject sb { { key(kPreset), s.preset },
                     { key(kSettingsPrimary), toId(s.primary) },
                     { key(kSettingsFallback), s.fallback ? toId(*s.fallback) : key(kNone) } };
    if (s.primaryTimeout)
        sb.insert(key(kSettingsPrimaryTimeout), duration(*s.primaryTimeout));
    if (s.fallbackTimeout)
        sb.insert(key(kSettingsFallbackTimeout), duration(*s.fallbackTimeout));
    if (s.budget)
        sb.insert(key(kSettingsBudget), duration(*s.budget));
    return QJsonObject { { key(kSettingsSection), sb } };
}

} // namespace bullpen
