// SPDX-License-Identifier: MIT
#include "simwire.h"

#include "contract/providerregistry.h"
#include "httpserving.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
// Gemini frames events with CRLF; OpenAI, DashScope and Anthropic with bare LF (some clients split
// only on "\n\n", so the difference matters).
QByteArray sse(Provider provider, const QByteArray &data, const QByteArray &event = {})
{
    const QByteArray eol = dialectOf(provider) == WireDialect::Gemini ? QByteArray("\r\n") : QByteArray("\n");
    QByteArray out;
    if (!event.isEmpty())
        out += "event: " + event + eol;
    return out + "data: " + data + eol + eol;
}

const char *geminiRpcStatus(int status)
{
    switch (status) {
    case 400:
        return "INVALID_ARGUMENT";
    case 401:
        return "UNAUTHENTICATED";
    case 403:
        return "PERMISSION_DENIED";
    case 404:
        return "NOT_FOUND";
    case 409:
        return "ABORTED";
    case 429:
        return "RESOURCE_EXHAUSTED";
    case 499:
        return "CANCELLED";
    case 501:
        return "UNIMPLEMENTED";
    case 503:
        return "UNAVAILABLE";
    case 504:
        return "DEADLINE_EXCEEDED";
    default:
        // Google's status for any other 5xx; a 4xx outside the table (418, 451, …) has none: Gemini never
        // sends one, so no Gemini body can honestly carry it (SimWire::error sends a proxy's answer).
        return status >= 500 ? "INTERNAL" : nullptr;
    }
}

QStringList split(const QString &text, int pieces)
{
    QStringList out;
    if (text.isEmpty() || pieces <= 1)
        return { text };
    const qsizetype step = std::max<qsizetype>(1, text.size() / pieces);
    for (qsizetype i = 0; i < text.size(); i += step) {
        qsizetype n = std::min(step, text.size() - i);
        if (i + n < text.size() && text.at(i + n - 1).isHighSurrogate())
            ++n; // never split a surrogate pair
        out << text.mid(i, n);
        i += n - step;
    }
    return out;
}

QString finishWord(Provider p, SimWire::Ending e)
{
    switch (dialectOf(p)) {
    case WireDialect::Gemini:
        return e == SimWire::Ending::MaxTokens ? QStringLiteral("MAX_TOKENS") : QStringLiteral("STOP");
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
        return e == SimWire::Ending::MaxTokens ? QStringLiteral("length") : QStringLiteral("stop");
    case WireDialect::Anthropic:
        return e == SimWire::Ending::MaxTokens ? QStringLiteral("max_tokens")
            : e == SimWire::Ending::Refused    ? QStringLiteral("refusal")
                                               : QStringLiteral("end_turn");
    }
    return {};
}

QJsonObject geminiUsage(TokenUsage u)
{
    return QJsonObject { { QStringLiteral("promptTokenCount"), u.input },
                         { QStringLiteral("candidatesTokenCount"), u.output },
                         { QStringLiteral("thoughtsTokenCount"), 0 },
                         { QStringLiteral("totalTokenCount"), u.input + u.output } };
}

QJsonObject geminiChunk(const QString &text, const QString &finish, bool withThought)
{
    QJsonArray parts;
    if (withThought)
        parts.append(
            QJsonObject { { QStringLiteral("text"), QStringLiteral("Planning four panels…") }, { QStringLiteral("thought"), true } });
    if (!text.isEmpty())
        parts.append(QJsonObject { { QStringLiteral("text"), text } });
    QJsonObject candidate { { QStringLiteral("content"),
                              QJsonObject { { QStringLiteral("role"), QStringLiteral("model") }, { QStringLiteral("parts"), parts } } },
                            { QStringLiteral("index"), 0 } };
    if (!finish.isEmpty())
        candidate.insert(QStringLiteral("finishReason"), finish);
    return QJsonObject { { QStringLiteral("candidates"), QJsonArray { candidate } } };
}

