// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providerregistry.h"
#include "contract/providertable.h"
#include "engine/breakersettings.h"
#include "engine/stagepolicy.h"
#include "store/retention.h"

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <chrono>
#include <map>
#include <optional>

namespace bullpen {

// Where a value came from, so that a refusal can name the place to fix.
enum class SettingSource { Default, File, Environment, KeyFile, Keychain };

struct ProviderSettings
{
    QUrl baseUrl;
    QString model;
    QString apiKey; // never logged, stored, exported or shown back in full
    SettingSource keySource = SettingSource::Default;
    bool stream = true; // ask for server-sent events (the stream's end marker proves the answer is whole)
    Price price; // the registry's, or the settings file's "price" (docs/contract.md §16)
    bool hasKey() const { return !apiKey.isEmpty(); }
};

// docs/contract.md §2: the stages after the storyboard keep their own settings.
struct PipelineSettings
{
    QString imageModel = QStringLiteral("gemini-2.5-flash-image");
    std::chrono::milliseconds imageTimeout { 90'000 };
    int imageRetries = 2;
    bool captions = true;
    std::chrono::milliseconds captionsTimeout { 25'000 };
    // docs/contract.md §5.1: prompts and responses (story-derived content) are stored only when the operator turns
    // this on. The 24 h cache (docs/contract.md §6) serves stored results, so it works only when this is on.
    bool storeContent = false;
    // Admission (docs/contract.md): attempts on the wire per provider, and generations that may wait for a
    // slot (before their budget starts) until the next one is refused.
    int maxInFlightPerProvider = 256;
    int maxQueuedPerProvider = 4096;
};

// How a front end attached to a bullpen-engine (`bullpen-cli generate --engine`) waits for it before
// giving up (docs/cli.md, "Exit codes": 5).
struct AttachSettings
{
    std::chrono::milliseconds connectTimeout { 10'000 }; // to reach the engine: its event stream open and answering
    std::chrono::milliseconds deadline { 15 * 60'000 }; // for the whole command, result included
};

struct ConfigError
{
    QString setting; // e.g. STORYBOARD_PRIMARY_TIMEOUT, or storyboard.primary_timeout in the file
    QString message; // what is wrong and what to do
    QString toString() const { return setting + QStringLiteral(": ") + message; }
};

struct Settings
{
    // The storyboard stage's policy as configured: preset, providers (no fallback unless configured,
    // docs/contract.md §4.6), timeouts and budget. The preset's routing (which kinds are handed to the fallback, rounds) follows from
    // the preset: read it through storyboardPolicy().
    StagePolicy storyboard;
    bool storyboardFallbackChosen = false; // the file or the environment chose a fallback provider, or none
    PipelineSettings pipeline;
    std::map<Provider, ProviderSettings> providers; // every listed provider, built-in or added
    QList<ProviderSpec> added; // the providers the settings file adds, as it describes them (docs/configuration.md)
    // What each provider is for these settings: the built-ins and `added` (docs/architecture.md, "The
    // engine's providers"). An engine reads its providers here, never from the process's registry.
    ProviderTable providerTable;
    QString settingsFile; // the file that was read, if any
    QString keyFile; // the 0600 key file that was read, if any
    QString dataDir; // from the settings file ("data_dir"); empty: BULLPEN_DATA_DIR or the default
    // How long the store keeps generations and aggregates (retention.h; "retention", "aggregate_retention",
    // BULLPEN_RETENTION, BULLPEN_AGGREGATE_RETENTION). With generations kept for ever and no aggregate
    // retention chosen, aggregates are kept for ever too.
    RetentionPolicy retention;
    bool aggregateRetentionChosen = false;
    // The proxy for provider calls and for attaching to an engine ("proxy", BULLPEN_PROXY): an
    // http://host:port URL, "none" for direct connections, or empty for the environment's
    // https_proxy / http_proxy / no_proxy (docs/contract.md, "Proxies").
    QString proxy;
    // Certificate authorities that provider calls trust besides the system's ("provider_ca",
    // BULLPEN_PROVIDER_CA): a PEM file, for a proxy that inspects TLS or a gateway with a private CA.
    QString providerCa;
    // Breakers (docs/contract.md §13); read and written through the settings table (settingstable.h).
    BreakerSettings breaker;
    // Attached to an engine (--engine): how long to wait for it; settings-table rows too.
    AttachSettings attach;
    // bullpen-engine behind a balancer (docs/operations.md): whose X-Forwarded-For it believes
    // ("trusted_proxies": addresses or subnets; trustedproxies.h), and the requests per second one client
    // address may send ("address_rate", twice that in a burst; 0: no such limit).
    QString trustedProxies;
    int addressRate = 0;

    // A provider's settings; one not configured here (named by history or another engine) has none.
    const ProviderSettings &provider(Provider p) const;
    // True when no provider has a key: Bullpen then runs against its built-in simulator (docs/contract.md §7).
    bool noProviderConfigured() const;
    // `storyboard` with its preset's routing applied (an unknown preset, refused by validate(), keeps the `relief` preset's).
    StagePolicy storyboardPolicy() const;

    // Defaults: every provider with its public endpoint and a current model, no keys.
    static Settings defaults();
};

// docs/contract.md §4.6: names of the environment variables, per provider.
QString apiKeyVariable(Provider p); // GEMINI_API_KEY, DASHSCOPE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY
QString baseUrlVariable(Provider p); // GEMINI_BASE_URL, DASHSCOPE_BASE_URL, …
QString modelVariable(Provider p); // GEMINI_MODEL, DASHSCOPE_MODEL, …
QString streamVariable(Provider p); // GEMINI_STREAM, … (1/0, true/false)
// The same, for a provider as `table` describes it (an added provider's names its settings-file fields).
QString apiKeyVariable(const ProviderTable &table, Provider p);
QString baseUrlVariable(const ProviderTable &table, Provider p);
QString modelVariable(const ProviderTable &table, Provider p);
QString streamVariable(const ProviderTable &table, Provider p);

// "60s", "1500ms", "2m", "1.5s". A bare number is refused: its unit would be a guess.
std::optional<std::chrono::milliseconds> parseDuration(QStringView text, QString *why = nullptr);
// The inverse, as the settings file and the Settings view write it: "60s", "1500ms".
QString formatDuration(std::chrono::milliseconds duration);

struct SettingsLoad
{
    Settings settings;
    QList<ConfigError> errors; // empty: the engine may start
    bool ok() const { return errors.isEmpty(); }
};

// Reads, in order: defaults, the JSON settings file (if it exists), the key file (mode 0600 only), then
// the environment, which overrides both. Then refuses what docs/contract.md §4.6 refuses: the same provider as
// primary and fallback; a selected provider with no key or no usable endpoint; a timeout that does not
// parse or is not positive. `requireKeys` is false when the built-in simulator supplies the endpoints.
// The settings file as the console's Settings view writes it: every non-secret value (an API key is
// never written here), atomically (QSaveFile), keeping the keys of the file it does not know.
class SettingsFile final
{
public:
    static QJsonObject toJson(const Settings &settings, const QJsonObject &previous = {});
    static bool save(const Settings &settings, const QString &path, QString *error);
};

// The 0600 key file: NAME=value lines. setKey() replaces or adds one line and keeps the rest; an empty
// value removes the line. The file is created with mode 0600 before any key is written to it.
class KeyFile final
{
public:
    static bool setKey(const QString &path, const QString &name, const QString &value, QString *error);
    // Every NAME=value line; refuses (in *errors) a file others can read, one over 64 KiB, or a line
    // that is not NAME=value.
    static QProcessEnvironment readAll(const QString &path, QList<ConfigError> *errors);
    // One value (e.g. BULLPEN_ENGINE_TOKEN); nothing when the file or the line is not there.
    static std::optional<QString> value(const QString &path, const QString &name, QString *error = nullptr);
};

// "AIzaSyD…9f3c": enough to tell two keys apart, never enough to use one. Short keys show only dots.
QString maskApiKey(const QString &key);

class SettingsLoader final
{
public:
    // `keychain`: provider keys found in the system keychain (keychain/secretstore.h), between the key
    // file and the environment: environment, then keychain, then key file. A pure function of its
    // arguments: the providers the file adds are in the result's own table (Settings::providerTable),
    // never in the process's. An engine, a replay and a front end each read theirs from that table.
    static SettingsLoad load(const QString &settingsFile, const QString &keyFile, const QProcessEnvironment &env, bool requireKeys = true,
                             const QProcessEnvironment &keychain = {});
    static QList<ConfigError> validate(const Settings &settings, bool requireKeys = true);
};

} // namespace bullpen
