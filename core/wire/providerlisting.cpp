// SPDX-License-Identifier: MIT
#include "providerlisting.h"

#include "config/providerentries.h"
#include "config/settings.h"
#include "contract/jsontype.h"
#include "wire/breakerrowjson.h"
#include "wire/drainrowjson.h"
#include "wire/engineconfigjson.h"
#include "wire/providersjson.h"
#include "wire/statsjson.h"

#include <QJsonArray>

namespace bullpen {

namespace {

// The listing's own fields, spelled here only; the rest are the parts' codecs'.
constexpr char kProviders[] = "providers";
constexpr char kBuiltIn[] = "built_in";
constexpr char kRoles[] = "roles";
constexpr char kDrained[] = "drained";
constexpr char kBreakers[] = "breakers";
constexpr char kDrains[] = "drains";
constexpr char kLast5m[] = "last_5m";
constexpr char kLast15m[] = "last_15m";
constexpr const char *kOwnFields[] { kBuiltIn, kRoles, kDrained, kBreakers, kDrains, kLast5m, kLast15m };

QLatin1StringView key(const char *name)
{
    return QLatin1StringView(name);
}

// One entry as the settings file spells it: a built-in's row keeps its registry identity (dialect, key
// variable, headers) and takes the engine's endpoint, model, streaming and price.
std::variant<ProviderSpec, FieldError> specOf(const QJsonObject &entry, bool builtIn, const QString &where)
{
    QList<ConfigError> errors;
    std::optional<ProviderSpec> read = ProviderEntries::readWhole(entry, where, &errors);
    if (!read) {
        if (errors.isEmpty())
            return FieldError { where, QStringLiteral("cannot be read") };
        QString field = errors.constFirst().setting; // "<where>.base_url"
        if (field.startsWith(QLatin1Char('.')))
            field.remove(0, 1);
        return FieldError { field, errors.constFirst().message };
    }
    if (!builtIn)
        return *read;
    const std::optional<Provider> known = ProviderRegistry::find(read->id);
    if (!known || !ProviderRegistry::spec(*known).builtIn)
        return FieldError { where, QStringLiteral("\"%1\" is not a built-in provider here; update bullpen-cli").arg(read->id.left(64)) };
    ProviderSpec spec = ProviderRegistry::spec(*known);
    spec.baseUrl = read->baseUrl;
    spec.model = read->model;
    spec.stream = read->stream;
    Price listed = spec.price; // the wire carries no list date: the list's price keeps its own
    listed.asOf.clear();
    if (read->price != listed)
        spec.price = read->price;
    return spec;
}

// "role/stage": where the storyboard policy names the provider ("primary/storyboard"), then where the
// engine's breakers saw it serve (the captions follow whichever provider wrote the storyboard, the
// image stage has its own), each once.
QStringList rolesOf(const QString &id, const StagePolicy &storyboard, const QList<BreakerView> &breakers)
{
    const auto roleStage = [](Role role, Stage stage) {
        return QStringLiteral("%1/%2").arg(toId(role), toId(stage));
    };
    QStringList roles;
    if (toId(storyboard.primary) == id)
        roles << roleStage(Role::Primary, Stage::Storyboard);
    if (storyboard.fallback && toId(*storyboard.fallback) == id)
        roles << roleStage(Role::Fallback, Stage::Storyboard);
    for (const BreakerView &b : breakers)
        if (const QString r = roleStage(b.key.role, b.key.stage); !roles.contains(r))
            roles << r;
    return roles;
}

std::optional<ProviderWindow> windowOf(const QString &id, const QList<ProviderWindow> &window)
{
    for (const ProviderWindow &w : window)
        if (w.provider == id)
            return w;
    return std::nullopt;
}

// The rows under `name` that `read` reads, refused by name ("breakers[2].state").
template<typename T, typename Read> std::variant<QList<T>, FieldError> rowsOf(const QJsonObject &o, const char *name, Read read)
{
    const QJsonValue v = o.value(key(name));
    if (!v.isArray())
        return FieldError { QString::fromLatin1(name), QStringLiteral("an array expected, got %1").arg(jsonTypeName(v)) };
    QList<T> out;
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        std::variant<T, FieldError> row = read(a.at(i).toObject());
        if (FieldError *e = std::get_if<FieldError>(&row))
            return FieldError { QStringLiteral("%1[%2].%3").arg(QLatin1StringView(name)).arg(i).arg(e->field), e->message };
        out << std::get<T>(std::move(row));
    }
    return out;
}

std::variant<ProviderListing, FieldError> listingOf(const QJsonObject &o)
{
    const QJsonValue builtIn = o.value(key(kBuiltIn));
    if (!builtIn.isBool())
        return FieldError { QString::fromLatin1(kBuiltIn), QStringLiteral("true or false expected, got %1").arg(jsonTypeName(builtIn)) };
    QJsonObject entry = o; // the row as the settings file spells it: the rest are this listing's own
    for (const char *own : kOwnFields)
        entry.remove(key(own));
    std::variant<ProviderSpec, FieldError> spec = specOf(entry, builtIn.toBool(), QString());
    if (FieldError *e = std::get_if<FieldError>(&spec))
        return *e;
    ProviderListing l;
    l.spec = std::get<ProviderSpec>(std::move(spec));
    providerFromStored(l.spec.id); // known here, so that its breakers and drains read (specs() says why)
    const QJsonValue roles = o.value(key(kRoles));
    if (!roles.isArray())
        return FieldError { QString::fromLatin1(kRoles), QStringLiteral("an array expected, got %1").arg(jsonTypeName(roles)) };
    for (const QJsonValue &r : roles.toArray())
        l.roles << r.toString();
    auto breakers = rowsOf<BreakerView>(o, kBreakers, &BreakerRowJson::fromJson);
    if (FieldError *e = std::get_if<FieldError>(&breakers))
        return *e;
    l.breakers = std::get<QList<BreakerView>>(std::move(breakers));
    auto drains = rowsOf<Drain>(o, kDrains, &DrainRowJson::fromJson);
    if (FieldError *e = std::get_if<FieldError>(&drains))
        return *e;
    l.drains = std::get<QList<Drain>>(std::move(drains));
    for (const auto &[name, window] : { std::pair { kLast5m, &l.last5m }, std::pair { kLast15m, &l.last15m } }) {
        const QJsonValue v = o.value(key(name));
        if (v.isNull() || v.isUndefined())
            continue;
        std::variant<ProviderWindow, FieldError> w = StatsJson::providerWindowRowFromJson(l.spec.id, v, QString::fromLatin1(name));
        if (FieldError *e = std::get_if<FieldError>(&w))
            return *e;
        *window = std::get<ProviderWindow>(std::move(w));
    }
    return l;
}

} // namespace

