// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerregistry.h"
#include "engine/breakerboard.h"
#include "engine/stagepolicy.h"
#include "history/providerwindow.h"
#include "wire/fielderror.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>
#include <variant>

namespace bullpen {

struct Settings;

// One provider as `bullpen-cli provider list` shows it (docs/cli.md): what it is (its row, with the
// endpoint and model in use), the roles the storyboard policy gives it, and, from an engine, its
// breakers, drains and last 5 and 15 minutes. Put together from the codecs that carry each part
// (ProviderEntries for the row as GET /v1/config spells it, ProvidersJson for GET /v1/providers,
// StatsJson for GET /v1/stats/providers), so that no field is spelled here a second time.
struct ProviderListing
{
    ProviderSpec spec;
    QStringList roles; // "fallback/storyboard": where the storyboard policy names it, then where its breakers saw it serve
    QList<BreakerView> breakers;
    QList<Drain> drains;
    std::optional<ProviderWindow> last5m;
    std::optional<ProviderWindow> last15m;
    bool drained() const { return !drains.isEmpty(); }
};

class ProviderListingJson final
{
public:
    // The providers GET /v1/config lists, read through the settings file's codec (ProviderEntries): a
    // built-in entry is its registry row with the engine's endpoint, model and price; an entry this side
    // cannot read is refused by its index ("providers[4].base_url"). Each id becomes a known (not listed)
    // provider of this process (providerFromStored), so that the rows that name it read.
    static std::variant<QList<ProviderSpec>, FieldError> specs(const QJsonObject &configAnswer);
    // The listing of `specs`, in their order: the roles from `storyboard` and the breakers, the breakers and drains of
    // GET /v1/providers' answer (`providersAnswer`, empty without an engine) and the windows of GET
    // /v1/stats/providers (none without an engine).
    static QList<ProviderListing> assemble(const QList<ProviderSpec> &specs, const StagePolicy &storyboard,
                                           const QJsonObject &providersAnswer, const std::optional<ProviderWindows> &windows);
    // The same for local settings (no engine: no breakers, drains or windows).
    static QList<ProviderListing> fromSettings(const Settings &settings);

    // `provider list --json`: {"providers": [{the row as the settings file spells it, "built_in",
    // "roles", "drained", "breakers", "drains", "last_5m", "last_15m"}…]}, each part written by its codec.
    static QJsonObject toJson(const QList<ProviderListing> &listing);
    // Read back; the first part a codec refuses is named with the provider's index ("providers[1].roles").
    // Each provider's id becomes known here as specs() makes it, so that its breakers and drains read.
    static std::variant<QList<ProviderListing>, FieldError> fromJson(const QJsonObject &o);
};

} // namespace bullpen
