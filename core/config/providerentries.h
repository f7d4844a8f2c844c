// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerregistry.h"
#include "settings.h"

#include <QJsonValue>
#include <QList>
#include <QString>

#include <map>
#include <optional>

namespace bullpen {

// What the settings file says of one built-in provider: its endpoint, model or streaming.
struct BuiltInOverride
{
    std::optional<QUrl> baseUrl;
    std::optional<QString> model;
    std::optional<bool> stream;
    std::optional<Price> price;
};

// The settings file's "providers" (docs/configuration.md, "Providers"): a list of entries, each either
// a built-in provider's id with the fields it overrides, or a provider added by configuration with
// everything the registry needs. The older form, an object keyed by a built-in's id, is still read.
struct ProviderEntries
{
    QList<ProviderSpec> added; // valid added providers, in the file's order
    std::map<Provider, BuiltInOverride> builtIns;
    // Added providers whose entries were refused: id → the first refusal, so that a setting naming
    // one points at its entry rather than calling it unknown.
    std::map<QString, QString> refused;

    // Reads `value`; every refusal names the file, the entry (by index and id) and the field.
    static ProviderEntries read(const QJsonValue &value, const QString &settingsFile, QList<ConfigError> *errors);
    // The list as the Settings view writes it back: the built-ins' endpoints, models and streaming,
    // then every added provider whole; `previous` entries keep the fields Bullpen does not know.
    static QJsonArray write(const Settings &settings, const QJsonValue &previous);
    // One added provider as the settings file and GET /v1/config spell it.
    static QJsonObject toJson(const ProviderSpec &spec);
    // One entry as toJson() writes it, read back whole whatever its id (a built-in's too: GET
    // /v1/config's rows); nothing when refused, the refusals in `errors` named after `where`.
    static std::optional<ProviderSpec> readWhole(const QJsonObject &entry, const QString &where, QList<ConfigError> *errors);
    // Every provider of `settings` as it runs: its row of the settings' own table with the endpoint and
    // model in use (an override, or the simulator's), not the registry's public ones. GET /v1/config
    // lists these; `bullpen-cli provider list` without an engine shows them.
    static QList<ProviderSpec> inUse(const Settings &settings);
};

} // namespace bullpen
