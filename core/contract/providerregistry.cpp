// SPDX-License-Identifier: MIT
#include "providerregistry.h"

#include <QReadWriteLock>
#include <QRegularExpression>

#include <vector>

namespace bullpen {

namespace {

ProviderSpec builtIn(const char *id, const char *name, WireDialect dialect, const char *url, const char *model, const char *envPrefix,
                     QByteArray authHeader, QByteArray authScheme, QList<Stage> stages)
{
    ProviderSpec s;
    s.id = QLatin1StringView(id);
    s.name = QLatin1StringView(name);
    s.dialect = dialect;
    s.baseUrl = QUrl(QLatin1StringView(url));
    s.model = QLatin1StringView(model);
    s.envPrefix = QLatin1StringView(envPrefix);
    s.keyVariable = s.envPrefix + QStringLiteral("_API_KEY");
    s.authHeader = std::move(authHeader);
    s.authScheme = std::move(authScheme);
    s.stages = std::move(stages);
    s.builtIn = true;
    return s;
}

// The providers' public list prices for their default models, as of the date named (docs/configuration.md,
// "Prices"): standard tier, text in and out, no caching or batch discounts.
ProviderSpec priced(ProviderSpec s, std::optional<double> inputPerMillion, std::optional<double> outputPerMillion,
                    std::optional<double> perImage, const char *asOf)
{
    s.price.inputPerMillion = inputPerMillion;
    s.price.outputPerMillion = outputPerMillion;
    s.price.perImage = perImage;
    s.price.asOf = QLatin1StringView(asOf);
    return s;
}

struct Entry
{
    ProviderSpec spec;
    bool configured = false; // added by this process's settings
    bool listed() const { return spec.builtIn || configured; }
};

// The table behind every Provider value. Entries are only appended, so an index stays valid.
// Process-wide on purpose, for two things: the interned ids (a Provider must mean the same id in every
// engine, store and codec of the process), and the providers the process's one settings file adds for
// the CLI's commands and the Settings view (published by SettingsLoader::load()). An engine reads what
// its providers are from its own ProviderTable (Settings::providerTable), never here, and publishes
// nothing here; an attached console reads its connection's (EngineConnection::providers()): attaching
// writes nothing here but the engine's ids, interned.
struct Table
{
    QReadWriteLock lock;
    std::vector<Entry> entries;

    Table()
    {
        for (const ProviderSpec &s : builtInProviders())
            entries.push_back(Entry { s });
    }

    // With the write lock held.
    int indexOf(QStringView id) const
    {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (id.compare(entries[i].spec.id, Qt::CaseInsensitive) == 0)
                return static_cast<int>(i);
        }
        return -1;
    }
};

Table &table()
{
    static Table t;
    return t;
}

} // namespace

const QList<ProviderSpec> &builtInProviders()
{
    static const QList<ProviderSpec> rows {
        priced(builtIn("gemini", "Gemini", WireDialect::Gemini, "https://generativelanguage.googleapis.com/v1beta", "gemini-2.5-flash",
                       "GEMINI", "x-goog-api-key", {}, { Stage::Storyboard, Stage::Captions, Stage::Image }),
               0.30, 2.50, 0.039, "2025-06"),
        priced(builtIn("qwen", "Qwen", WireDialect::DashScope, "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "qwen-plus",
                       "DASHSCOPE", "Authorization", "Bearer", { Stage::Storyboard, Stage::Captions }),
               0.40, 1.20, std::nullopt, "2025-06"),
        priced(builtIn("openai", "OpenAI", WireDialect::OpenAI, "https://api.openai.com/v1", "gpt-4.1-mini", "OPENAI", "Authorization",
                       "Bearer", { Stage::Storyboard, Stage::Captions }),
               0.40, 1.60, std::nullopt, "2025-06"),
        priced(builtIn("anthropic", "Anthropic", WireDialect::Anthropic, "https://api.anthropic.com/v1", "claude-sonnet-4-6", "ANTHROPIC",
                       "x-api-key", {}, { Stage::Storyboard, Stage::Captions }),
               3.00, 15.00, std::nullopt, "2025-06"),
    };
    return rows;
}

QString ProviderSpec::simulatorPath() const
{
    if (builtIn)
        return baseUrl.path();
    QString own = baseUrl.path();
    while (own.endsWith(QLatin1Char('/')))
        own.chop(1);
    return QStringLiteral("/p/") + id + own;
}

