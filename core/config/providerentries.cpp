// SPDX-License-Identifier: MIT
#include "providerentries.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace bullpen {

namespace {

const QStringList kAddedFields { QStringLiteral("id"),          QStringLiteral("name"),        QStringLiteral("format"),
                                 QStringLiteral("base_url"),    QStringLiteral("model"),       QStringLiteral("key_variable"),
                                 QStringLiteral("auth_header"), QStringLiteral("auth_scheme"), QStringLiteral("query"),
                                 QStringLiteral("stream"),      QStringLiteral("stages"),      QStringLiteral("price") };
const QStringList kBuiltInFields { QStringLiteral("id"),    QStringLiteral("format"), QStringLiteral("base_url"),
                                   QStringLiteral("model"), QStringLiteral("stream"), QStringLiteral("price") };

// The fields of an entry's "price" (docs/configuration.md, "Prices"): one row each.
struct PriceField
{
    const char *key;
    std::optional<double> Price::*member;
};
constexpr PriceField kPriceFields[] { { "input_per_1m", &Price::inputPerMillion },
                                      { "output_per_1m", &Price::outputPerMillion },
                                      { "per_image", &Price::perImage } };
const QStringList kFormats { QStringLiteral("openai"), QStringLiteral("gemini"), QStringLiteral("anthropic") };

// One entry being read: where it is, for every refusal, and the refusals so far.
struct EntryReader
{
    const QJsonObject &o;
    QString where; // "bullpen.json: providers[2] (local-vllm)"
    QList<ConfigError> *errors;
    bool ok = true;

    void refuse(const QString &field, const QString &why)
    {
        *errors << ConfigError { field.isEmpty() ? where : where + QLatin1Char('.') + field, why };
        ok = false;
    }
    std::optional<QString> text(const QString &field, bool required)
    {
        const QJsonValue v = o.value(field);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                refuse(field, QStringLiteral("is required"));
            return std::nullopt;
        }
        if (!v.isString()) {
            refuse(field, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        return v.toString().trimmed();
    }
    std::optional<QUrl> url(bool required)
    {
        const std::optional<QString> t = text(QStringLiteral("base_url"), required);
        if (!t)
            return std::nullopt;
        const QUrl u(*t);
        if (!u.isValid() || u.host().isEmpty() || (u.scheme() != u"http" && u.scheme() != u"https")) {
            refuse(QStringLiteral("base_url"),
                   QStringLiteral("\"%1\" is not an http(s) URL with a host, e.g. http://10.0.0.5:8000/v1").arg(*t));
            return std::nullopt;
        }
        return u;
    }
    std::optional<bool> flag(const QString &field)
    {
        const QJsonValue v = o.value(field);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isBool()) {
            refuse(field, QStringLiteral("must be true or false"));
            return std::nullopt;
        }
        return v.toBool();
    }
    void onlyFields(const QStringList &known, const QString &what)
    {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == u"api_key")
                refuse(it.key(),
                       QStringLiteral("API keys do not belong in the settings file; put the key in the environment or the 0600 "
                                      "key file and name its variable in key_variable"));
            else if (!known.contains(it.key()))
                refuse(it.key(), QStringLiteral("is not a field of %1; use %2").arg(what, known.join(QStringLiteral(", "))));
        }
    }
};

QStringList priceKeys()
{
    QStringList keys;
    for (const PriceField &f : kPriceFields)
        keys << QLatin1StringView(f.key);
    return keys << QStringLiteral("currency");
}

// "price": {"input_per_1m": 0.30, "output_per_1m": 2.50, "per_image": 0.039, "currency": "USD"}; a
// field left out keeps `base`'s value, null makes it unknown.
std::optional<Price> readPrice(EntryReader &r, Price base)
{
    const QJsonValue v = r.o.value(QLatin1StringView("price"));
    if (v.isUndefined())
        return std::nullopt;
    const QString example = QStringLiteral("e.g. {\"input_per_1m\": 0.30, \"output_per_1m\": 2.50, \"currency\": \"USD\"}");
    if (!v.isObject()) {
        r.refuse(QStringLiteral("price"), QStringLiteral("must be an object of prices, %1").arg(example));
        return std::nullopt;
    }
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!priceKeys().contains(it.key()))
            r.refuse(QStringLiteral("price.") + it.key(),
                     QStringLiteral("is not a price; use %1").arg(priceKeys().join(QStringLiteral(", "))));
    }
    for (const PriceField &f : kPriceFields) {
        const QJsonValue p = o.value(QLatin1StringView(f.key));
        if (p.isUndefined())
            continue;
        if (p.isNull())
            base.*f.member = std::nullopt;
        else if (!p.isDouble() || p.toDouble() < 0 || p.toDouble() > 1e6)
            r.refuse(QStringLiteral("price.") + QLatin1StringView(f.key),
                     QStringLiteral("must be a price in the currency's units from 0 to 1000000 (or null: unknown), %1").arg(example));
        else
            base.*f.member = p.toDouble();
    }
    if (const QJsonValue c = o.value(QLatin1StringView("currency")); !c.isUndefined()) {
        static const QRegularExpression code(QStringLiteral("^[A-Z]{3}$"));
        if (!c.isString() || !code.match(c.toString()).hasMatch())
            r.refuse(QStringLiteral("price.currency"), QStringLiteral("must be an ISO 4217 code such as USD, EUR or CNY"));
        else
            base.currency = c.toString();
    }
    base.asOf.clear(); // the operator's price, not a list's
    return base;
}