QJsonObject openAiUsage(TokenUsage u)
{
    return QJsonObject { { QStringLiteral("prompt_tokens"), u.input },
                         { QStringLiteral("completion_tokens"), u.output },
                         { QStringLiteral("total_tokens"), u.input + u.output } };
}

} // namespace

QByteArray SimWire::body(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage)
{
    switch (dialectOf(provider)) {
    case WireDialect::Gemini: {
        if (ending == Ending::Refused)
            return compact(QJsonObject {
                { QStringLiteral("promptFeedback"), QJsonObject { { QStringLiteral("blockReason"), QStringLiteral("SAFETY") } } },
                { QStringLiteral("usageMetadata"), geminiUsage(TokenUsage { usage.input, 0 }) },
                { QStringLiteral("modelVersion"), model } });
        QJsonObject o = geminiChunk(text, finishWord(provider, ending), true);
        o.insert(QStringLiteral("usageMetadata"), geminiUsage(usage));
        o.insert(QStringLiteral("modelVersion"), model);
        o.insert(QStringLiteral("responseId"), QStringLiteral("sim-response"));
        return compact(o);
    }
    case WireDialect::OpenAI:
    case WireDialect::DashScope: {
        QJsonObject message { { QStringLiteral("role"), QStringLiteral("assistant") } };
        if (ending == Ending::Refused) {
            message.insert(QStringLiteral("content"), QJsonValue());
            message.insert(QStringLiteral("refusal"), QStringLiteral("I can't help with that request."));
        } else {
            message.insert(QStringLiteral("content"), text);
            message.insert(QStringLiteral("refusal"), QJsonValue());
        }
        return compact(QJsonObject {
            { QStringLiteral("id"), QStringLiteral("chatcmpl-sim") },
            { QStringLiteral("object"), QStringLiteral("chat.completion") },
            { QStringLiteral("created"), 1760400000 },
            { QStringLiteral("model"), model },
            { QStringLiteral("choices"),
              QJsonArray { QJsonObject { { QStringLiteral("index"), 0 },
                                         { QStringLiteral("message"), message },
                                         { QStringLiteral("finish_reason"), finishWord(provider, ending) } } } },
            { QStringLiteral("usage"), openAiUsage(usage) },
        });
    }
    case WireDialect::Anthropic: {
        QJsonArray content { QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") },
                                           { QStringLiteral("thinking"), QStringLiteral("Planning four panels…") },
                                           { QStringLiteral("signature"), QStringLiteral("sim") } } };
        if (ending != Ending::Refused)
            content.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), text } });
        return compact(QJsonObject {
            { QStringLiteral("id"), QStringLiteral("msg_sim") },
            { QStringLiteral("type"), QStringLiteral("message") },
            { QStringLiteral("role"), QStringLiteral("assistant") },
            { QStringLiteral("model"), model },
            { QStringLiteral("content"), content },
            { QStringLiteral("stop_reason"), finishWord(provider, ending) },
            { QStringLiteral("stop_sequence"), QJsonValue() },
            { QStringLiteral("usage"),
              QJsonObject { { QStringLiteral("input_tokens"), usage.input }, { QStringLiteral("output_tokens"), usage.output } } },
        });
    }
    }
    return {};
}

namespace {

QList<QByteArray> geminiStream(Provider provider, const QString &model, const QString &text, SimWire::Ending ending, TokenUsage usage,
                               const QStringList &parts)
{
    QList<QByteArray> out;
    if (ending == SimWire::Ending::Refused)
        return { sse(provider, SimWire::body(provider, model, text, ending, usage)) };
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const bool last = i == parts.size() - 1;
        QJsonObject chunk = geminiChunk(parts.at(i), last ? finishWord(provider, ending) : QString(), i == 0);
        if (last) {
            chunk.insert(QStringLiteral("usageMetadata"), geminiUsage(usage));
            chunk.insert(QStringLiteral("modelVersion"), model);
        }
        out << sse(provider, compact(chunk));
    }
    return out;
}

