// SPDX-License-Identifier: MIT
// What Gemini's error bodies and finish reasons mean (docs/contract.md §3).
#include "geminidialect.h"

namespace bullpen {

std::optional<FailureKind> GeminiDialect::errorKind(std::optional<int> status, const ErrorInfo &e) const
{
    const QString &s = e.status;
    if (e.reason == u"API_KEY_INVALID")
        return FailureKind::AUTH_CONFIG;
    if (e.reason == u"MODEL_CAPACITY_EXHAUSTED")
        return FailureKind::TRANSIENT_SERVER;
    if (s == u"UNAUTHENTICATED" || s == u"PERMISSION_DENIED")
        return FailureKind::AUTH_CONFIG;
    if (s == u"RESOURCE_EXHAUSTED") {
        if (status == 402)
            return FailureKind::QUOTA_EXHAUSTED; // prepay credits depleted
        for (const QString &id : e.quotaIds) {
            if (id.contains(QLatin1StringView("PerDay")))
                return FailureKind::QUOTA_EXHAUSTED;
        }
        if (mentions(e.message, u"limit: 0"))
            return FailureKind::QUOTA_EXHAUSTED; // the tier has no quota for this model at all
        return FailureKind::RATE_LIMITED;
    }
    if (s == u"FAILED_PRECONDITION") {
        if (mentions(e.message, u"location") || mentions(e.message, u"region") || mentions(e.message, u"country"))
            return FailureKind::AUTH_CONFIG;
        return FailureKind::QUOTA_EXHAUSTED; // billing must be enabled
    }
    if (s == u"INVALID_ARGUMENT" || s == u"OUT_OF_RANGE" || s == u"UNIMPLEMENTED")
        return FailureKind::REQUEST_REJECTED;
    if (s == u"NOT_FOUND")
        return FailureKind::AUTH_CONFIG; // unknown model: a setting to fix
    if (s == u"DEADLINE_EXCEEDED")
        return FailureKind::TIMEOUT;
    if (s == u"UNAVAILABLE" || s == u"INTERNAL" || s == u"UNKNOWN" || s == u"DATA_LOSS" || s == u"ABORTED")
        return FailureKind::TRANSIENT_SERVER;
    if (s == u"CANCELLED")
        return FailureKind::NETWORK;
    return std::nullopt;
}

std::optional<Failure> GeminiDialect::finishFailure(const QString &reason) const
{
    if (reason == u"STOP")
        return std::nullopt;
    if (reason == u"MAX_TOKENS")
        return finished(reason, FailureKind::OUTPUT_TRUNCATED, "the output hit the token limit");
    static const QStringList refused { QStringLiteral("SAFETY"),
                                       QStringLiteral("RECITATION"),
                                       QStringLiteral("BLOCKLIST"),
                                       QStringLiteral("PROHIBITED_CONTENT"),
                                       QStringLiteral("SPII"),
                                       QStringLiteral("LANGUAGE"),
                                       QStringLiteral("IMAGE_SAFETY"),
                                       QStringLiteral("IMAGE_PROHIBITED_CONTENT"),
                                       QStringLiteral("IMAGE_RECITATION"),
                                       QStringLiteral("MODEL_ARMOR") };
    if (refused.contains(reason))
        return finished(reason, FailureKind::REFUSED, "the provider blocked the output");
    static const QStringList invalid { QStringLiteral("MALFORMED_FUNCTION_CALL"), QStringLiteral("UNEXPECTED_TOOL_CALL"),
                                       QStringLiteral("TOO_MANY_TOOL_CALLS"), QStringLiteral("MALFORMED_RESPONSE") };
    if (invalid.contains(reason))
        return finished(reason, FailureKind::OUTPUT_INVALID, "the model produced no usable answer");
    if (reason == u"MISSING_THOUGHT_SIGNATURE")
        return finished(reason, FailureKind::INTERNAL, "our request was missing a thought signature (adapter bug)");
    return finished(reason, FailureKind::UNKNOWN, "not a reason Bullpen knows; not assumed transient");
}

} // namespace bullpen
