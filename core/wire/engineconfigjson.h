// SPDX-License-Identifier: MIT
#pragma once

#include "engine/stagepolicy.h"
#include "wire/fielderror.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QStringList>

#include <chrono>
#include <optional>
#include <variant>

namespace bullpen {

// GET /v1/config's answer (docs/api.md, "Operations"; docs/openapi.yaml): what an engine runs with, as
// one value. The service writes it and the remote client reads it with this codec only, so its field
// names are spelled once (engineconfigjson.cpp).
struct EngineConfig
{
    using ms = std::chrono::milliseconds;
    struct Key
    {
        QString source; // "environment", "key_file", "keychain", "settings_file", "simulator" or "none"
        std::optional<QString> last4; // the key's last four characters, where one is configured
        friend bool operator==(const Key &, const Key &) = default;
    };
    struct ProviderEntry
    {
        QJsonObject entry; // the provider as the settings file spells it (config/providerentries.h)
        bool builtIn = true;
        friend bool operator==(const ProviderEntry &, const ProviderEntry &) = default;
    };
    struct StoreInfo
    {
        QString backend; // "sqlite" or "postgresql"
        std::optional<QString> location; // an operator's only: the file, or postgresql://USER@HOST:PORT/DB
        friend bool operator==(const StoreInfo &, const StoreInfo &) = default;
    };
    struct Tls
    {
        QString subject;
        QString issuer;
        QString expires; // ISO 8601
        friend bool operator==(const Tls &, const Tls &) = default;
    };
    struct Limits
    {
        qint64 maxBodyBytes = 0;
        qint64 maxStoryBytes = 0;
        qint64 maxHeaderBytes = 0;
        int maxInFlight = 0;
        double tokenRatePerS = 0;
        int maxSubscribers = 0;
        int maxConnections = 0;
        int maxConnectionsPerAddress = 0;
        ms requestTimeout { 0 };
        ms idleTimeout { 0 };
        friend bool operator==(const Limits &, const Limits &) = default;
    };

    QString instance;
    QString version;
    QJsonObject settings; // the settings file's shape (SettingsFile::toJson)
    StagePolicy storyboardPolicy;
    QString scenario;
    QMap<QString, Key> keys; // by provider id
    QList<ProviderEntry> providers;
    QStringList warnings;
    bool simulator = false;
    std::optional<ms> probeEvery;
    std::optional<StoreInfo> store;
    std::optional<Tls> tls;
    QStringList scenarios;
    int engineThreads = 0;
    QString describe;
    Limits limits;
    friend bool operator==(const EngineConfig &, const EngineConfig &) = default;
};

// Who answered, and whether it runs the built-in simulator: what a client names before it has adopted
// the engine's providers (the connection's status line, the CLI's and the soak's reports).
struct EngineIdentity
{
    QString instance;
    QString version;
    bool simulator = false;
};

class EngineConfigJson final
{
public:
    static QJsonObject toJson(const EngineConfig &config);
    // The answer read back; a field of the wrong type (or a storyboard policy that cannot be read) is
    // refused by its name. A field left out keeps its default: an older engine may not send it.
    static std::variant<EngineConfig, FieldError> fromJson(const QJsonObject &o);
    // The answer's providers alone: a client adopts them before it reads the rest, whose storyboard
    // policy may name one of them.
    static QList<EngineConfig::ProviderEntry> providers(const QJsonObject &o);
    static EngineIdentity identity(const QJsonObject &o);
};

} // namespace bullpen