QJsonObject priceJson(const Price &price)
{
    QJsonObject o;
    for (const PriceField &f : kPriceFields)
        o.insert(QLatin1StringView(f.key), (price.*f.member) ? QJsonValue(*(price.*f.member)) : QJsonValue());
    o.insert(QStringLiteral("currency"), price.currency);
    return o;
}

void readStages(EntryReader &r, ProviderSpec &spec)
{
    const QJsonValue v = r.o.value(QLatin1StringView("stages"));
    if (v.isUndefined())
        return;
    if (!v.isArray() || v.toArray().isEmpty()) {
        r.refuse(QStringLiteral("stages"), QStringLiteral("must be a list of stages: storyboard, captions, image"));
        return;
    }
    spec.stages.clear();
    for (const QJsonValue &s : v.toArray()) {
        const std::optional<Stage> stage = stageFromId(s.toString());
        if (!stage) {
            r.refuse(QStringLiteral("stages"),
                     QStringLiteral("\"%1\" is not a stage; use storyboard, captions or image").arg(s.toString()));
            return;
        }
        if (*stage == Stage::Image && spec.dialect != WireDialect::Gemini) {
            r.refuse(QStringLiteral("stages"), QStringLiteral("image needs the gemini format (the image stage speaks Gemini's API)"));
            return;
        }
        if (!spec.stages.contains(*stage))
            spec.stages << *stage;
    }
}

void readAuth(EntryReader &r, ProviderSpec &spec)
{
    static const QRegularExpression variable(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,127}$"));
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$"));
    if (const std::optional<QString> v = r.text(QStringLiteral("key_variable"), false); v && !v->isEmpty()) {
        if (!variable.match(*v).hasMatch())
            r.refuse(QStringLiteral("key_variable"),
                     QStringLiteral("\"%1\" is not an environment variable name, e.g. AZURE_OPENAI_API_KEY").arg(*v));
        else
            spec.keyVariable = *v;
    }
    const std::optional<QString> header = r.text(QStringLiteral("auth_header"), false);
    const std::optional<QString> scheme = r.text(QStringLiteral("auth_scheme"), false);
    if ((header || scheme) && spec.keyVariable.isEmpty()) {
        r.refuse(header ? QStringLiteral("auth_header") : QStringLiteral("auth_scheme"),
                 QStringLiteral("says how to send a key, but the entry names no key_variable"));
        return;
    }
    if (spec.keyVariable.isEmpty())
        return; // a provider that takes no key (a local server) gets no auth header
    spec.authHeader = header ? header->toLatin1() : spec.dialect.defaultAuthHeader();
    if (!token.match(QString::fromLatin1(spec.authHeader)).hasMatch())
        r.refuse(QStringLiteral("auth_header"), QStringLiteral("\"%1\" is not a header name").arg(*header));
    spec.authScheme = scheme                                                 ? scheme->toLatin1()
        : spec.authHeader.compare("Authorization", Qt::CaseInsensitive) == 0 ? QByteArray("Bearer")
                                                                             : QByteArray();
    if (!spec.authScheme.isEmpty() && !token.match(QString::fromLatin1(spec.authScheme)).hasMatch())
        r.refuse(QStringLiteral("auth_scheme"), QStringLiteral("\"%1\" is not a scheme word such as Bearer").arg(*scheme));
}

void readQuery(EntryReader &r, ProviderSpec &spec)
{
    const QJsonValue v = r.o.value(QLatin1StringView("query"));
    if (v.isUndefined())
        return;
    if (!v.isObject()) {
        r.refuse(QStringLiteral("query"),
                 QStringLiteral("must be an object of names and string values, e.g. {\"api-version\": \"2024-10-21\"}"));
        return;
    }
    const QJsonObject q = v.toObject();
    for (auto it = q.begin(); it != q.end(); ++it) {
        if (!it.value().isString() || it.key().isEmpty()) {
            r.refuse(QStringLiteral("query.") + it.key(), QStringLiteral("must be a string"));
            continue;
        }
        spec.query.append({ it.key(), it.value().toString() });
    }
}

