// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/stagepolicy.h"
#include "pipeline/generationrequest.h"
#include "wire/fielderror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <chrono>
#include <variant>

namespace bullpen {

// What one request body may hold (docs/contract.md §12.1 limits; the service answers a larger body with 413 before
// parsing).
struct RequestLimits
{
    qsizetype maxStoryBytes = 32 * 1024; // UTF-8
    qsizetype maxUserIdChars = 256;
    std::chrono::milliseconds maxTimeout { 10 * 60 * 1000 };
};

// docs/contract.md §12.1's `POST /v1/generations` body, both ways:
//   {"story": "...", "user_id": "...", "policy": "relief", "primary": "gemini", "fallback": "qwen" | "none",
//    "timeouts": {"primary_ms": 60000, "fallback_ms": 60000, "budget_ms": 120000}, "fresh": false,
//    "scenario": "primary-hang", "generation_id": "gen_<32 hex>"}
// A client may name the generation itself (a remote engine client does, so that it knows the id before
// the answer arrives); the service refuses an id it has seen (409).
// `user_id` may be left out (no user, as an operator's test run); when present it must not be blank.
// Parsing is strict and happens before the engine sees anything: the body must be one JSON object; a
// missing required field, an unknown field, a wrong type or a value out of range is refused naming the
// field. What the body leaves out comes from the engine's own storyboard policy; the request always
// carries a whole policy, so the engine never falls back to a setting of its own per request.
class GenerationRequestJson final
{
public:
    // `providers`: the engine's own table; the providers a request names must be ones it lists.
    static std::variant<GenerationRequest, FieldError> parse(const QByteArray &body, const StagePolicy &defaults,
                                                             const RequestLimits &limits, const ProviderTable &providers);
    // The body a client sends for `request` (its storyboard policy in full when it has one).
    static QJsonObject toJson(const GenerationRequest &request);
};

} // namespace bullpen