QList<QByteArray> openAiStream(Provider provider, const QString &model, SimWire::Ending ending, TokenUsage usage, const QStringList &parts,
                               bool includeUsage)
{
    QList<QByteArray> out;
    auto chunk = [&](const QJsonObject &delta, const QJsonValue &finish) {
        return sse(provider,
                   compact(QJsonObject { { QStringLiteral("id"), QStringLiteral("chatcmpl-sim") },
                                         { QStringLiteral("object"), QStringLiteral("chat.completion.chunk") },
                                         { QStringLiteral("created"), 1760400000 },
                                         { QStringLiteral("model"), model },
                                         { QStringLiteral("choices"),
                                           QJsonArray { QJsonObject { { QStringLiteral("index"), 0 },
                                                                      { QStringLiteral("delta"), delta },
                                                                      { QStringLiteral("finish_reason"), finish } } } } }));
    };
    out << chunk(QJsonObject { { QStringLiteral("role"), QStringLiteral("assistant") }, { QStringLiteral("content"), QString() } },
                 QJsonValue());
    if (ending == SimWire::Ending::Refused)
        out << chunk(QJsonObject { { QStringLiteral("refusal"), QStringLiteral("I can't help with that request.") } }, QJsonValue());
    for (const QString &p : parts)
        out << chunk(QJsonObject { { QStringLiteral("content"), p } }, QJsonValue());
    out << chunk(QJsonObject {}, finishWord(provider, ending));
    if (includeUsage)
        out << sse(provider,
                   compact(QJsonObject { { QStringLiteral("id"), QStringLiteral("chatcmpl-sim") },
                                         { QStringLiteral("object"), QStringLiteral("chat.completion.chunk") },
                                         { QStringLiteral("created"), 1760400000 },
                                         { QStringLiteral("model"), model },
                                         { QStringLiteral("choices"), QJsonArray {} },
                                         { QStringLiteral("usage"), openAiUsage(usage) } }));
    out << sse(provider, "[DONE]");
    return out;
}

QList<QByteArray> anthropicStream(Provider provider, const QString &model, SimWire::Ending ending, TokenUsage usage,
                                  const QStringList &parts)
{
    QList<QByteArray> out;
    out << sse(provider,
               compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_start") },
                                     { QStringLiteral("message"),
                                       QJsonObject { { QStringLiteral("id"), QStringLiteral("msg_sim") },
                                                     { QStringLiteral("type"), QStringLiteral("message") },
                                                     { QStringLiteral("role"), QStringLiteral("assistant") },
                                                     { QStringLiteral("model"), model },
                                                     { QStringLiteral("content"), QJsonArray {} },
                                                     { QStringLiteral("stop_reason"), QJsonValue() },
                                                     { QStringLiteral("usage"),
                                                       QJsonObject { { QStringLiteral("input_tokens"), usage.input },
                                                                     { QStringLiteral("output_tokens"), 1 } } } } } }),
               "message_start");
    out << sse(provider,
               compact(QJsonObject {
                   { QStringLiteral("type"), QStringLiteral("content_block_start") },
                   { QStringLiteral("index"), 0 },
                   { QStringLiteral("content_block"),
                     QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") }, { QStringLiteral("thinking"), QString() } } } }),
               "content_block_start");
    out << sse(provider,
               compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                                     { QStringLiteral("index"), 0 },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking_delta") },
                                                     { QStringLiteral("thinking"), QStringLiteral("Planning…") } } } }),
               "content_block_delta");
    out << sse(provider,
               compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                                     { QStringLiteral("index"), 0 },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("type"), QStringLiteral("signature_delta") },
                                                     { QStringLiteral("signature"), QStringLiteral("c2ltLXNpZ25hdHVyZQ==") } } } }),
               "content_block_delta");
    out << sse(provider,
               compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_stop") }, { QStringLiteral("index"), 0 } }),
               "content_block_stop");
    out << sse(provider, compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("ping") } }), "ping");
    if (ending != SimWire::Ending::Refused) {
        out << sse(provider,
                   compact(QJsonObject {
                       { QStringLiteral("type"), QStringLiteral("content_block_start") },
                       { QStringLiteral("index"), 1 },
                       { QStringLiteral("content_block"),
                         QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), QString() } } } }),
                   "content_block_start");
        for (const QString &p : parts)
            out << sse(provider,
                       compact(QJsonObject {
                           { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                           { QStringLiteral("index"), 1 },
                           { QStringLiteral("delta"),
                             QJsonObject { { QStringLiteral("type"), QStringLiteral("text_delta") }, { QStringLiteral("text"), p } } } }),
                       "content_block_delta");
        out << sse(
            provider,
            compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_stop") }, { QStringLiteral("index"), 1 } }),
            "content_block_stop");
    }
    out << sse(provider,
               compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_delta") },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("stop_reason"), finishWord(provider, ending) },
                                                     { QStringLiteral("stop_sequence"), QJsonValue() } } },
                                     { QStringLiteral("usage"), QJsonObject { { QStringLiteral("output_tokens"), usage.output } } } }),
               "message_delta");
    out << sse(provider, compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_stop") } }), "message_stop");
    return out;
}

} // namespace

