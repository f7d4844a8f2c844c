// SPDX-License-Identifier: MIT
// OpenAI's answers as the simulator writes them (docs/simulator-fidelity.md); DashScope's compatible mode answers the same way.
#include "dialects/simanswer.h"
#include "openaidialect.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

using simanswer::compact;

QString finishWord(SimEnding e)
{
    return e == SimEnding::MaxTokens ? QStringLiteral("length") : QStringLiteral("stop");
}

QJsonObject openAiUsage(TokenUsage u)
{
    return QJsonObject { { QStringLiteral("prompt_tokens"), u.input },
                         { QStringLiteral("completion_tokens"), u.output },
                         { QStringLiteral("total_tokens"), u.input + u.output } };
}

SimErrorReply openAiError(SimFailure f, int retryAfterSeconds)
{
    auto reply = [](int status, const char *type, const char *code, const QByteArray &message) {
        return SimErrorReply { status,
                               QByteArray(R"({"error":{"message":")") + message + R"(","type":")" + type + R"(","param":null,"code":)"
                                   + (code ? QByteArray("\"") + code + "\"" : QByteArray("null")) + "}}",
                               {} };
    };
    switch (f) {
    case SimFailure::Overloaded:
        return reply(503, "service_unavailable_error", "server_is_overloaded", "The server is overloaded or not ready yet.");
    case SimFailure::RateLimited:
        return reply(429, "requests", "rate_limit_exceeded",
                     "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in "
                         + QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 20) + "s.");
    case SimFailure::Unauthenticated:
        return reply(401, "invalid_request_error", nullptr,
                     "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. "
                     "Authorization: Bearer YOUR_KEY).");
    case SimFailure::Auth:
        return reply(401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-sim***.");
    case SimFailure::Quota:
        return reply(429, "insufficient_quota", "insufficient_quota",
                     "You exceeded your current quota, please check your plan and billing details.");
    case SimFailure::BadRequest:
        return reply(400, "invalid_request_error", nullptr, "Invalid value for 'messages'.");
    case SimFailure::NotFound:
        return reply(404, "invalid_request_error", "model_not_found",
                     "The model `unknown` does not exist or you do not have access to it.");
    case SimFailure::Timeout:
        return reply(408, "timeout", nullptr, "Request timed out.");
    case SimFailure::Other:
        break;
    }
    return reply(500, "server_error", nullptr, "The server had an error while processing your request.");
}

} // namespace

QByteArray OpenAiDialect::body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const
{
    QJsonObject message { { QStringLiteral("role"), QStringLiteral("assistant") } };
    if (ending == SimEnding::Refused) {
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
                                     { QStringLiteral("finish_reason"), finishWord(ending) } } } },
        { QStringLiteral("usage"), openAiUsage(usage) },
    });
}

QList<QByteArray> OpenAiDialect::stream(const QString &model, const QString &, const QStringList &parts, SimEnding ending, TokenUsage usage,
                                        bool includeUsage) const
{
    QList<QByteArray> out;
    auto chunk = [&](const QJsonObject &delta, const QJsonValue &finish) {
        return sse(compact(QJsonObject {
            { QStringLiteral("id"), QStringLiteral("chatcmpl-sim") },
            { QStringLiteral("object"), QStringLiteral("chat.completion.chunk") },
            { QStringLiteral("created"), 1760400000 },
            { QStringLiteral("model"), model },
            { QStringLiteral("choices"),
              QJsonArray { QJsonObject {
                  { QStringLiteral("index"), 0 }, { QStringLiteral("delta"), delta }, { QStringLiteral("finish_reason"), finish } } } } }));
    };
    out << chunk(QJsonObject { { QStringLiteral("role"), QStringLiteral("assistant") }, { QStringLiteral("content"), QString() } },
                 QJsonValue());
    if (ending == SimEnding::Refused)
        out << chunk(QJsonObject { { QStringLiteral("refusal"), QStringLiteral("I can't help with that request.") } }, QJsonValue());
    for (const QString &p : parts)
        out << chunk(QJsonObject { { QStringLiteral("content"), p } }, QJsonValue());
    out << chunk(QJsonObject {}, finishWord(ending));
    if (includeUsage)
        out << sse(compact(QJsonObject { { QStringLiteral("id"), QStringLiteral("chatcmpl-sim") },
                                         { QStringLiteral("object"), QStringLiteral("chat.completion.chunk") },
                                         { QStringLiteral("created"), 1760400000 },
                                         { QStringLiteral("model"), model },
                                         { QStringLiteral("choices"), QJsonArray {} },
                                         { QStringLiteral("usage"), openAiUsage(usage) } }));
    out << sse("[DONE]");
    return out;
}

QByteArray OpenAiDialect::streamErrorEvent() const
{
    return sse(
        R"({"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":"server_is_overloaded"}})");
}

QByteArray OpenAiDialect::malformedStreamEvent() const
{
    return sse(R"({"id":"chatcmpl-sim","object":"chat.completion.chunk","created":1760400000,"choices":[{"index":0,"delta": oops)");
}

QByteArray OpenAiDialect::malformedBody() const
{
    return R"({"id":"chatcmpl-sim","object":"chat.completion","created":1760400000,"choices":[{"index":0,"message":{"role":"assistant","content":"{\"title\")";
}

// Retry-After where asked for; a rate limit says 20 s in its header as in its message.
SimErrorReply OpenAiDialect::error(SimFailure failure, int statusOverride, int retryAfterSeconds) const
{
    SimErrorReply r = openAiError(failure, retryAfterSeconds);
    if (statusOverride > 0)
        r.status = statusOverride;
    if (retryAfterSeconds < 0 && failure == SimFailure::RateLimited)
        retryAfterSeconds = 20; // the same 20 s the message names
    return simanswer::withRetryAfter(r, retryAfterSeconds);
}

} // namespace bullpen
