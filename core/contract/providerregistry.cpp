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
    ProviderSpec spec; // a built-in's row; for any other id, a bare entry named by its id
};

// The table behind every Provider value. Entries are only appended, so an index stays valid.
// Process-wide on purpose, for one thing: the interned ids (a Provider must mean the same id in every
// engine, store and codec of the process). What a provider is, beyond a built-in's row, lives in the
// ProviderTable of whoever reads it: an engine's settings (Settings::providerTable), the Settings view's,
// a CLI command's, an attached console's connection (EngineConnection::providers()). Reading a settings
// file, attaching and reading a store write nothing here but ids, interned.
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

QList<Provider> ProviderRegistry::builtIns()
{
    QList<Provider> out;
    for (qsizetype i = 0; i < builtInProviders().size(); ++i)
        out << Provider::atIndex(static_cast<int>(i));
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