QList<QByteArray> SimWire::stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage, int pieces,
                                  bool includeUsage)
{
    const QStringList parts = ending == Ending::Refused ? QStringList {} : split(text, pieces);
    switch (dialectOf(provider)) {
    case WireDialect::Gemini:
        return geminiStream(provider, model, text, ending, usage, parts);
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
        return openAiStream(provider, model, ending, usage, parts, includeUsage);
    case WireDialect::Anthropic:
        return anthropicStream(provider, model, ending, usage, parts);
    }
    return {};
}

QByteArray SimWire::streamErrorEvent(Provider provider)
{
    switch (dialectOf(provider)) {
    case WireDialect::Gemini:
        return sse(provider,
                   R"({"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}})");
    case WireDialect::OpenAI:
        return sse(
            provider,
            R"({"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":"server_is_overloaded"}})");
    case WireDialect::DashScope:
        return sse(
            provider,
            R"({"error":{"code":"ModelUnavailable","param":null,"message":"Model is unavailable, please try again later.","type":"ModelUnavailable"}})");
    case WireDialect::Anthropic:
        return sse(provider, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", "error");
    }
    return {};
}

QByteArray SimWire::malformedStreamEvent(Provider provider)
{
    switch (dialectOf(provider)) {
    case WireDialect::Gemini:
        return sse(provider, R"({"candidates": [ {"content": oops)");
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
        return sse(provider,
                   R"({"id":"chatcmpl-sim","object":"chat.completion.chunk","created":1760400000,"choices":[{"index":0,"delta": oops)");
    case WireDialect::Anthropic:
        return sse(provider, R"({"type":"content_block_delta","index":1,"delta": oops)", "content_block_delta");
    }
    return {};
}

