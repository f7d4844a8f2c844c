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
// below (builtInProviders()); the settings file's `providers` list adds rows of the same shape. Whoever
// reads them holds a ProviderTable (providertable.h): an engine its settings', the console's views their
// connection's, the Settings view and the CLI's commands the settings file's.
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

// The process's provider ids: the built-ins' rows, then every other id the process has met (a settings
// file's added provider, an engine's, a store's), interned. A provider's index never changes for the
// life of the process. Which providers are listed, and what an added one is, is a ProviderTable's to say
// (providertable.h): each engine, replay and front end holds its own.
class ProviderRegistry final
{
public:
    // The built-in providers (the first rows).
    static QList<Provider> builtIns();
    // A built-in's row; any other id's bare entry (OpenAI dialect, named by its id).
    static ProviderSpec spec(Provider provider);
    static WireDialect dialect(Provider provider);
    static QString name(Provider provider);
    // A provider the process has met, by id (case-insensitive).
    static std::optional<Provider> find(QStringView id);
    // An id named by a settings file, a store or an engine: found, or added as a bare entry (OpenAI
    // dialect, named by its id), so that its rows still read.
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
