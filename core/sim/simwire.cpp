// SPDX-License-Identifier: MIT
#include "simwire.h"

#include "contract/providerregistry.h"

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
        return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
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

QList<QByteArray> SimWire::stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage, int pieces,
                                  bool includeUsage)
{
    QList<QByteArray> out;
    const QStringList parts = ending == Ending::Refused ? QStringList {} : split(text, pieces);
    switch (dialectOf(provider)) {
    case WireDialect::Gemini: {
        if (ending == Ending::Refused) {
            out << sse(provider, body(provider, model, text, ending, usage));
            break;
        }
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const bool last = i == parts.size() - 1;
            QJsonObject chunk = geminiChunk(parts.at(i), last ? finishWord(provider, ending) : QString(), i == 0);
            if (last) {
                chunk.insert(QStringLiteral("usageMetadata"), geminiUsage(usage));
                chunk.insert(QStringLiteral("modelVersion"), model);
            }
            out << sse(provider, compact(chunk));
        }
        break;
    }
    case WireDialect::OpenAI:
    case WireDialect::DashScope: {
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
        if (ending == Ending::Refused)
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
        break;
    }
    case WireDialect::Anthropic: {
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
                   compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_start") },
                                         { QStringLiteral("index"), 0 },
                                         { QStringLiteral("content_block"),
                                           QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") },
                                                         { QStringLiteral("thinking"), QString() } } } }),
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
        out << sse(
            provider,
            compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_stop") }, { QStringLiteral("index"), 0 } }),
            "content_block_stop");
        out << sse(provider, compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("ping") } }), "ping");
        if (ending != Ending::Refused) {
            out << sse(provider,
                       compact(QJsonObject {
                           { QStringLiteral("type"), QStringLiteral("content_block_start") },
                           { QStringLiteral("index"), 1 },
                           { QStringLiteral("content_block"),
                             QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), QString() } } } }),
                       "content_block_start");
            for (const QString &p : parts)
                out << sse(provider,
                           compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                                                 { QStringLiteral("index"), 1 },
                                                 { QStringLiteral("delta"),
                                                   QJsonObject { { QStringLiteral("type"), QStringLiteral("text_delta") },
                                                                 { QStringLiteral("text"), p } } } }),
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
        break;
    }
    }
    return out;
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

