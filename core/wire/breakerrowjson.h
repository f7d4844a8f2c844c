// SPDX-License-Identifier: MIT
#pragma once

#include "engine/breakerboard.h"
#include "wire/fielderror.h"

#include <QJsonObject>

#include <variant>

namespace bullpen {

// One breaker on the wire (docs/api.md, "Providers"; docs/openapi.yaml, Breaker): {"provider", "role",
// "stage", "state", "since", "cooldown_ms" (null while closed), "retry_at", "window_attempts",
// "window_failures", "opened", "reason"}, times as ISO 8601 in UTC. The service writes it (GET
// /v1/providers, the event stream's notices) and the console and the CLI read it back with this codec
// only, so its field names are spelled once (breakerrowjson.cpp).
class BreakerRowJson final
{
public:
    static QJsonObject toJson(const BreakerView &breaker);
    // The breaker read back; a provider, role, stage or state this side does not know, or a field of the
    // wrong type, is refused by its name.
    static std::variant<BreakerView, FieldError> fromJson(const QJsonObject &o);
};

} // namespace bullpen