QList<Provider> ProviderRegistry::all()
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    QList<Provider> out;
    for (std::size_t i = 0; i < t.entries.size(); ++i) {
        if (t.entries[i].listed())
            out << Provider::atIndex(static_cast<int>(i));
    }
    return out;
}

QString ProviderRegistry::idList()
{
    QStringList ids;
    for (const Provider p : all())
        ids << toId(p);
    return ids.join(QStringLiteral(", "));
}

QList<Provider> ProviderRegistry::builtIns()
{
    QList<Provider> out;
    for (qsizetype i = 0; i < builtInProviders().size(); ++i)
        out << Provider::atIndex(static_cast<int>(i));
    return out;
}

QList<Provider> ProviderRegistry::serving(Stage stage)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    QList<Provider> out;
    for (std::size_t i = 0; i < t.entries.size(); ++i) {
        if (t.entries[i].listed() && t.entries[i].spec.serves(stage))
            out << Provider::atIndex(static_cast<int>(i));
    }
    return out;
}

ProviderSpec ProviderRegistry::spec(Provider provider)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    const auto i = static_cast<std::size_t>(provider.index());
    return i < t.entries.size() ? t.entries[i].spec : t.entries.front().spec;
}

WireDialect ProviderRegistry::dialect(Provider provider)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    const auto i = static_cast<std::size_t>(provider.index());
    return i < t.entries.size() ? t.entries[i].spec.dialect : WireDialect::Gemini;
}

QString ProviderRegistry::name(Provider provider)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    const auto i = static_cast<std::size_t>(provider.index());
    return i < t.entries.size() ? t.entries[i].spec.name : QString();
}

std::optional<Provider> ProviderRegistry::find(QStringView id)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    const int i = t.indexOf(id);
    if (i < 0)
        return std::nullopt;
    return Provider::atIndex(i);
}

QList<Provider> ProviderRegistry::setAdded(const QList<ProviderSpec> &added)
{
    Table &t = table();
    const QWriteLocker lock(&t.lock);
    for (Entry &e : t.entries)
        e.configured = false;
    QList<Provider> out;
    for (const ProviderSpec &s : added) {
        int i = t.indexOf(s.id);
        if (i >= 0 && t.entries[static_cast<std::size_t>(i)].spec.builtIn)
            continue; // refused by the settings' validation; never replaces a built-in
        if (i < 0) {
            t.entries.push_back(Entry { s });
            i = static_cast<int>(t.entries.size() - 1);
        }
        Entry &e = t.entries[static_cast<std::size_t>(i)];
        e.spec = s;
        e.spec.builtIn = false;
        e.configured = true;
        out << Provider::atIndex(i);
    }
    return out;
}

Provider ProviderRegistry::intern(QStringView id)
{
    if (const std::optional<Provider> known = find(id))
        return *known;
    Table &t = table();
    const QWriteLocker lock(&t.lock);
    if (const int i = t.indexOf(id); i >= 0) // added meanwhile
        return Provider::atIndex(i);
    ProviderSpec s;
    s.id = id.toString().toLower();
    s.name = s.id;
    t.entries.push_back(Entry { s });
    return Provider::atIndex(static_cast<int>(t.entries.size() - 1));
}

std::optional<WireDialect> ProviderRegistry::dialectFromId(QStringView id)
{
    return WireDialect::fromId(id);
}

QString toId(Provider provider)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    const auto i = static_cast<std::size_t>(provider.index());
    return i < t.entries.size() ? t.entries[i].spec.id : QString();
}

std::optional<Provider> providerFromId(QStringView id)
{
    return ProviderRegistry::find(id);
}

std::optional<Provider> providerFromStored(QStringView id)
{
    if (const std::optional<Provider> known = ProviderRegistry::find(id))
        return known;
    static const QRegularExpression idShape(QStringLiteral("^[a-z0-9][a-z0-9-]{0,31}$"));
    if (!idShape.match(id).hasMatch())
        return std::nullopt;
    return ProviderRegistry::intern(id);
}

Provider storedProviderOrUnknown(QStringView id)
{
    // "(unknown)" cannot be an id (providerFromStored refuses its shape), so no provider is ever mistaken for it.
    return providerFromStored(id).value_or(ProviderRegistry::intern(u"(unknown)"));
}

} // namespace bullpen