std::optional<ProviderSpec> readAdded(EntryReader &r, const QString &id)
{
    r.onlyFields(kAddedFields, QStringLiteral("a provider entry"));
    ProviderSpec spec;
    spec.id = id;
    spec.name = r.text(QStringLiteral("name"), false).value_or(id);
    if (const std::optional<QString> f = r.text(QStringLiteral("format"), true)) {
        // The built-in formats a deployment may name, or a dialect registered beside them (Dialects::add).
        const std::optional<WireDialect> d = ProviderRegistry::dialectFromId(*f);
        if (!d || (d->isBuiltIn() && !kFormats.contains(*f)))
            r.refuse(QStringLiteral("format"),
                     QStringLiteral("\"%1\" is not a format Bullpen speaks; use openai, gemini or anthropic").arg(*f));
        else
            spec.dialect = *d;
    }
    if (const std::optional<QUrl> u = r.url(true))
        spec.baseUrl = *u;
    if (const std::optional<QString> m = r.text(QStringLiteral("model"), true)) {
        if (m->isEmpty())
            r.refuse(QStringLiteral("model"), QStringLiteral("must name the model to ask for"));
        spec.model = *m;
    }
    readAuth(r, spec);
    readQuery(r, spec);
    spec.stream = r.flag(QStringLiteral("stream")).value_or(true);
    readStages(r, spec);
    spec.price = readPrice(r, Price {}).value_or(Price {}); // an added provider has no list price
    if (!r.ok)
        return std::nullopt;
    return spec;
}

void readBuiltIn(EntryReader &r, Provider p, ProviderEntries &out)
{
    r.onlyFields(kBuiltInFields, QStringLiteral("a built-in provider's entry (its key variable and headers are fixed)"));
    if (const std::optional<QString> f = r.text(QStringLiteral("format"), false); f && ProviderRegistry::dialectFromId(*f) != dialectOf(p))
        r.refuse(QStringLiteral("format"),
                 QStringLiteral("%1 is built in and speaks %2; remove the field").arg(toId(p), toId(dialectOf(p))));
    BuiltInOverride &o = out.builtIns[p];
    if (r.o.contains(QLatin1StringView("base_url"))) {
        // Kept as written, so that validation names a bad one as it names an environment override.
        if (const std::optional<QString> t = r.text(QStringLiteral("base_url"), false))
            o.baseUrl = QUrl(*t);
    }
    if (const std::optional<QString> m = r.text(QStringLiteral("model"), false))
        o.model = *m;
    o.stream = r.flag(QStringLiteral("stream"));
    o.price = readPrice(r, ProviderRegistry::spec(p).price);
}

} // namespace

ProviderEntries ProviderEntries::read(const QJsonValue &value, const QString &settingsFile, QList<ConfigError> *errors)
{
    static const QRegularExpression idShape(QStringLiteral("^[a-z0-9][a-z0-9-]{0,31}$"));
    ProviderEntries out;
    if (value.isUndefined() || value.isNull())
        return out;
    // The list, or the older object keyed by id (read as a list of entries with that id).
    QList<std::pair<QString, QJsonValue>> entries; // label, entry
    if (value.isArray()) {
        const QJsonArray list = value.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString id = list.at(i).toObject().value(QLatin1StringView("id")).toString();
            entries.append({ QStringLiteral("%1: providers[%2]%3")
                                 .arg(settingsFile)
                                 .arg(i)
                                 .arg(id.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(id)),
                             list.at(i) });
        }
    } else if (value.isObject()) {
        const QJsonObject byId = value.toObject();
        for (auto it = byId.begin(); it != byId.end(); ++it) {
            QJsonObject o = it.value().toObject();
            o.insert(QStringLiteral("id"), it.key());
            entries.append(
                { QStringLiteral("%1: providers.%2").arg(settingsFile, it.key()), it.value().isObject() ? QJsonValue(o) : it.value() });
        }
    } else {
        *errors << ConfigError { QStringLiteral("%1: providers").arg(settingsFile), QStringLiteral("must be a list of provider entries") };
        return out;
    }
    QStringList seen;
    for (const auto &[where, v] : entries) {
        if (!v.isObject()) {
            *errors << ConfigError { where, QStringLiteral("must be a JSON object") };
            continue;
        }
        const QJsonObject o = v.toObject();
        EntryReader r { o, where, errors };
        QString id = r.text(QStringLiteral("id"), true).value_or(QString());
        if (!r.ok)
            continue;
        if (id.compare(u"dashscope", Qt::CaseInsensitive) == 0)
            id = QStringLiteral("qwen"); // DashScope's own name for the qwen entry
        if (!idShape.match(id).hasMatch()) {
            r.refuse(QStringLiteral("id"),
                     QStringLiteral("\"%1\" is not an id: 1 to 32 lower-case letters, digits and -, not starting with -").arg(id.left(64)));
            continue;
        }
        if (seen.contains(id)) {
            r.refuse(QStringLiteral("id"), QStringLiteral("\"%1\" is listed twice; merge the two entries").arg(id));
            continue;
        }
        seen << id;
        const std::optional<Provider> known = ProviderRegistry::find(id);
        const qsizetype before = errors->size();
        if (known && ProviderRegistry::spec(*known).builtIn)
            readBuiltIn(r, *known, out);
        else if (const std::optional<ProviderSpec> spec = readAdded(r, id))
            out.added << *spec;
        else if (errors->size() > before)
            out.refused.insert({ id, errors->at(before).toString() });
    }
    return out;
}

