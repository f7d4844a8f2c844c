// SPDX-License-Identifier: MIT
// What OpenAI's error bodies and finish reasons mean (docs/contract.md §3); DashScope's finish reasons are these too.
#include "openaidialect.h"

namespace bullpen {

std::optional<FailureKind> OpenAiDialect::errorKind(std::optional<int> status, const ErrorInfo &e) const
{
    auto is = [&](QStringView v) {
        return e.code == v || e.type == v;
    };
    if (is(u"insufficient_quota") || is(u"credit_balance_exhausted") || is(u"billing_hard_limit_reached"))
        return FailureKind::QUOTA_EXHAUSTED; // on OpenAI these words mean billing, not a per-minute limit
    if (is(u"rate_limit_exceeded") || ((is(u"tokens") || is(u"requests")) && (!status || status == 429)))
        return FailureKind::RATE_LIMITED;
    if (is(u"invalid_api_key") || is(u"model_not_found") || is(u"unsupported_country_region_territory"))
        return FailureKind::AUTH_CONFIG;
    if (is(u"content_policy_violation") || is(u"invalid_prompt") || is(u"content_filter"))
        return FailureKind::REFUSED;
    if (is(u"context_length_exceeded") || is(u"string_above_max_length"))
        return FailureKind::REQUEST_REJECTED;
    if (is(u"server_error") || is(u"server_is_overloaded") || is(u"service_unavailable_error") || is(u"slow_down"))
        return FailureKind::TRANSIENT_SERVER;
    return std::nullopt;
}

std::optional<Failure> OpenAiDialect::finishFailure(const QString &reason) const
{
    if (reason == u"stop")
        return std::nullopt;
    if (reason == u"length")
        return finished(reason, FailureKind::OUTPUT_TRUNCATED, "the output hit the token limit");
    if (reason == u"content_filter")
        return finished(reason, FailureKind::REFUSED, "the content filter stopped the output");
    if (reason == u"tool_calls" || reason == u"function_call")
        return finished(reason, FailureKind::OUTPUT_INVALID, "the model called a tool instead of answering");
    return finished(reason, FailureKind::UNKNOWN, "not a reason Bullpen knows; not assumed transient");
}

} // namespace bullpen
