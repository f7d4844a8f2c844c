// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/stagepolicy.h"
#include "wire/fielderror.h"

#include <QJsonObject>
#include <QStringList>

#include <chrono>
#include <optional>
#include <variant>

namespace bullpen {

// The storyboard policy on the wire, in each of its shapes, read and written here only (the field
// names: contract/policyfields.h). The service, the remote client, the CLI and replay all use it.
class StoryboardPolicyJson final
{
public:
    using ms = std::chrono::milliseconds;

    // GET /v1/config's "storyboard_policy" (docs/api.md): {"policy", "primary", "fallback": id or null,
    // "primary_ms", "fallback_ms", "budget_ms"?}. fromJson refuses a missing or wrong field by name.
    static QJsonObject toJson(const StagePolicy &policy);
    static std::variant<StagePolicy, FieldError> fromJson(const QJsonObject &o);

    // A request's policy fields (POST /v1/generations; docs/contract.md §12.1): {"policy"?, "primary"?,
    // "fallback"?: id or "none" or null, "timeouts"?: {"primary_ms"?, "fallback_ms"?, "budget_ms"?}}.
    // What the body leaves out is the engine's own. writeRequest writes the whole policy.
    static void writeRequest(const StagePolicy &policy, QJsonObject *body);
    // Reads over *policy what the body names (other fields are left alone); the first wrong field. The
    // providers named must be ones `providers` (the engine's own table) lists for the storyboard stage.
    static std::optional<FieldError> readRequest(const QJsonObject &body, ms maxTimeout, StagePolicy *policy,
                                                 const ProviderTable &providers);
    // The request fields above, for a body's list of known fields.
    static QStringList requestFields();
    // A request's "timeouts" object with the timeouts given (POST /v1/comparisons takes primary and
    // fallback; the CLI sends only what its options set).
    static QJsonObject timeouts(std::optional<ms> primary, std::optional<ms> fallback, std::optional<ms> budget = {});
    // One of a request's policy fields by name, for a body put together field by field (the CLI passes
    // its options through as typed, and the engine names a wrong one): "policy", "primary", "fallback",
    // "timeouts".
    enum class RequestField { Preset, Primary, Fallback, Timeouts };
    static QString requestField(RequestField field);

    // The settings file's "storyboard" section (docs/configuration.md): {"policy", "provider",
    // "fallback_provider": id or "none", "primary_timeout"?, "fallback_timeout"?, "total_budget"?} with
    // durations as "<n>ms"; a timeout not given is left out (the settings' default applies).
    struct SettingsSection
    {
        QString preset;
        Provider primary = Provider::Gemini;
        std::optional<Provider> fallback;
        std::optional<ms> primaryTimeout;
        std::optional<ms> fallbackTimeout;
        std::optional<ms> budget;
    };
    // The settings file's whole root with this section: {"storyboard": {...}}.
    static QJsonObject toSettingsJson(const SettingsSection &section);
};

} // namespace bullpen