QByteArray SimWire::malformedBody(Provider provider)
{
    switch (dialectOf(provider)) {
    case WireDialect::Gemini:
        return R"({"candidates": [{"content": {"parts": [{"text": "{\"title\")";
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
        return R"({"id":"chatcmpl-sim","object":"chat.completion","created":1760400000,"choices":[{"index":0,"message":{"role":"assistant","content":"{\"title\")";
    case WireDialect::Anthropic:
        return R"({"id":"msg_sim","type":"message","role":"assistant","content":[{"type":"text","text":"{\"title\")";
    }
    return {};
}

QByteArray SimWire::requestIdHeader(Provider provider)
{
    switch (dialectOf(provider)) {
    case WireDialect::Anthropic:
        return "request-id";
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
        return "x-request-id";
    case WireDialect::Gemini:
        break;
    }
    return {};
}

namespace {

// The failures SimWire::error() knows by name; Other is a provider's plain internal error.
enum class Failure { Overloaded, RateLimited, Unauthenticated, Auth, Quota, BadRequest, NotFound, Timeout, Other };

Failure failureNamed(const QString &name)
{
    static const std::pair<QStringView, Failure> kNames[] = {
        { u"overloaded", Failure::Overloaded },
        { u"rate_limited", Failure::RateLimited },
        { u"unauthenticated", Failure::Unauthenticated },
        { u"auth", Failure::Auth },
        { u"quota", Failure::Quota },
        { u"bad_request", Failure::BadRequest },
        { u"not_found", Failure::NotFound },
        { u"timeout", Failure::Timeout },
    };
    for (const auto &[word, failure] : kNames) {
        if (name == word)
            return failure;
    }
    return Failure::Other;
}

SimWire::ErrorReply geminiError(Failure f, const QByteArray &retrySeconds)
{
    auto reply = [](int status, const char *rpc, const QByteArray &message, const QByteArray &details = "[]") {
        return SimWire::ErrorReply { status,
                                     QByteArray(R"({"error":{"code":)") + QByteArray::number(status) + R"(,"message":")" + message
                                         + R"(","status":")" + rpc + R"(","details":)" + details + "}}",
                                     {} };
    };
    // Gemini never sends Retry-After: the delay is the RetryInfo detail in the body.
    switch (f) {
    case Failure::Overloaded:
        return reply(503, "UNAVAILABLE",
                     "This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.");
    case Failure::RateLimited:
        return reply(
            429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in " + retrySeconds + "s.",
            R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":")"
                + retrySeconds + R"(s"}])");
    case Failure::Unauthenticated:
        return reply(403, "PERMISSION_DENIED",
                     "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form "
                     "of API consumer identity to call this API.");
    case Failure::Auth:
        return reply(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
                     R"([{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}])");
    case Failure::Quota:
        return reply(
            429, "RESOURCE_EXHAUSTED", "Quota exceeded for metric: generate_content_free_tier_requests, limit: 0",
            R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}])");
    case Failure::BadRequest:
        return reply(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    case Failure::NotFound:
        return reply(404, "NOT_FOUND", "models/unknown is not found for API version v1beta.");
    case Failure::Timeout:
        return reply(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.");
    case Failure::Other:
        break;
    }
    return reply(500, "INTERNAL", "An internal error has occurred.");
}

SimWire::ErrorReply openAiError(Failure f, int retryAfterSeconds)
{
    auto reply = [](int status, const char *type, const char *code, const QByteArray &message) {
        return SimWire::ErrorReply { status,
                                     QByteArray(R"({"error":{"message":")") + message + R"(","type":")" + type + R"(","param":null,"code":)"
                                         + (code ? QByteArray("\"") + code + "\"" : QByteArray("null")) + "}}",
                                     {} };
    };
    switch (f) {
    case Failure::Overloaded:
        return reply(503, "service_unavailable_error", "server_is_overloaded", "The server is overloaded or not ready yet.");
    case Failure::RateLimited:
        return reply(429, "requests", "rate_limit_exceeded",
                     "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in "
                         + QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 20) + "s.");
    case Failure::Unauthenticated:
        return reply(401, "invalid_request_error", nullptr,
                     "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. "
                     "Authorization: Bearer YOUR_KEY).");
    case Failure::Auth:
        return reply(401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-sim***.");
    case Failure::Quota:
        return reply(429, "insufficient_quota", "insufficient_quota",
                     "You exceeded your current quota, please check your plan and billing details.");
    case Failure::BadRequest:
        return reply(400, "invalid_request_error", nullptr, "Invalid value for 'messages'.");
    case Failure::NotFound:
        return reply(404, "invalid_request_error", "model_not_found",
                     "The model `unknown` does not exist or you do not have access to it.");
    case Failure::Timeout:
        return reply(408, "timeout", nullptr, "Request timed out.");
    case Failure::Other:
        break;
    }
    return reply(500, "server_error", nullptr, "The server had an error while processing your request.");
}

SimWire::ErrorReply dashScopeError(Failure f)
{
    auto reply = [](int status, const char *code, const char *message) {
        return SimWire::ErrorReply { status,
                                     QByteArray(R"({"error":{"code":")") + code + R"(","param":null,"message":")" + message
                                         + R"(","type":")" + code + R"("},"id":"chatcmpl-sim","request_id":"sim-request"})",
                                     {} };
    };
    switch (f) {
    case Failure::Overloaded:
        return reply(503, "ModelUnavailable", "Model is unavailable, please try again later.");
    case Failure::RateLimited:
        return reply(429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
    case Failure::Auth:
    case Failure::Unauthenticated:
        return reply(401, "invalid_api_key", "Incorrect API key provided.");
    case Failure::Quota:
        return reply(400, "Arrearage", "Access denied, please make sure your account is in good standing.");
    case Failure::BadRequest:
        return reply(400, "InvalidParameter", "Range of input length should be [1, 30720]");
    case Failure::NotFound:
        return reply(404, "model_not_found", "The model does not exist.");
    case Failure::Timeout:
        return reply(408, "RequestTimeOut", "Request timed out.");
    case Failure::Other:
        break;
    }
    return reply(500, "InternalError", "An internal error has occurred.");
}