std::variant<QList<ProviderSpec>, FieldError> ProviderListingJson::specs(const QJsonObject &configAnswer)
{
    QList<ProviderSpec> out;
    const QList<EngineConfig::ProviderEntry> entries = EngineConfigJson::providers(configAnswer);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        std::variant<ProviderSpec, FieldError> spec =
            specOf(entries.at(i).entry, entries.at(i).builtIn, QStringLiteral("providers[%1]").arg(i));
        if (FieldError *e = std::get_if<FieldError>(&spec))
            return *e;
        // An id the engine names is a known provider here (interned, not listed: this process's pickers
        // do not change), so that the breakers, drains and policy that name it read.
        providerFromStored(std::get<ProviderSpec>(spec).id);
        out << std::get<ProviderSpec>(std::move(spec));
    }
    return out;
}

QList<ProviderListing> ProviderListingJson::assemble(const QList<ProviderSpec> &specs, const StagePolicy &storyboard,
                                                     const QJsonObject &providersAnswer, const std::optional<ProviderWindows> &windows)
{
    const QList<BreakerView> breakers = ProvidersJson::breakers(providersAnswer);
    const QList<Drain> drains = ProvidersJson::drains(providersAnswer);
    QList<ProviderListing> out;
    for (const ProviderSpec &spec : specs) {
        ProviderListing l;
        l.spec = spec;
        for (const BreakerView &b : breakers)
            if (toId(b.key.provider) == spec.id)
                l.breakers << b;
        l.roles = rolesOf(spec.id, storyboard, l.breakers);
        for (const Drain &d : drains)
            if (toId(d.provider) == spec.id)
                l.drains << d;
        if (windows) {
            l.last5m = windowOf(spec.id, windows->last5m);
            l.last15m = windowOf(spec.id, windows->last15m);
        }
        out << l;
    }
    return out;
}

QList<ProviderListing> ProviderListingJson::fromSettings(const Settings &settings)
{
    return assemble(ProviderEntries::inUse(settings), settings.storyboard, {}, std::nullopt);
}

QJsonObject ProviderListingJson::toJson(const QList<ProviderListing> &listing)
{
    QJsonArray list;
    for (const ProviderListing &l : listing) {
        QJsonObject o = ProviderEntries::toJson(l.spec);
        o.insert(key(kBuiltIn), l.spec.builtIn);
        o.insert(key(kRoles), QJsonArray::fromStringList(l.roles));
        o.insert(key(kDrained), l.drained());
        QJsonArray breakers, drains;
        for (const BreakerView &b : l.breakers)
            breakers.append(BreakerRowJson::toJson(b));
        for (const Drain &d : l.drains)
            drains.append(DrainRowJson::toJson(d));
        o.insert(key(kBreakers), breakers);
        o.insert(key(kDrains), drains);
        o.insert(key(kLast5m), l.last5m ? QJsonValue(StatsJson::providerWindowRow(*l.last5m)) : QJsonValue());
        o.insert(key(kLast15m), l.last15m ? QJsonValue(StatsJson::providerWindowRow(*l.last15m)) : QJsonValue());
        list.append(o);
    }
    return QJsonObject { { key(kProviders), list } };
}

std::variant<QList<ProviderListing>, FieldError> ProviderListingJson::fromJson(const QJsonObject &o)
{
    const QJsonValue v = o.value(key(kProviders));
    if (!v.isArray())
        return FieldError { QString::fromLatin1(kProviders), QStringLiteral("an array expected, got %1").arg(jsonTypeName(v)) };
    QList<ProviderListing> out;
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        std::variant<ProviderListing, FieldError> l = listingOf(a.at(i).toObject());
        if (FieldError *e = std::get_if<FieldError>(&l)) {
            const QString where = QStringLiteral("%1[%2]").arg(QLatin1StringView(kProviders)).arg(i);
            return FieldError { e->field.isEmpty() ? where : where + QLatin1Char('.') + e->field, e->message };
        }
        out << std::get<ProviderListing>(std::move(l));
    }
    return out;
}

} // namespace bullpen
