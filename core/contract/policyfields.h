// SPDX-License-Identifier: MIT
#pragma once

// The storyboard policy's field names on the wire and in the settings file, spelled once. The codec
// (core/wire/storyboardpolicyjson.h) reads and writes every shape with them; the generation_started
// event (core/engine/event.cpp) names its budget with them too. docs/api.md and docs/openapi.yaml
// describe the shapes.
namespace bullpen::policyfields {

// The API's shapes: a request body (POST /v1/generations, POST /v1/comparisons) and GET /v1/config's
// "storyboard_policy".
inline constexpr char kPreset[] = "policy";
inline constexpr char kPrimary[] = "primary";
inline constexpr char kFallback[] = "fallback";
inline constexpr char kTimeouts[] = "timeouts"; // a request's {primary_ms, fallback_ms, budget_ms}
inline constexpr char kPrimaryMs[] = "primary_ms";
inline constexpr char kFallbackMs[] = "fallback_ms";
inline constexpr char kBudgetMs[] = "budget_ms";
inline constexpr char kNone[] = "none"; // a request's fallback: no fallback provider

// The settings file's "storyboard" section (docs/configuration.md).
inline constexpr char kSettingsSection[] = "storyboard";
inline constexpr char kSettingsPrimary[] = "provider";
inline constexpr char kSettingsFallback[] = "fallback_provider";
inline constexpr char kSettingsPrimaryTimeout[] = "primary_timeout";
inline constexpr char kSettingsFallbackTimeout[] = "fallback_timeout";
inline constexpr char kSettingsBudget[] = "total_budget";

} // namespace bullpen::policyfields