SimWire::ErrorReply anthropicError(Failure f)
{
    auto reply = [](int status, const char *type, const char *message) {
        return SimWire::ErrorReply { status,
                                     QByteArray(R"({"type":"error","error":{"type":")") + type + R"(","message":")" + message
                                         + R"("},"request_id":"req_sim"})",
                                     {} };
    };
    switch (f) {
    case Failure::Overloaded:
        return reply(529, "overloaded_error", "Overloaded");
    case Failure::RateLimited:
        return reply(429, "rate_limit_error", "Number of requests has exceeded your per-minute rate limit.");
    case Failure::Unauthenticated:
        return reply(401, "authentication_error", "x-api-key header is required");
    case Failure::Auth:
        return reply(401, "authentication_error", "invalid x-api-key");
    case Failure::Quota:
        return reply(402, "billing_error", "Your credit balance is too low to access the API.");
    case Failure::BadRequest:
        return reply(400, "invalid_request_error", "messages: field required");
    case Failure::NotFound:
        return reply(404, "not_found_error", "model: unknown");
    case Failure::Timeout:
        return reply(504, "timeout_error", "Request timed out.");
    case Failure::Other:
        break;
    }
    return reply(500, "api_error", "Internal server error");
}

} // namespace

SimWire::ErrorReply SimWire::error(Provider provider, const QString &name, int statusOverride, int retryAfterSeconds)
{
    const Failure failure = failureNamed(name);
    const WireDialect dialect = dialectOf(provider);
    ErrorReply r;
    switch (dialect) {
    case WireDialect::Gemini:
        r = geminiError(failure, QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 30));
        break;
    case WireDialect::OpenAI:
        r = openAiError(failure, retryAfterSeconds);
        break;
    case WireDialect::DashScope:
        r = dashScopeError(failure);
        break;
    case WireDialect::Anthropic:
        r = anthropicError(failure);
        break;
    }
    if (statusOverride > 0 && statusOverride != r.status) {
        r.status = statusOverride;
        if (dialect == WireDialect::Gemini && !geminiRpcStatus(statusOverride)) {
            // A status Gemini never sends came from something in front of it (a proxy, a gateway): its
            // plain answer, not a Gemini body claiming a Google status that does not go with it.
            r.body = QByteArray::number(statusOverride) + ' ' + httpReasonPhrase(statusOverride) + '\n';
            r.contentType = "text/plain; charset=utf-8";
        } else if (dialect == WireDialect::Gemini) { // Gemini's body repeats the status: keep the two in agreement
            QJsonObject root = QJsonDocument::fromJson(r.body).object();
            QJsonObject e = root.value(QLatin1StringView("error")).toObject();
            e.insert(QStringLiteral("code"), statusOverride);
            e.insert(QStringLiteral("status"), QString::fromLatin1(geminiRpcStatus(statusOverride)));
            root.insert(QStringLiteral("error"), e);
            r.body = compact(root);
        }
    }
    // Where each provider says when to come back (Gemini: only in the body, above).
    if (retryAfterSeconds >= 0 && dialect != WireDialect::Gemini) {
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray::number(retryAfterSeconds)));
    } else if (dialect == WireDialect::OpenAI && failure == Failure::RateLimited) {
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("20"))); // the same 20 s the message names
    }
    return r;
}

