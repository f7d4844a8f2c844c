// SPDX-License-Identifier: MIT
// What DashScope's error codes mean (docs/contract.md §3); its finish reasons are OpenAI's.
#include "dashscopedialect.h"

namespace bullpen {

std::optional<FailureKind> DashScopeDialect::errorKind(std::optional<int>, const ErrorInfo &e) const
{
    const QString c = e.code.isEmpty() ? e.type : e.code;
    auto is = [&](QStringView v) {
        return e.code == v || e.type == v;
    };
    auto starts = [&](QStringView prefix) {
        return c.startsWith(prefix) || e.type.startsWith(prefix);
    };
    if (is(u"data_inspection_failed") || is(u"DataInspectionFailed") || c.endsWith(QLatin1StringView(".DataInspectionFailed"))
        || is(u"FaqRuleBlocked") || is(u"CustomRoleBlocked"))
        return FailureKind::REFUSED;
    if (mentions(e.message, u"free allocated quota exceeded") || is(u"Arrearage") || is(u"PrepaidBillOverdue") || is(u"PostpaidBillOverdue")
        || is(u"CommodityNotPurchased") || is(u"AllocationQuota.FreeTierOnly"))
        return FailureKind::QUOTA_EXHAUSTED;
    if (is(u"InvalidApiKey") || is(u"invalid_api_key") || starts(u"AccessDenied") || is(u"Workspace.AccessDenied")
        || is(u"Model.AccessDenied") || is(u"ModelNotFound") || is(u"model_not_found") || is(u"WorkSpaceNotFound"))
        return FailureKind::AUTH_CONFIG;
    if (is(u"RequestTimeOut") || is(u"InternalError.Timeout"))
        return FailureKind::TIMEOUT;
    // DashScope says "insufficient_quota" / "You exceeded your current quota" for its per-minute token
    // limit, which lifts within a minute: a rate limit here, unlike OpenAI's billing meaning.
    if (starts(u"Throttling") || is(u"LimitRequests") || is(u"insufficient_quota"))
        return FailureKind::RATE_LIMITED;
    if (starts(u"InternalError") || is(u"SystemError") || is(u"ModelServiceFailed") || is(u"ModelUnavailable"))
        return FailureKind::TRANSIENT_SERVER;
    if (is(u"InvalidParameter") || starts(u"BadRequest") || is(u"InvalidURL") || is(u"UnsupportedOperation") || is(u"invalid_request_error")
        || is(u"invalid_parameter_error"))
        return FailureKind::REQUEST_REJECTED;
    return std::nullopt;
}

} // namespace bullpen
