// SPDX-License-Identifier: MIT
// What Anthropic's error bodies and stop reasons mean (docs/contract.md §3).
#include "anthropicdialect.h"

namespace bullpen {

std::optional<FailureKind> AnthropicDialect::errorKind(std::optional<int>, const ErrorInfo &e) const
{
    const QString &t = e.type;
    if (t == u"invalid_request_error") {
        if (mentions(e.message, u"spend limit") || mentions(e.message, u"usage limit") || mentions(e.message, u"credit balance"))
            return FailureKind::QUOTA_EXHAUSTED;
        return FailureKind::REQUEST_REJECTED;
    }
    if (t == u"authentication_error" || t == u"permission_error" || t == u"not_found_error")
        return FailureKind::AUTH_CONFIG;
    if (t == u"billing_error")
        return FailureKind::QUOTA_EXHAUSTED;
    if (t == u"rate_limit_error")
        return e.detailsErrorCode == u"enforced_spend_limit_reached" ? FailureKind::QUOTA_EXHAUSTED : FailureKind::RATE_LIMITED;
    if (t == u"request_too_large")
        return FailureKind::REQUEST_REJECTED;
    if (t == u"timeout_error")
        return FailureKind::TIMEOUT;
    if (t == u"api_error" || t == u"overloaded_error" || t == u"conflict_error")
        return FailureKind::TRANSIENT_SERVER;
    return std::nullopt;
}

std::optional<Failure> AnthropicDialect::finishFailure(const QString &reason) const
{
    if (reason == u"end_turn" || reason == u"stop_sequence")
        return std::nullopt;
    if (reason == u"max_tokens" || reason == u"model_context_window_exceeded")
        return finished(reason, FailureKind::OUTPUT_TRUNCATED, "the output hit the token limit");
    if (reason == u"refusal")
        return finished(reason, FailureKind::REFUSED, "the model refused");
    if (reason == u"tool_use")
        return finished(reason, FailureKind::OUTPUT_INVALID, "the model called a tool instead of answering");
    return finished(reason, FailureKind::UNKNOWN, "Bullpen does not continue paused turns or unknown stops");
}

} // namespace bullpen
