// SPDX-License-Identifier: MIT
#pragma once

#include "enums.h"

#include <QString>

#include <optional>

namespace bullpen {

// One provider in one role of one stage: what a probe (docs/contract.md §13) tries, what a health card
// stands for, and the scope of its failed attempts in the history.
struct ProviderRoleStage
{
    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    Stage stage = Stage::Storyboard;

    friend auto operator<=>(const ProviderRoleStage &, const ProviderRoleStage &) = default;
    // "openai/fallback/storyboard": how events, results, the history and the metrics name it.
    QString toString() const { return toId(provider) + QLatin1Char('/') + toId(role) + QLatin1Char('/') + toId(stage); }
    static std::optional<ProviderRoleStage> fromString(QStringView text)
    {
        const auto parts = text.split(QLatin1Char('/'));
        if (parts.size() != 3)
            return std::nullopt;
        const auto provider = providerFromId(parts[0]);
        const auto role = roleFromId(parts[1]);
        const auto stage = stageFromId(parts[2]);
        if (!provider || !role || !stage)
            return std::nullopt;
        return ProviderRoleStage { *provider, *role, *stage };
    }
};

// A probe sends one minimal synthetic request to it and nothing else (no other stage, no fallback, no
// second round).
using ProbeTarget = ProviderRoleStage;

} // namespace bullpen
