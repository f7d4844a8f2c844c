// SPDX-License-Identifier: MIT
// docs/contract.md §3 / 3.1: one row for every classification rule, and each provider's own error
// bodies (docs/simulator-fidelity.md).
#include "failure/failureclassifier.h"
#include "failure/secretscrubber.h"

#include <QTest>

using namespace bullpen;
using namespace std::chrono;
using K = FailureKind;
using E = QNetworkReply::NetworkError;

Q_DECLARE_METATYPE(bullpen::ProviderResponse)

namespace {

ProviderResponse http(int status, const char *body = "")
{
    ProviderResponse r;
    r.httpStatus = status;
    r.errorBody = QByteArray(body);
    return r;
}

ProviderResponse net(E error)
{
    ProviderResponse r;
    r.networkError = error;
    r.networkErrorString = QStringLiteral("Qt says so");
    return r;
}

ProviderResponse ok(const char *finish, const char *text = "{\"title\":\"t\"}")
{
    ProviderResponse r;
    r.httpStatus = 200;
    r.finishReason = QLatin1StringView(finish);
    r.text = QLatin1StringView(text);
    return r;
}

ProviderResponse streamError(const char *payload)
{
    ProviderResponse r;
    r.httpStatus = 200;
    r.errorBody = QByteArray(payload);
    r.errorInStream = true;
    return r;
}

struct Expect
{
    K kind;
    bool capacity = false;
    qint64 retryAfterMs = -1;
};

} // namespace

class tst_FailureClassifier : public QObject
{
    Q_OBJECT

    static void row(const char *name, Provider p, const ProviderResponse &r, Expect e, AbortReason abort = AbortReason::None)
    {
        QTest::addRow("%s", name) << p << r << abort << e.kind << e.capacity << e.retryAfterMs;
    }

private Q_SLOTS:
    void classify_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<ProviderResponse>("response");
        QTest::addColumn<AbortReason>("abortedBy");
        QTest::addColumn<FailureKind>("kind");
        QTest::addColumn<bool>("capacity");
        QTest::addColumn<qint64>("retryAfterMs");
        const Provider G = Provider::Gemini, O = Provider::OpenAI, A = Provider::Anthropic, Q = Provider::Qwen;

        // --- any provider: local causes first, then transport
        row("our operator cancel wins over Qt's error", G, net(E::OperationCanceledError), { K::CANCELLED }, AbortReason::Operator);
        row("shutdown", O, net(E::OperationCanceledError), { K::CANCELLED }, AbortReason::Shutdown);
        row("our deadline", A, net(E::OperationCanceledError), { K::TIMEOUT }, AbortReason::Deadline);
        row("our deadline even with a 200 in hand", Q, ok("stop"), { K::TIMEOUT }, AbortReason::Deadline);
        row("OperationCanceled with no recorded reason is our bug", G, net(E::OperationCanceledError), { K::INTERNAL });
        row("Qt TimeoutError", G, net(E::TimeoutError), { K::TIMEOUT });
        row("connection refused", G, net(E::ConnectionRefusedError), { K::NETWORK });
        row("remote host closed", O, net(E::RemoteHostClosedError), { K::NETWORK });
        row("host not found", A, net(E::HostNotFoundError), { K::NETWORK });
        row("temporary network failure", Q, net(E::TemporaryNetworkFailureError), { K::NETWORK });
        row("proxy connection refused", G, net(E::ProxyConnectionRefusedError), { K::NETWORK });
        row("unknown network error", G, net(E::UnknownNetworkError), { K::NETWORK });
        row("ContentReSendError: Qt refused to resend", O, net(E::ContentReSendError), { K::NETWORK });
        row("HTTP/2 GOAWAY protocol error", O, net(E::ProtocolUnknownError), { K::NETWORK });
        row("TLS handshake failed", A, net(E::SslHandshakeFailedError), { K::TLS });
        row("insecure redirect", A, net(E::InsecureRedirectError), { K::AUTH_CONFIG });
        {
            ProviderResponse r;
            r.localConfigError = QStringLiteral("GEMINI_API_KEY is not set");
            row("missing key found before sending", G, r, { K::AUTH_CONFIG });
        }
        row("any 408", O, http(408), { K::TIMEOUT });
        row("3xx with redirects off: wrong base URL", G, http(307, "<html>moved</html>"), { K::AUTH_CONFIG });
        row("301", Q, http(301), { K::AUTH_CONFIG });
        {
            ProviderResponse r = http(200);
            r.networkError = E::RemoteHostClosedError;
            r.text = QStringLiteral("{\"title\":");
            row("2xx body cut off (RemoteHostClosed with 200)", G, r, { K::NETWORK });
        }
        {
            ProviderResponse r = ok("");
            r.bodyTruncated = true;
            row("2xx stream ended before its terminal marker", A, r, { K::NETWORK });
        }

