// SPDX-License-Identifier: MIT
#pragma once

#include "engine/breakerboard.h"
#include "wire/fielderror.h"

#include <QJsonObject>

#include <variant>

namespace bullpen {

// One drain on the wire (docs/api.md, "Providers"; docs/openapi.yaml, Drain): {"provider", "role" and
// "stage" (null: every one), "reason", "by", "since", "until" (null: until restored)}, times as ISO 8601
// in UTC. The service writes it (GET /v1/providers, a drain's answer, the event stream's notices) and the
// console and the CLI read it back with this codec only (drainrowjson.cpp). A drain's request body is
// another shape (api/breakerjson.h).
class DrainRowJson final
{
public:
    static QJsonObject toJson(const Drain &drain);
    // The drain read back; a provider, role or stage this side does not know, or a field of the wrong
    // type, is refused by its name.
    static std::variant<Drain, FieldError> fromJson(const QJsonObject &o);
};

} // namespace bullpen
