// SPDX-License-Identifier: MIT
#pragma once

#include "providerregistry.h"

#include <QList>
#include <QString>

#include <map>
#include <optional>

namespace bullpen {

// What each provider is for one engine (docs/architecture.md, "The engine's providers"): the built-ins,
// the providers its settings file adds and, for an attached front end, the ones its engine adds. A value:
// each engine, replay and front end holds its own, so two engines in one process that add the same id
// with different endpoints, models or dialects never see each other's. `Provider` stays the process's
// interned id (ProviderRegistry::intern): an id means the same provider everywhere; what it is lives here.
class ProviderTable final
{
public:
    // The built-ins alone.
    ProviderTable();

    // Every listed provider, in the order of their ids (built-ins first).
    QList<Provider> all() const;
    // "gemini, qwen, openai, anthropic, local-vllm": the listed ids, for messages that name the choices.
    QString idList() const;
    // The listed providers that may serve `stage`.
    QList<Provider> serving(Stage stage) const;
    bool lists(Provider provider) const;
    // A provider this table describes (listed, or added once and since removed); any other: what the
    // process knows of its id (a built-in, or a bare entry named by a store or an engine).
    ProviderSpec spec(Provider provider) const;
    WireDialect dialect(Provider provider) const { return spec(provider).dialect; }
    QString name(Provider provider) const { return spec(provider).name; }
    // A listed provider by id (case-insensitive).
    std::optional<Provider> find(QStringView id) const;

    // Replaces the providers the settings add (an added spec may not reuse a built-in id); returns them
    // in the given order.
    QList<Provider> setAdded(const QList<ProviderSpec> &added);
    // The same for the providers an attached engine adds (its GET /v1/config): kept apart from the
    // settings' own, so that reading a local settings file never unlists an engine's provider.
    QList<Provider> adopt(const QList<ProviderSpec> &added);

private:
    struct Row
    {
        ProviderSpec spec;
        bool configured = false; // added by the settings
        bool adopted = false; // added by an attached engine
        bool listed() const { return spec.builtIn || configured || adopted; }
    };
    QList<Provider> install(const QList<ProviderSpec> &added, bool Row::*flag);

    std::map<Provider, Row> m_rows; // ordered by id index: built-ins first, as the process first met the rest
};

} // namespace bullpen