QString SimWire::storyFromRequest(Provider provider, const QByteArray &requestBody)
{
    const QJsonObject root = QJsonDocument::fromJson(requestBody).object();
    QString text;
    switch (dialectOf(provider)) {
    case WireDialect::Gemini: {
        const QJsonArray contents = root.value(QLatin1StringView("contents")).toArray();
        for (const QJsonValue &c : contents) {
            const QJsonArray parts = c.toObject().value(QLatin1StringView("parts")).toArray();
            for (const QJsonValue &p : parts)
                text += p.toObject().value(QLatin1StringView("text")).toString();
        }
        break;
    }
    case WireDialect::OpenAI:
    case WireDialect::DashScope:
    case WireDialect::Anthropic: {
        const QJsonArray messages = root.value(QLatin1StringView("messages")).toArray();
        for (const QJsonValue &m : messages) {
            const QJsonObject mo = m.toObject();
            if (mo.value(QLatin1StringView("role")).toString() == u"user")
                text += mo.value(QLatin1StringView("content")).toString();
        }
        break;
    }
    }
    static const QString prefix = QStringLiteral("Story:\n");
    return text.startsWith(prefix) ? text.mid(prefix.size()) : text;
}

QByteArray SimWire::imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage)
{
    // The base64 text goes in after serialisation: it needs no escaping, and putting ~90 KB through
    // QJsonDocument would cost more than the rest of the answer.
    static const QByteArray placeholder = QByteArrayLiteral("@bullpen-sim-image-base64@");
    QJsonArray parts;
    if (!imageBase64.isEmpty())
        parts.append(QJsonObject {
            { QStringLiteral("inlineData"),
              QJsonObject { { QStringLiteral("mimeType"), mime }, { QStringLiteral("data"), QString::fromLatin1(placeholder) } } } });
    QByteArray body = compact(QJsonObject {
        { QStringLiteral("candidates"),
          QJsonArray {
              QJsonObject { { QStringLiteral("content"),
                              QJsonObject { { QStringLiteral("role"), QStringLiteral("model") }, { QStringLiteral("parts"), parts } } },
                            { QStringLiteral("finishReason"), QStringLiteral("STOP") },
                            { QStringLiteral("index"), 0 } } } },
        { QStringLiteral("usageMetadata"), geminiUsage(usage) },
        { QStringLiteral("modelVersion"), model },
    });
    if (!imageBase64.isEmpty())
        body.replace(body.indexOf(placeholder), placeholder.size(), imageBase64);
    return body;
}

bool SimWire::isImageRequest(Provider provider, const QByteArray &requestBody)
{
    if (dialectOf(provider) != WireDialect::Gemini)
        return false;
    const QJsonArray modalities = QJsonDocument::fromJson(requestBody)
                                      .object()
                                      .value(QLatin1StringView("generationConfig"))
                                      .toObject()
                                      .value(QLatin1StringView("responseModalities"))
                                      .toArray();
    return modalities.contains(QStringLiteral("IMAGE"));
}

bool SimWire::requestWantsStream(Provider provider, const QByteArray &requestBody, const QString &path)
{
    if (dialectOf(provider) == WireDialect::Gemini)
        return path.endsWith(QLatin1StringView(":streamGenerateContent"));
    return QJsonDocument::fromJson(requestBody).object().value(QLatin1StringView("stream")).toBool();
}

} // namespace bullpen
