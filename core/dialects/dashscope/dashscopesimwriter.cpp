// SPDX-License-Identifier: MIT
// DashScope's error answers as the simulator writes them; its bodies and streams are OpenAI's.
#include "dashscopedialect.h"
#include "dialects/simanswer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

using simanswer::compact;

SimErrorReply dashScopeError(SimFailure f)
{
    auto reply = [](int status, const char *code, const char *message) {
        return SimErrorReply { status,
                               QByteArray(R"({"error":{"code":")") + code + R"(","param":null,"message":")" + message + R"(","type":")"
                                   + code + R"("},"id":"chatcmpl-sim","request_id":"sim-request"})",
                               {} };
    };
    switch (f) {
    case SimFailure::Overloaded:
        return reply(503, "ModelUnavailable", "Model is unavailable, please try again later.");
    case SimFailure::RateLimited:
        return reply(429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
    case SimFailure::Auth:
    case SimFailure::Unauthenticated:
        return reply(401, "invalid_api_key", "Incorrect API key provided.");
    case SimFailure::Quota:
        return reply(400, "Arrearage", "Access denied, please make sure your account is in good standing.");
    case SimFailure::BadRequest:
        return reply(400, "InvalidParameter", "Range of input length should be [1, 30720]");
    case SimFailure::NotFound:
        return reply(404, "model_not_found", "The model does not exist.");
    case SimFailure::Timeout:
        return reply(408, "RequestTimeOut", "Request timed out.");
    case SimFailure::Other:
        break;
    }
    return reply(500, "InternalError", "An internal error has occurred.");
}

} // namespace

QByteArray DashScopeDialect::streamErrorEvent() const
{
    return sse(
        R"({"error":{"code":"ModelUnavailable","param":null,"message":"Model is unavailable, please try again later.","type":"ModelUnavailable"}})");
}

SimErrorReply DashScopeDialect::error(SimFailure failure, int statusOverride, int retryAfterSeconds) const
{
    SimErrorReply r = dashScopeError(failure);
    if (statusOverride > 0)
        r.status = statusOverride;
    return simanswer::withRetryAfter(r, retryAfterSeconds);
}

} // namespace bullpen
