// SPDX-License-Identifier: MIT
#pragma once

#include "enums.h"
#include "price.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <optional>
#include <utility>

namespace bullpen {

// One provider as Bullpen knows it (docs/configuration.md, "Providers"). The four built-in rows are
// below (builtInProviders()); the settings file's `providers` list adds rows of the same shape. An
// engine reads them from its own ProviderTable, the console's views from their connection's; the CLI's
// choices, soak mixes and the Settings view read the registry, as SettingsLoader::load() publishes it.
struct ProviderSpec
{
    QString id; // 1 to 32 lower-case letters, digits and '-', not starting with '-': "gemini", "local-vllm"
    QString name; // shown to people: "Gemini", "Local vLLM"
    WireDialect dialect = WireDialect::OpenAI; // how requests and answers are spelled
    QUrl baseUrl; // the default endpoint; the request path is appended (".../chat/completions")
    QString model; // the default model
    QString keyVariable; // where its key is read from (GEMINI_API_KEY); empty: it takes no key
    QString envPrefix; // built-ins: GEMINI, DASHSCOPE, …: <prefix>_BASE_URL, _MODEL and _STREAM override
    QByteArray authHeader; // "Authorization", "x-goog-api-key", "x-api-key", "api-key"; empty: none sent
    QByteArray authScheme; // "Bearer" (the header says "Bearer <key>") or empty (the key alone)
    QList<std::pair<QString, QString>> query; // added to every request's URL (Azure's api-version)
    bool stream = true; // ask for server-sent events by default
    QList<Stage> stages { Stage::Storyboard, Stage::Captions }; // the stages it may serve
    bool builtIn = false;
    Price price; // what it charges (docs/contract.md §16); the settings file's "price" overrides it

    bool serves(Stage stage) const { return stages.contains(stage); }
    bool takesKey() const { return !keyVariable.isEmpty(); }
    // The simulator's path for this provider's base URL: the built-ins' public paths; an added
    // provider's own path below "/p/<id>", so that two added providers never share a route.
    QString simulatorPath() const;
};

// The built-in rows, in the order lists show them.
const QList<ProviderSpec> &builtInProviders();

// The process's providers: the built-ins, then those the settings added. A provider's index never
// changes for the life of the process; an added provider later removed from the settings stays
// known (history still names it) but is no longer listed.
class ProviderRegistry final
{
public:
    // Every listed provider, built-ins first.
    static QList<Provider> all();
    // "gemini, qwen, openai, anthropic, local-vllm": the listed ids, for messages that name the choices.
    static QString idList();
    // The built-in providers (the first rows, always listed).
    static QList<Provider> builtIns();
    // The listed providers that may serve `stage`.
    static QList<Provider> serving(Stage stage);
    static ProviderSpec spec(Provider provider);
    static WireDialect dialect(Provider provider);
    static QString name(Provider provider);
    static std::optional<Provider> find(QStringView id);
    // Replaces the added providers (built-ins stay; an added spec may not reuse a built-in id).
    // Returns the added providers, in the given order.
    static QList<Provider> setAdded(const QList<ProviderSpec> &added);
    // A provider named by a store or an engine that is not configured here: found, or added as a
    // known but unlisted entry (OpenAI dialect, named by its id), so that its rows still read.
    static Provider intern(QStringView id);
    // "Wire dialect" ids as the settings file spells them: "openai", "gemini", "anthropic", "dashscope".
    static std::optional<WireDialect> dialectFromId(QStringView id);
};

// Shorthand for ProviderRegistry::dialect(), for the wire code that switches on it.
inline WireDialect dialectOf(Provider provider)
{
    return ProviderRegistry::dialect(provider);
}

} // namespace bullpen
