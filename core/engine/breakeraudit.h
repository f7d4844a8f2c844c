// SPDX-License-Identifier: MIT
#pragma once

#include "breakerboard.h"

#include <optional>

namespace bullpen {

// What the audit trail keeps of a change the engine made by itself (docs/api.md, GET /v1/audit), so
// that breaker transitions and drains that ran out are there over time, for the charts' annotations
// as for the operator: a breaker that opened, went half-open or closed, and a drain that reached its
// `until`. Drains and restores an operator asked for are audited by their route, under their token,
// so they give nothing here. The token name is kEngineAuditor.
struct BreakerAuditLine
{
    QString action; // breaker_opened, breaker_half_open, breaker_closed, drain_expired
    QString target; // "gemini/primary/storyboard (why)", "gemini (why)"
};
inline constexpr char kEngineAuditor[] = "engine";
std::optional<BreakerAuditLine> engineAuditLine(const BreakerChange &change);

} // namespace bullpen