SimWire::ErrorReply SimWire::error(Provider provider, const QString &name, int statusOverride, int retryAfterSeconds)
{
    ErrorReply r;
    auto gemini = [&](int status, const char *rpc, const char *message, const char *details = "[]") {
        r.status = status;
        r.body = QByteArray(R"({"error":{"code":)") + QByteArray::number(status) + R"(,"message":")" + message + R"(","status":")" + rpc
            + R"(","details":)" + details + "}}";
    };
    auto openai = [&](int status, const char *type, const char *code, const char *message) {
        r.status = status;
        r.body = QByteArray(R"({"error":{"message":")") + message + R"(","type":")" + type + R"(","param":null,"code":)"
            + (code ? QByteArray("\"") + code + "\"" : QByteArray("null")) + "}}";
    };
    auto dashscope = [&](int status, const char *code, const char *message) {
        r.status = status;
        r.body = QByteArray(R"({"error":{"code":")") + code + R"(","param":null,"message":")" + message + R"(","type":")" + code
            + R"("},"id":"chatcmpl-sim","request_id":"sim-request"})";
    };
    auto anthropic = [&](int status, const char *type, const char *message) {
        r.status = status;
        r.body = QByteArray(R"({"type":"error","error":{"type":")") + type + R"(","message":")" + message + R"("},"request_id":"req_sim"})";
    };

    const bool overloaded = name == u"overloaded", rate = name == u"rate_limited", auth = name == u"auth", quota = name == u"quota",
               bad = name == u"bad_request", notFound = name == u"not_found", timeout = name == u"timeout",
               unauthenticated = name == u"unauthenticated";
    const QByteArray retrySeconds = QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 30);
    switch (dialectOf(provider)) {
    case WireDialect::Gemini:
        // Gemini never sends Retry-After: the delay is the RetryInfo detail in the body.
        if (overloaded)
            gemini(503, "UNAVAILABLE",
                   "This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.");
        else if (rate)
            gemini(
                429, "RESOURCE_EXHAUSTED",
                QByteArray("You exceeded your current quota. Please retry in " + retrySeconds + "s.").constData(),
                QByteArray(
                    R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":")"
                    + retrySeconds + R"(s"}])")
                    .constData());
        else if (unauthenticated)
            gemini(403, "PERMISSION_DENIED",
                   "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of "
                   "API consumer identity to call this API.");
        else if (auth)
            gemini(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
                   R"([{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}])");
        else if (quota)
            gemini(
                429, "RESOURCE_EXHAUSTED", "Quota exceeded for metric: generate_content_free_tier_requests, limit: 0",
                R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}])");
        else if (bad)
            gemini(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
        else if (notFound)
            gemini(404, "NOT_FOUND", "models/unknown is not found for API version v1beta.");
        else if (timeout)
            gemini(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.");
        else
            gemini(500, "INTERNAL", "An internal error has occurred.");
        break;
    case WireDialect::OpenAI:
        if (overloaded)
            openai(503, "service_unavailable_error", "server_is_overloaded", "The server is overloaded or not ready yet.");
        else if (rate)
            openai(429, "requests", "rate_limit_exceeded",
                   QByteArray("Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in "
                              + QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 20) + "s.")
                       .constData());
        else if (unauthenticated)
            openai(401, "invalid_request_error", nullptr,
                   "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. "
                   "Authorization: Bearer YOUR_KEY).");
        else if (auth)
            openai(401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-sim***.");
        else if (quota)
            openai(429, "insufficient_quota", "insufficient_quota",
                   "You exceeded your current quota, please check your plan and billing details.");
        else if (bad)
            openai(400, "invalid_request_error", nullptr, "Invalid value for 'messages'.");
        else if (notFound)
            openai(404, "invalid_request_error", "model_not_found", "The model `unknown` does not exist or you do not have access to it.");
        else if (timeout)
            openai(408, "timeout", nullptr, "Request timed out.");
        else
            openai(500, "server_error", nullptr, "The server had an error while processing your request.");
        break;
    case WireDialect::DashScope:
        if (overloaded)
            dashscope(503, "ModelUnavailable", "Model is unavailable, please try again later.");
        else if (rate)
            dashscope(429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
        else if (auth || unauthenticated)
            dashscope(401, "invalid_api_key", "Incorrect API key provided.");
        else if (quota)
            dashscope(400, "Arrearage", "Access denied, please make sure your account is in good standing.");
        else if (bad)
            dashscope(400, "InvalidParameter", "Range of input length should be [1, 30720]");
        else if (notFound)
            dashscope(404, "model_not_found", "The model does not exist.");
        else if (timeout)
            dashscope(408, "RequestTimeOut", "Request timed out.");
        else
            dashscope(500, "InternalError", "An internal error has occurred.");
        break;
    case WireDialect::Anthropic:
        if (overloaded)
            anthropic(529, "overloaded_error", "Overloaded");
        else if (rate)
            anthropic(429, "rate_limit_error", "Number of requests has exceeded your per-minute rate limit.");
        else if (unauthenticated)
            anthropic(401, "authentication_error", "x-api-key header is required");
        else if (auth)
            anthropic(401, "authentication_error", "invalid x-api-key");
        else if (quota)
            anthropic(402, "billing_error", "Your credit balance is too low to access the API.");
        else if (bad)
            anthropic(400, "invalid_request_error", "messages: field required");
        else if (notFound)
            anthropic(404, "not_found_error", "model: unknown");
        else if (timeout)
            anthropic(504, "timeout_error", "Request timed out.");
        else
            anthropic(500, "api_error", "Internal server error");
        break;
    }
    if (statusOverride > 0 && statusOverride != r.status) {
        r.status = statusOverride;
        if (dialectOf(provider) == WireDialect::Gemini) { // Gemini's body repeats the status: keep the two in agreement
            QJsonObject root = QJsonDocument::fromJson(r.body).object();
            QJsonObject e = root.value(QLatin1StringView("error")).toObject();
            e.insert(QStringLiteral("code"), statusOverride);
            e.insert(QStringLiteral("status"), QString::fromLatin1(geminiRpcStatus(statusOverride)));
            root.insert(QStringLiteral("error"), e);
            r.body = compact(root);
        }
    }
    // Where each provider says when to come back (Gemini: only in the body, above).
    if (retryAfterSeconds >= 0 && dialectOf(provider) != WireDialect::Gemini) {
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray::number(retryAfterSeconds)));
    } else if (dialectOf(provider) == WireDialect::OpenAI && rate) {
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