        // --- Gemini (1.6 and 7)
        row("Gemini 400 API_KEY_INVALID", G,
            http(
                400,
                R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}})"),
            { K::AUTH_CONFIG });
        row("Gemini 400 INVALID_ARGUMENT", G,
            http(400, R"({"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}})"),
            { K::REQUEST_REJECTED });
        row("Gemini 400 OUT_OF_RANGE", G, http(400, R"({"error":{"code":400,"message":"x","status":"OUT_OF_RANGE"}})"),
            { K::REQUEST_REJECTED });
        row("Gemini 400 FAILED_PRECONDITION billing", G,
            http(400, R"({"error":{"code":400,"message":"Billing must be enabled.","status":"FAILED_PRECONDITION"}})"),
            { K::QUOTA_EXHAUSTED });
        row("Gemini 400 FAILED_PRECONDITION region", G,
            http(400,
                 R"({"error":{"code":400,"message":"User location is not supported for the API use.","status":"FAILED_PRECONDITION"}})"),
            { K::AUTH_CONFIG });
        row("Gemini 401 UNAUTHENTICATED", G, http(401, R"({"error":{"code":401,"message":"x","status":"UNAUTHENTICATED"}})"),
            { K::AUTH_CONFIG });
        row("Gemini 403 missing key", G,
            http(403, R"({"error":{"code":403,"message":"Method does not allow unregistered callers.","status":"PERMISSION_DENIED"}})"),
            { K::AUTH_CONFIG });
        row("Gemini 403 SERVICE_DISABLED", G,
            http(
                403,
                R"({"error":{"code":403,"message":"disabled","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVICE_DISABLED"}]}})"),
            { K::AUTH_CONFIG });
        row("Gemini 402 prepay depleted", G,
            http(402, R"({"error":{"code":402,"message":"Your prepayment credits are depleted.","status":"RESOURCE_EXHAUSTED"}})"),
            { K::QUOTA_EXHAUSTED });
        row("Gemini 404 unknown model", G, http(404, R"({"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}})"),
            { K::AUTH_CONFIG });
        row("Gemini 429 per-minute with RetryInfo", G,
            http(
                429,
                R"({"error":{"code":429,"message":"You exceeded your current quota. Please retry in 45.57s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"59s"}]}})"),
            { K::RATE_LIMITED, false, 59'000 });
        row("Gemini 429 retry hint only in the message", G,
            http(429, R"({"error":{"code":429,"message":"Quota exceeded. Please retry in 45.57s.","status":"RESOURCE_EXHAUSTED"}})"),
            { K::RATE_LIMITED, false, 45'570 });
        row("Gemini 429 per-day quota", G,
            http(
                429,
                R"({"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}})"),
            { K::QUOTA_EXHAUSTED });
        row("Gemini 429 limit: 0", G,
            http(429, R"({"error":{"code":429,"message":"Quota exceeded for metric: x, limit: 0","status":"RESOURCE_EXHAUSTED"}})"),
            { K::QUOTA_EXHAUSTED });
        row("Gemini 429 MODEL_CAPACITY_EXHAUSTED", G,
            http(
                429,
                R"({"error":{"code":429,"message":"No capacity available for model.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"MODEL_CAPACITY_EXHAUSTED"}]}})"),
            { K::TRANSIENT_SERVER, true });
        row("Gemini 499 CANCELLED not by us", G, http(499, R"({"error":{"code":499,"message":"cancelled","status":"CANCELLED"}})"),
            { K::NETWORK });
        row("Gemini 500 INTERNAL", G,
            http(500, R"({"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}})"),
            { K::TRANSIENT_SERVER, false });
        row("Gemini 503 overloaded", G,
            http(503, R"({"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}})"),
            { K::TRANSIENT_SERVER, true });
        row("Gemini 503 high demand", G,
            http(
                503,
                R"({"error":{"code":503,"message":"This model is currently experiencing high demand. Spikes in demand are usually temporary.","status":"UNAVAILABLE"}})"),
            { K::TRANSIENT_SERVER, true });
        row("Gemini 504 DEADLINE_EXCEEDED", G,
            http(504, R"({"error":{"code":504,"message":"Deadline expired","status":"DEADLINE_EXCEEDED"}})"), { K::TIMEOUT });
        {
            ProviderResponse r = http(200);
            r.blockReason = QStringLiteral("SAFETY");
            row("Gemini 200 promptFeedback.blockReason", G, r, { K::REFUSED });
        }
        row("Gemini MAX_TOKENS", G, ok("MAX_TOKENS", "{\"title\":"), { K::OUTPUT_TRUNCATED });
        for (const char *reason : { "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "LANGUAGE", "IMAGE_SAFETY",
                                    "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION" })
            row(qPrintable(QStringLiteral("Gemini finish %1").arg(QLatin1StringView(reason))), G, ok(reason), { K::REFUSED });
        for (const char *reason : { "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MALFORMED_RESPONSE" })
            row(qPrintable(QStringLiteral("Gemini finish %1").arg(QLatin1StringView(reason))), G, ok(reason), { K::OUTPUT_INVALID });
        row("Gemini MISSING_THOUGHT_SIGNATURE is our bug", G, ok("MISSING_THOUGHT_SIGNATURE"), { K::INTERNAL });
        for (const char *reason : { "OTHER", "FINISH_REASON_UNSPECIFIED", "NO_IMAGE", "IMAGE_OTHER", "SOMETHING_NEW" })
            row(qPrintable(QStringLiteral("Gemini finish %1 is unknown").arg(QLatin1StringView(reason))), G, ok(reason), { K::UNKNOWN });
        row("Gemini STOP but empty text", G, ok("STOP", ""), { K::OUTPUT_INVALID });
        {
            ProviderResponse r = http(200);
            r.malformedBody = QStringLiteral("body is not JSON");
            row("Gemini 200 body not JSON", G, r, { K::OUTPUT_INVALID });
        }
        row("Gemini stream error chunk", G,
            streamError(R"({"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}})"),
            { K::TRANSIENT_SERVER, true });
        row("Gemini STOP with text is a success (parse next)", G, ok("STOP"), { K::UNKNOWN, false, -2 });

        // --- OpenAI (2.4 and 7)
        row("OpenAI 400 invalid_request_error", O,
            http(400, R"({"error":{"message":"Invalid value","type":"invalid_request_error","param":"messages","code":null}})"),
            { K::REQUEST_REJECTED });
        row("OpenAI 400 context_length_exceeded", O,
            http(400,
                 R"({"error":{"message":"too long","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})"),
            { K::REQUEST_REJECTED });
        row("OpenAI 400 content policy", O,
            http(400, R"({"error":{"message":"rejected","type":"invalid_request_error","param":null,"code":"content_policy_violation"}})"),
            { K::REFUSED });
        row("OpenAI 401 invalid_api_key", O,
            http(
                401,
                R"({"error":{"message":"Incorrect API key provided: sk-abc***","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})"),
            { K::AUTH_CONFIG });
        row("OpenAI 403 region", O,
            http(
                403,
                R"({"error":{"message":"Country, region, or territory not supported","type":"request_forbidden","param":null,"code":"unsupported_country_region_territory"}})"),
            { K::AUTH_CONFIG });
        row("OpenAI 404 model_not_found", O,
            http(
                404,
                R"({"error":{"message":"The model `x` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}})"),
            { K::AUTH_CONFIG });
        row("OpenAI 409 conflict", O, http(409, R"({"error":{"message":"conflict","type":"conflict","param":null,"code":null}})"),
            { K::TRANSIENT_SERVER });
        row("OpenAI 413", O, http(413, "request entity too large"), { K::REQUEST_REJECTED });
        row("OpenAI 422", O, http(422, R"({"error":{"message":"unprocessable","type":"invalid_request_error","param":null,"code":null}})"),
            { K::REQUEST_REJECTED });
        {
            ProviderResponse r = http(
                429,
                R"({"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 1.574s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}})");
            row("OpenAI 429 rate_limit_exceeded", O, r, { K::RATE_LIMITED, false, 1574 });
            r.retryAfterHeader = milliseconds(2000);
            row("OpenAI 429 Retry-After header wins", O, r, { K::RATE_LIMITED, false, 2000 });
        }
        row("OpenAI 429 insufficient_quota is billing", O,
            http(
                429,
                R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})"),
            { K::QUOTA_EXHAUSTED });
        row("OpenAI 429 insufficient_quota (older: code null)", O,
            http(429, R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":null}})"),
            { K::QUOTA_EXHAUSTED });
        row("OpenAI 429 credit_balance_exhausted", O,
            http(429, R"({"error":{"message":"credit","type":"insufficient_quota","param":null,"code":"credit_balance_exhausted"}})"),
            { K::QUOTA_EXHAUSTED });
        row("OpenAI 500 server_error", O,
            http(
                500,
                R"({"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})"),
            { K::TRANSIENT_SERVER, false });
        row("OpenAI 502 bad gateway, HTML body", O, http(502, "<html>Bad Gateway</html>"), { K::TRANSIENT_SERVER, false });
        row("OpenAI 503 server_is_overloaded", O,
            http(
                503,
                R"({"error":{"message":"The server is overloaded or not ready yet.","type":"service_unavailable_error","param":null,"code":"server_is_overloaded"}})"),
            { K::TRANSIENT_SERVER, true });
        row("OpenAI 503 slow_down", O, http(503, R"({"error":{"message":"Slow Down","type":"slow_down","param":null,"code":"slow_down"}})"),
            { K::TRANSIENT_SERVER, true });
        row("OpenAI 504 (not a provider deadline)", O, http(504, "gateway timeout"), { K::TRANSIENT_SERVER });
        row("OpenAI finish length", O, ok("length"), { K::OUTPUT_TRUNCATED });
        row("OpenAI finish content_filter", O, ok("content_filter"), { K::REFUSED });
        row("OpenAI finish tool_calls", O, ok("tool_calls"), { K::OUTPUT_INVALID });
        {
            ProviderResponse r = ok("stop", "");
            r.refusal = QStringLiteral("I can't help with that.");
            row("OpenAI message.refusal", O, r, { K::REFUSED });
        }
        row("OpenAI stop with text is a success", O, ok("stop"), { K::UNKNOWN, false, -2 });
        row("OpenAI stream error server_error", O, streamError(R"({"error":{"message":"boom","type":"server_error","code":null}})"),
            { K::TRANSIENT_SERVER });
        row("OpenAI stream error rate_limit_exceeded", O,
            streamError(R"({"error":{"message":"slow","type":"requests","code":"rate_limit_exceeded"}})"), { K::RATE_LIMITED });
        row("OpenAI stream error of unknown type", O, streamError(R"({"error":{"message":"hm","type":"weird","code":null}})"),
            { K::UNKNOWN });
        row("OpenAI stream error with capacity text", O,
            streamError(R"({"error":{"message":"Service temporarily unavailable","type":"weird","code":null}})"),
            { K::TRANSIENT_SERVER, true });

        // --- Anthropic (3.4 and 7)
        row("Anthropic 400 invalid_request_error", A,
            http(400,
                 R"({"type":"error","error":{"type":"invalid_request_error","message":"messages: field required"},"request_id":"req_1"})"),
            { K::REQUEST_REJECTED });
        row("Anthropic 400 spend limit", A,
            http(
                400,
                R"({"type":"error","error":{"type":"invalid_request_error","message":"You have reached your specified workspace API usage limits."},"request_id":"req_1"})"),
            { K::QUOTA_EXHAUSTED });
        row("Anthropic 401", A, http(401, R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"),
            { K::AUTH_CONFIG });
        row("Anthropic 402", A, http(402, R"({"type":"error","error":{"type":"billing_error","message":"billing"}})"),
            { K::QUOTA_EXHAUSTED });
        row("Anthropic 403", A, http(403, R"({"type":"error","error":{"type":"permission_error","message":"no"}})"), { K::AUTH_CONFIG });
        row("Anthropic 404", A, http(404, R"({"type":"error","error":{"type":"not_found_error","message":"model: x"}})"),
            { K::AUTH_CONFIG });
        row("Anthropic 409", A, http(409, R"({"type":"error","error":{"type":"conflict_error","message":"conflict"}})"),
            { K::TRANSIENT_SERVER });
        row("Anthropic 413 from Cloudflare (HTML)", A, http(413, "<html><body>413 Request Entity Too Large</body></html>"),
            { K::REQUEST_REJECTED });
        row("Anthropic 413 request_too_large", A,
            http(413, R"({"type":"error","error":{"type":"request_too_large","message":"too large"}})"), { K::REQUEST_REJECTED });
        {
            ProviderResponse r = http(
                429,
                R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})");
            r.retryAfterHeader = milliseconds(15'000);
            row("Anthropic 429 rate_limit_error + retry-after", A, r, { K::RATE_LIMITED, false, 15'000 });
        }
        row("Anthropic 429 enforced_spend_limit_reached", A,
            http(
                429,
                R"({"type":"error","error":{"type":"rate_limit_error","message":"spend cap","details":{"error_code":"enforced_spend_limit_reached"}}})"),
            { K::QUOTA_EXHAUSTED });
        row("Anthropic 500 api_error", A, http(500, R"({"type":"error","error":{"type":"api_error","message":"Internal server error"}})"),
            { K::TRANSIENT_SERVER, false });
        row("Anthropic 504 timeout_error", A,
            http(504, R"({"type":"error","error":{"type":"timeout_error","message":"Request timed out"}})"), { K::TIMEOUT });
        row("Anthropic 529 overloaded_error", A,
            http(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"), { K::TRANSIENT_SERVER, true });
        row("Anthropic SSE error event overloaded", A,
            streamError(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"), { K::TRANSIENT_SERVER, true });
        row("Anthropic max_tokens", A, ok("max_tokens"), { K::OUTPUT_TRUNCATED });
        row("Anthropic model_context_window_exceeded", A, ok("model_context_window_exceeded"), { K::OUTPUT_TRUNCATED });
        row("Anthropic refusal", A, ok("refusal"), { K::REFUSED });
        row("Anthropic pause_turn is not continued", A, ok("pause_turn"), { K::UNKNOWN });
        row("Anthropic tool_use", A, ok("tool_use"), { K::OUTPUT_INVALID });
        row("Anthropic end_turn is a success", A, ok("end_turn"), { K::UNKNOWN, false, -2 });
        row("Anthropic stop_sequence is a success", A, ok("stop_sequence"), { K::UNKNOWN, false, -2 });

        // --- DashScope / Qwen (4.1, 4.3 and 7)
        row("DashScope 400 data_inspection_failed", Q,
            http(
                400,
                R"({"error":{"code":"data_inspection_failed","param":null,"message":"Input data may contain inappropriate content.","type":"data_inspection_failed"},"id":"chatcmpl-1","request_id":"r"})"),
            { K::REFUSED });
        row("DashScope 400 DataInspectionFailed native", Q,
            http(400, R"({"code":"DataInspectionFailed","message":"Output data may contain inappropriate content.","request_id":"r"})"),
            { K::REFUSED });
        row("DashScope InternalError.Algo.DataInspectionFailed", Q,
            http(400, R"({"code":"InternalError.Algo.DataInspectionFailed","message":"x","request_id":"r"})"), { K::REFUSED });
        row("DashScope FaqRuleBlocked", Q, http(400, R"({"code":"FaqRuleBlocked","message":"x"})"), { K::REFUSED });
        row("DashScope CustomRoleBlocked", Q, http(400, R"({"code":"CustomRoleBlocked","message":"x"})"), { K::REFUSED });
        row("DashScope 400 Arrearage", Q,
            http(
                400,
                R"({"error":{"code":"Arrearage","param":null,"message":"Access denied, please make sure your account is in good standing.","type":"Arrearage"},"id":"c","request_id":"r"})"),
            { K::QUOTA_EXHAUSTED });
        row("DashScope 400 InvalidParameter", Q,
            http(400, R"({"code":"InvalidParameter","message":"Range of input length should be [1, 30720]"})"), { K::REQUEST_REJECTED });
        row("DashScope BadRequest.EmptyInput", Q, http(400, R"({"code":"BadRequest.EmptyInput","message":"x"})"), { K::REQUEST_REJECTED });
        row("DashScope InvalidURL", Q, http(400, R"({"code":"InvalidURL","message":"x"})"), { K::REQUEST_REJECTED });
        row("DashScope 401 InvalidApiKey", Q,
            http(401, R"({"code":"InvalidApiKey","message":"Invalid API-key provided.","request_id":"r"})"), { K::AUTH_CONFIG });
        row("DashScope 401 invalid_api_key (compat)", Q,
            http(401, R"({"error":{"code":"invalid_api_key","message":"Incorrect API key provided.","type":"invalid_request_error"}})"),
            { K::AUTH_CONFIG });
        row("DashScope 403 AccessDenied.Unpurchased", Q, http(403, R"({"code":"AccessDenied.Unpurchased","message":"x"})"),
            { K::AUTH_CONFIG });
        row("DashScope 403 Model.AccessDenied", Q, http(403, R"({"code":"Model.AccessDenied","message":"x"})"), { K::AUTH_CONFIG });
        row("DashScope 403 AllocationQuota.FreeTierOnly", Q, http(403, R"({"code":"AllocationQuota.FreeTierOnly","message":"x"})"),
            { K::QUOTA_EXHAUSTED });
        row("DashScope 404 model_not_found", Q,
            http(404, R"({"error":{"code":"model_not_found","message":"The model does not exist.","type":"invalid_request_error"}})"),
            { K::AUTH_CONFIG });
        row("DashScope 408 RequestTimeOut", Q, http(408, R"({"code":"RequestTimeOut","message":"x"})"), { K::TIMEOUT });
        row("DashScope 413 BadRequest.TooLarge", Q, http(413, R"({"code":"BadRequest.TooLarge","message":"x"})"), { K::REQUEST_REJECTED });
        row("DashScope 429 Throttling.RateQuota", Q,
            http(429, R"({"code":"Throttling.RateQuota","message":"Requests rate limit exceeded"})"), { K::RATE_LIMITED });
        row("DashScope 429 insufficient_quota is a per-minute throttle", Q,
            http(
                429,
                R"({"error":{"code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota"}})"),
            { K::RATE_LIMITED });
        row("DashScope 429 Throttling.AllocationQuota", Q,
            http(429, R"({"code":"Throttling.AllocationQuota","message":"Allocated quota exceeded"})"), { K::RATE_LIMITED });
        row("DashScope 429 LimitRequests", Q, http(429, R"({"code":"LimitRequests","message":"x"})"), { K::RATE_LIMITED });
        row("DashScope 429 Free allocated quota exceeded", Q,
            http(429, R"({"code":"Throttling.AllocationQuota","message":"Free allocated quota exceeded."})"), { K::QUOTA_EXHAUSTED });
        row("DashScope 429 PrepaidBillOverdue", Q, http(429, R"({"code":"PrepaidBillOverdue","message":"x"})"), { K::QUOTA_EXHAUSTED });
        row("DashScope 429 CommodityNotPurchased", Q, http(429, R"({"code":"CommodityNotPurchased","message":"x"})"),
            { K::QUOTA_EXHAUSTED });
        row("DashScope 500 InternalError", Q, http(500, R"({"code":"InternalError","message":"x"})"), { K::TRANSIENT_SERVER, false });
        row("DashScope 500 InternalError.Timeout", Q, http(500, R"({"code":"InternalError.Timeout","message":"x"})"), { K::TIMEOUT });
        row("DashScope 500 ModelServingError wrapping 503 capacity", Q,
            http(
                500,
                R"({"code":"InternalError.Algo.ModelServingError","message":"<5000202> 503 ServiceUnavailable: Too many requests, system capacity limits"})"),
            { K::TRANSIENT_SERVER, true });
        row("DashScope 503 ModelUnavailable", Q,
            http(503, R"({"code":"ModelUnavailable","message":"Model is unavailable, please try again later."})"),
            { K::TRANSIENT_SERVER, true });
        row("DashScope finish length", Q, ok("length"), { K::OUTPUT_TRUNCATED });
        row("DashScope finish \"null\" string with text is a success", Q, ok("null"), { K::UNKNOWN, false, -2 });
        row("DashScope stream error event", Q, streamError(R"({"code":"ModelUnavailable","message":"Model is unavailable"})"),
            { K::TRANSIENT_SERVER, true });

        // --- bodies that do not parse: the status alone decides
        row("unparseable 429", Q, http(429, "Too Many Requests"), { K::RATE_LIMITED });
        row("unparseable 503", A, http(503, ""), { K::TRANSIENT_SERVER, true });
        row("unparseable 401", G, http(401, "nope"), { K::AUTH_CONFIG });
        row("unparseable 418 is not guessed", O, http(418, "teapot"), { K::UNKNOWN });
        row("520 with an HTML body is not guessed transient", G, http(520, "<html><body>origin error</body></html>"), { K::UNKNOWN });
        row("451 unknown to the table", A, http(451, ""), { K::UNKNOWN });
        row("505 unknown to the table", Q, http(505, "nope"), { K::UNKNOWN });
        row("520 with a capacity marker is transient", G, http(520, "the service is overloaded"), { K::TRANSIENT_SERVER, true });
        row("unparseable 501", O, http(501, ""), { K::REQUEST_REJECTED });
        row("unparseable 500 with capacity text", O, http(500, "upstream temporarily unavailable"), { K::TRANSIENT_SERVER, true });
    }

    void classify()
    {
        QFETCH(Provider, provider);
        QFETCH(ProviderResponse, response);
        QFETCH(AbortReason, abortedBy);
        QFETCH(FailureKind, kind);
        QFETCH(bool, capacity);
        QFETCH(qint64, retryAfterMs);

        const std::optional<Failure> f = FailureClassifier::classify(provider, response, abortedBy);
        if (retryAfterMs == -2) { // marks a success: nothing to classify, the text is parsed next
            QVERIFY2(!f, f ? qPrintable(enumName(f->kind) + QStringLiteral(": ") + f->detail) : "");
            return;
        }
        QVERIFY(f.has_value());
        QCOMPARE(f->kind, kind);
        QCOMPARE(f->capacity, capacity);
        QCOMPARE(f->publicCode(), publicCodeFor(kind));
        QVERIFY(!f->detail.isEmpty());
        QVERIFY2(!f->detail.contains(QLatin1Char('\n')), qPrintable(f->detail));
        QVERIFY2(f->detail.size() <= 300, qPrintable(f->detail));
        if (retryAfterMs >= 0) {
            QVERIFY(f->retryAfter.has_value());
            QCOMPARE(f->retryAfter->count(), retryAfterMs);
        }
    }

    void publicCodes_data()
    {
        QTest::addColumn<FailureKind>("kind");
        QTest::addColumn<PublicCode>("code");
        QTest::newRow("TIMEOUT") << K::TIMEOUT << PublicCode::AI_PROVIDER_TIMEOUT;
        QTest::newRow("RATE_LIMITED") << K::RATE_LIMITED << PublicCode::AI_PROVIDER_RATE_LIMITED;
        QTest::newRow("QUOTA_EXHAUSTED") << K::QUOTA_EXHAUSTED << PublicCode::AI_PROVIDER_RATE_LIMITED;
        QTest::newRow("OUTPUT_TRUNCATED") << K::OUTPUT_TRUNCATED << PublicCode::AI_PROVIDER_INVALID_OUTPUT;
        QTest::newRow("OUTPUT_INVALID") << K::OUTPUT_INVALID << PublicCode::AI_PROVIDER_INVALID_OUTPUT;
        QTest::newRow("NETWORK") << K::NETWORK << PublicCode::AI_PROVIDER_ERROR;
        QTest::newRow("TRANSIENT_SERVER") << K::TRANSIENT_SERVER << PublicCode::AI_PROVIDER_ERROR;
        QTest::newRow("AUTH_CONFIG") << K::AUTH_CONFIG << PublicCode::AI_PROVIDER_CONFIG;
        QTest::newRow("TLS") << K::TLS << PublicCode::AI_PROVIDER_CONFIG;
        QTest::newRow("REQUEST_REJECTED") << K::REQUEST_REJECTED << PublicCode::AI_PROVIDER_ERROR;
        QTest::newRow("REFUSED") << K::REFUSED << PublicCode::AI_PROVIDER_REFUSED;
        QTest::newRow("CANCELLED") << K::CANCELLED << PublicCode::GENERATION_CANCELLED;
        QTest::newRow("INTERNAL") << K::INTERNAL << PublicCode::INTERNAL_ERROR;
        QTest::newRow("UNKNOWN") << K::UNKNOWN << PublicCode::AI_PROVIDER_ERROR;
    }

    void publicCodes()
    {
        QFETCH(FailureKind, kind);
        QFETCH(PublicCode, code);
        QCOMPARE(publicCodeFor(kind), code);
    }

    void capacityMarkers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("marked");
        for (const char *t :
             { "HTTP 503", "UNAVAILABLE", "experiencing HIGH DEMAND", "Overloaded", "temporarily unavailable", "Please TRY AGAIN LATER" })
            QTest::newRow(t) << QString::fromLatin1(t) << true;
        for (const char *t : { "internal error", "quota exceeded", "500", "bad request", "" })
            QTest::newRow(qPrintable(QStringLiteral("no marker: '%1'").arg(QLatin1StringView(t)))) << QString::fromLatin1(t) << false;
    }

    void capacityMarkers()
    {
        QFETCH(QString, text);
        QFETCH(bool, marked);
        QCOMPARE(FailureClassifier::hasCapacityMarker(text), marked);
    }

    void retryHints_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("59s") << QStringLiteral("59s") << qint64(59'000);
        QTest::newRow("1.5s") << QStringLiteral("1.5s") << qint64(1500);
        QTest::newRow("gemini message") << QStringLiteral("Quota exceeded. Please retry in 45.57s.") << qint64(45'570);
        QTest::newRow("openai message") << QStringLiteral("Please try again in 1.574s.") << qint64(1574);
        QTest::newRow("ms") << QStringLiteral("try again in 300ms") << qint64(300);
        QTest::newRow("none") << QStringLiteral("Please retry later.") << qint64(-1);
        QTest::newRow("absurd") << QStringLiteral("99999999999s") << qint64(-1);
    }

    void retryHints()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ms);
        const auto hint = FailureClassifier::retryHintFromText(text);
        QCOMPARE(hint ? hint->count() : qint64(-1), ms);
    }

    // docs/contract.md §11.9: a key quoted back by a provider never survives into a record.
    void scrub_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("secrets");
        QTest::addColumn<QString>("mustNotContain");
        const QStringList mine { QStringLiteral("my-configured-key-9f3c") };
        QTest::newRow("configured key anywhere")
            << QStringLiteral("API key not valid: my-configured-key-9f3c.") << mine << QStringLiteral("my-configured-key");
        QTest::newRow("OpenAI bearer") << QStringLiteral("Incorrect API key provided: Bearer sk-proj-abcdefghijklmnop1234") << QStringList()
                                       << QStringLiteral("abcdefghijklmnop");
        QTest::newRow("bare sk- key") << QStringLiteral("key sk-abcdefghijklmnopqrstu rejected") << QStringList()
                                      << QStringLiteral("abcdefghijklm");
        QTest::newRow("Gemini AIza key") << QStringLiteral("API key AIzaSyA1234567890abcdefghijklmnop not valid") << QStringList()
                                         << QStringLiteral("AIzaSyA123456");
        QTest::newRow("key= in a URL") << QStringLiteral("GET /v1beta/models?key=supersecretvalue1 failed") << QStringList()
                                       << QStringLiteral("supersecretvalue");
        QTest::newRow("x-api-key header") << QStringLiteral("x-api-key: sk-ant-api03-zzzzzzzzzzzz invalid") << QStringList()
                                          << QStringLiteral("zzzzzzzzzzzz");
        QTest::newRow("terminal escapes") << QStringLiteral("bad\x1b]0;pwned\x07 request\x1b[2J") << QStringList()
                                          << QStringLiteral("\x1b");
    }

    void scrub()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, secrets);
        QFETCH(QString, mustNotContain);
        const QString out = SecretScrubber::scrub(text, secrets);
        QVERIFY2(!out.contains(mustNotContain), qPrintable(out));
        QVERIFY2(out.contains(u'…') || mustNotContain.startsWith(u'\x1b'), qPrintable(out)); // the tail stays, so it can be matched
    }
};

QTEST_GUILESS_MAIN(tst_FailureClassifier)
#include "tst_failureclassifier.moc"