QJsonObject ProviderEntries::toJson(const ProviderSpec &spec)
{
    QJsonObject o { { QStringLiteral("id"), spec.id },
                    { QStringLiteral("name"), spec.name },
                    { QStringLiteral("format"), spec.dialect == WireDialect::DashScope ? QStringLiteral("openai") : toId(spec.dialect) },
                    { QStringLiteral("base_url"), spec.baseUrl.toString() },
                    { QStringLiteral("model"), spec.model },
                    { QStringLiteral("stream"), spec.stream } };
    if (spec.takesKey()) {
        o.insert(QStringLiteral("key_variable"), spec.keyVariable);
        o.insert(QStringLiteral("auth_header"), QString::fromLatin1(spec.authHeader));
        o.insert(QStringLiteral("auth_scheme"), QString::fromLatin1(spec.authScheme));
    }
    if (!spec.query.isEmpty()) {
        QJsonObject q;
        for (const auto &[name, value] : spec.query)
            q.insert(name, value);
        o.insert(QStringLiteral("query"), q);
    }
    if (spec.price.known())
        o.insert(QStringLiteral("price"), priceJson(spec.price));
    QJsonArray stages;
    for (const Stage s : spec.stages)
        stages.append(toId(s));
    o.insert(QStringLiteral("stages"), stages);
    return o;
}

std::optional<ProviderSpec> ProviderEntries::readWhole(const QJsonObject &entry, const QString &where, QList<ConfigError> *errors)
{
    EntryReader r { entry, where, errors };
    const std::optional<QString> id = r.text(QStringLiteral("id"), true);
    if (!id)
        return std::nullopt;
    std::optional<ProviderSpec> spec = readAdded(r, *id);
    if (spec)
        spec->builtIn = false; // the caller says what the engine said
    return r.ok ? spec : std::nullopt;
}

QList<ProviderSpec> ProviderEntries::inUse(const Settings &settings)
{
    QList<ProviderSpec> out;
    for (const Provider p : settings.providerTable.all()) {
        ProviderSpec spec = settings.providerTable.spec(p);
        if (const auto it = settings.providers.find(p); it != settings.providers.end()) {
            if (it->second.baseUrl.isValid())
                spec.baseUrl = it->second.baseUrl;
            if (!it->second.model.isEmpty())
                spec.model = it->second.model;
        }
        out << spec;
    }
    return out;
}

QJsonArray ProviderEntries::write(const Settings &settings, const QJsonValue &previous)
{
    // The previous entries by id, to keep fields Bullpen does not know.
    std::map<QString, QJsonObject> before;
    if (previous.isArray()) {
        for (const QJsonValue &v : previous.toArray())
            before[v.toObject().value(QLatin1StringView("id")).toString()] = v.toObject();
    } else if (previous.isObject()) {
        const QJsonObject byId = previous.toObject();
        for (auto it = byId.begin(); it != byId.end(); ++it)
            before[it.key()] = it.value().toObject();
    }
    QJsonArray out;
    for (const auto &[p, ps] : settings.providers) {
        const ProviderSpec spec = ProviderRegistry::spec(p);
        if (!spec.builtIn)
            continue; // written whole below, from the settings' own list
        QJsonObject o = before[spec.id];
        o.remove(QStringLiteral("api_key")); // never in this file
        o.insert(QStringLiteral("id"), spec.id);
        o.insert(QStringLiteral("base_url"), ps.baseUrl.toString());
        o.insert(QStringLiteral("model"), ps.model);
        o.insert(QStringLiteral("stream"), ps.stream);
        out.append(o);
    }
    for (const ProviderSpec &spec : settings.added) {
        QJsonObject o = before[spec.id];
        o.remove(QStringLiteral("api_key"));
        const QJsonObject whole = toJson(spec);
        for (auto it = whole.begin(); it != whole.end(); ++it)
            o.insert(it.key(), it.value());
        out.append(o);
    }
    return out;
}

} // namespace bullpen
