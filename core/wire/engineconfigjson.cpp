// SPDX-License-Identifier: MIT
#include "engineconfigjson.h"

#include "contract/jsontype.h"
#include "wire/storyboardpolicyjson.h"

#include <functional>

namespace bullpen {

using ms = EngineConfig::ms;

namespace {

// The answer's field names, spelled here only.
constexpr char kInstance[] = "instance";
constexpr char kVersion[] = "version";
constexpr char kSettings[] = "settings";
constexpr char kStoryboardPolicy[] = "storyboard_policy";
constexpr char kScenario[] = "scenario";
constexpr char kKeys[] = "keys";
constexpr char kKeySource[] = "source";
constexpr char kKeyLast4[] = "last4";
constexpr char kProviders[] = "providers";
constexpr char kBuiltIn[] = "built_in";
constexpr char kWarnings[] = "warnings";
constexpr char kSimulator[] = "simulator";
constexpr char kProbeEveryMs[] = "probe_every_ms";
constexpr char kStore[] = "store";
constexpr char kStoreBackend[] = "backend";
constexpr char kStoreLocation[] = "location";
constexpr char kTls[] = "tls";
constexpr char kTlsSubject[] = "subject";
constexpr char kTlsIssuer[] = "issuer";
constexpr char kTlsExpires[] = "expires";
constexpr char kScenarios[] = "scenarios";
constexpr char kEngineThreads[] = "engine_threads";
constexpr char kDescribe[] = "describe";
constexpr char kLimits[] = "limits";

// The limits as one table: name and member, read and written alike.
struct LimitField
{
    const char *name;
    std::function<double(const EngineConfig::Limits &)> get;
    std::function<void(EngineConfig::Limits &, double)> set;
};

template<typename T> LimitField limit(const char *name, T EngineConfig::Limits::*member)
{
    return { name, [member](const EngineConfig::Limits &l) { return static_cast<double>(l.*member); },
             [member](EngineConfig::Limits &l, double v) {
                 l.*member = static_cast<T>(v);
             } };
}

LimitField limitMs(const char *name, ms EngineConfig::Limits::*member)
{
    return { name, [member](const EngineConfig::Limits &l) { return static_cast<double>((l.*member).count()); },
             [member](EngineConfig::Limits &l, double v) {
                 l.*member = ms(static_cast<qint64>(v));
             } };
}

const QList<LimitField> &limitFields()
{
    using L = EngineConfig::Limits;
    static const QList<LimitField> fields {
        limit("max_body_bytes", &L::maxBodyBytes),         limit("max_story_bytes", &L::maxStoryBytes),
        limit("max_header_bytes", &L::maxHeaderBytes),     limit("max_in_flight", &L::maxInFlight),
        limit("token_rate_per_s", &L::tokenRatePerS),      limit("max_subscribers", &L::maxSubscribers),
        limit("max_connections", &L::maxConnections),      limit("max_connections_per_address", &L::maxConnectionsPerAddress),
        limitMs("request_timeout_ms", &L::requestTimeout), limitMs("idle_timeout_ms", &L::idleTimeout),
    };
    return fields;
}

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

QJsonValue optionalText(const std::optional<QString> &text)
{
    return text ? QJsonValue(*text) : QJsonValue();
}

// Reads fields of one object: one left out keeps its default; the first of the wrong type is kept as
// the refusal, named with its path ("limits.max_in_flight").
class Reader
{
public:
    Reader(const QJsonObject &o, QString prefix, std::optional<FieldError> *error)
        : m_o(o)
        , m_prefix(std::move(prefix))
        , m_error(error)
    {
    }
    QString path(const char *name) const { return m_prefix + key(name); }
    const QJsonObject &whole() const { return m_o; }
    // The value when it is of `type` (or null where `nullable`); nothing when left out or refused.
    std::optional<QJsonValue> take(const char *name, QJsonValue::Type type, const QString &expected, bool nullable = false) const
    {
        const QJsonValue v = m_o.value(key(name));
        if (v.isUndefined() || (nullable && v.isNull()))
            return std::nullopt;
        if (v.type() != type) {
            if (!*m_error)
                *m_error = FieldError { path(name), QStringLiteral("expected %1, got %2").arg(expected, jsonTypeName(v)) };
            return std::nullopt;
        }
        return v;
    }
    void text(const char *name, QString *out, bool nullable = false) const
    {
        if (const auto v = take(name, QJsonValue::String, QStringLiteral("a string"), nullable))
            *out = v->toString();
    }
    void optionalText(const char *name, std::optional<QString> *out) const
    {
        if (const auto v = take(name, QJsonValue::String, QStringLiteral("a string or null"), true))
            *out = v->toString();
    }
    void number(const char *name, const std::function<void(double)> &out, bool nullable = false) const
    {
        if (const auto v = take(name, QJsonValue::Double, QStringLiteral("a number"), nullable))
            out(v->toDouble());
    }
    void strings(const char *name, QStringList *out) const
    {
        if (const auto v = take(name, QJsonValue::Array, QStringLiteral("an array of strings")))
            for (const QJsonValue &s : v->toArray())
                *out << s.toString();
    }
    std::optional<QJsonObject> object(const char *name, bool nullable = false) const
    {
        const auto v = take(name, QJsonValue::Object, QStringLiteral("an object"), nullable);
        return v ? std::optional(v->toObject()) : std::nullopt;
    }

private:
    QJsonObject m_o;
    QString m_prefix;
    std::optional<FieldError> *m_error;
};

QJsonObject keysJson(const QMap<QString, EngineConfig::Key> &keys)
{
    QJsonObject out;
    for (auto it = keys.cbegin(); it != keys.cend(); ++it)
        out.insert(it.key(), QJsonObject { { key(kKeySource), it->source }, { key(kKeyLast4), optionalText(it->last4) } });
    return out;
}

QJsonArray providersJson(const QList<EngineConfig::ProviderEntry> &providers)
{
    QJsonArray out;
    for (const EngineConfig::ProviderEntry &p : providers) {
        QJsonObject o = p.entry;
        o.insert(key(kBuiltIn), p.builtIn);
        out.append(o);
    }
    return out;
}

QJsonObject limitsJson(const EngineConfig::Limits &limits)
{
    QJsonObject out;
    for (const LimitField &f : limitFields())
        out.insert(key(f.name), f.get(limits));
    return out;
}

} // namespace

QJsonObject EngineConfigJson::toJson(const EngineConfig &c)
{
    return QJsonObject {
        { key(kInstance), c.instance },
        { key(kVersion), c.version },
        { key(kSettings), c.settings },
        { key(kStoryboardPolicy), StoryboardPolicyJson::toJson(c.storyboardPolicy) },
        { key(kScenario), c.scenario },
        { key(kKeys), keysJson(c.keys) },
        { key(kProviders), providersJson(c.providers) },
        { key(kWarnings), QJsonArray::fromStringList(c.warnings) },
        { key(kSimulator), c.simulator },
        { key(kProbeEveryMs), c.probeEvery ? QJsonValue(static_cast<double>(c.probeEvery->count())) : QJsonValue() },
        { key(kStore),
          c.store ? QJsonValue(
              QJsonObject { { key(kStoreBackend), c.store->backend }, { key(kStoreLocation), optionalText(c.store->location) } })
                  : QJsonValue() },
        { key(kTls),
          c.tls ? QJsonValue(QJsonObject {
              { key(kTlsSubject), c.tls->subject }, { key(kTlsIssuer), c.tls->issuer }, { key(kTlsExpires), c.tls->expires } })
                : QJsonValue() },
        { key(kScenarios), QJsonArray::fromStringList(c.scenarios) },
        { key(kEngineThreads), c.engineThreads },
        { key(kDescribe), c.describe },
        { key(kLimits), limitsJson(c.limits) },
    };
}

namespace {

void readNested(const Reader &r, EngineConfig *c, std::optional<FieldError> *error)
{
    if (const auto keys = r.object(kKeys)) {
        for (auto it = keys->constBegin(); it != keys->constEnd(); ++it) {
            const Reader k(it->toObject(), r.path(kKeys) + QLatin1Char('.') + it.key() + QLatin1Char('.'), error);
            EngineConfig::Key one;
            k.text(kKeySource, &one.source, true);
            k.optionalText(kKeyLast4, &one.last4);
            c->keys.insert(it.key(), one);
        }
    }
    if (r.take(kProviders, QJsonValue::Array, QStringLiteral("an array")))
        c->providers = EngineConfigJson::providers(r.whole());
    if (const auto store = r.object(kStore, true)) {
        const Reader s(*store, r.path(kStore) + QLatin1Char('.'), error);
        EngineConfig::StoreInfo info;
        s.text(kStoreBackend, &info.backend);
        s.optionalText(kStoreLocation, &info.location);
        c->store = info;
    }
    if (const auto tls = r.object(kTls, true)) {
        const Reader t(*tls, r.path(kTls) + QLatin1Char('.'), error);
        EngineConfig::Tls info;
        t.text(kTlsSubject, &info.subject);
        t.text(kTlsIssuer, &info.issuer);
        t.text(kTlsExpires, &info.expires);
        c->tls = info;
    }
    if (const auto limits = r.object(kLimits)) {
        const Reader l(*limits, r.path(kLimits) + QLatin1Char('.'), error);
        for (const LimitField &f : limitFields())
            l.number(
                f.name, [&](double v) { f.set(c->limits, v); }, true);
    }
}

} // namespace

QList<EngineConfig::ProviderEntry> EngineConfigJson::providers(const QJsonObject &o)
{
    QList<EngineConfig::ProviderEntry> out;
    for (const QJsonValue &v : o.value(key(kProviders)).toArray()) {
        QJsonObject entry = v.toObject();
        const bool builtIn = entry.value(key(kBuiltIn)).toBool(true);
        entry.remove(key(kBuiltIn));
        out << EngineConfig::ProviderEntry { entry, builtIn };
    }
    return out;
}

EngineIdentity EngineConfigJson::identity(const QJsonObject &o)
{
    return { o.value(key(kInstance)).toString(), o.value(key(kVersion)).toString(), o.value(key(kSimulator)).toBool() };
}

std::variant<EngineConfig, FieldError> EngineConfigJson::fromJson(const QJsonObject &o)
{
    std::optional<FieldError> error;
    const Reader r(o, QString(), &error);
    EngineConfig c;
    r.text(kInstance, &c.instance);
    r.text(kVersion, &c.version);
    if (const auto settings = r.object(kSettings))
        c.settings = *settings;
    if (const auto policy = r.object(kStoryboardPolicy)) {
        auto read = StoryboardPolicyJson::fromJson(*policy);
        if (const auto *refused = std::get_if<FieldError>(&read); refused && !error)
            error = FieldError { r.path(kStoryboardPolicy) + QLatin1Char('.') + refused->field, refused->message };
        else if (const auto *policyRead = std::get_if<StagePolicy>(&read))
            c.storyboardPolicy = *policyRead;
    }
    r.text(kScenario, &c.scenario, true);
    r.strings(kWarnings, &c.warnings);
    if (const auto v = r.take(kSimulator, QJsonValue::Bool, QStringLiteral("a boolean")))
        c.simulator = v->toBool();
    r.number(
        kProbeEveryMs, [&](double v) { c.probeEvery = ms(static_cast<qint64>(v)); }, true);
    r.strings(kScenarios, &c.scenarios);
    r.number(
        kEngineThreads, [&](double v) { c.engineThreads = static_cast<int>(v); }, true);
    r.text(kDescribe, &c.describe, true);
    readNested(r, &c, &error);
    if (error)
        return *error;
    return c;
}

} // namespace bullpen
