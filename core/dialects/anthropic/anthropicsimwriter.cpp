// SPDX-License-Identifier: MIT
// Anthropic's answers as the simulator writes them (docs/simulator-fidelity.md).
#include "anthropicdialect.h"
#include "dialects/simanswer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

using simanswer::compact;

QString finishWord(SimEnding e)
{
    return e == SimEnding::MaxTokens ? QStringLiteral("max_tokens")
        : e == SimEnding::Refused    ? QStringLiteral("refusal")
                                     : QStringLiteral("end_turn");
}

SimErrorReply anthropicError(SimFailure f)
{
    auto reply = [](int status, const char *type, const char *message) {
        return SimErrorReply { status,
                               QByteArray(R"({"type":"error","error":{"type":")") + type + R"(","message":")" + message
                                   + R"("},"request_id":"req_sim"})",
                               {} };
    };
    switch (f) {
    case SimFailure::Overloaded:
        return reply(529, "overloaded_error", "Overloaded");
    case SimFailure::RateLimited:
        return reply(429, "rate_limit_error", "Number of requests has exceeded your per-minute rate limit.");
    case SimFailure::Unauthenticated:
        return reply(401, "authentication_error", "x-api-key header is required");
    case SimFailure::Auth:
        return reply(401, "authentication_error", "invalid x-api-key");
    case SimFailure::Quota:
        return reply(402, "billing_error", "Your credit balance is too low to access the API.");
    case SimFailure::BadRequest:
        return reply(400, "invalid_request_error", "messages: field required");
    case SimFailure::NotFound:
        return reply(404, "not_found_error", "model: unknown");
    case SimFailure::Timeout:
        return reply(504, "timeout_error", "Request timed out.");
    case SimFailure::Other:
        break;
    }
    return reply(500, "api_error", "Internal server error");
}

} // namespace

QByteArray AnthropicDialect::body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const
{
    QJsonArray content { QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") },
                                       { QStringLiteral("thinking"), QStringLiteral("Planning four panels…") },
                                       { QStringLiteral("signature"), QStringLiteral("sim") } } };
    if (ending != SimEnding::Refused)
        content.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), text } });
    return compact(QJsonObject {
        { QStringLiteral("id"), QStringLiteral("msg_sim") },
        { QStringLiteral("type"), QStringLiteral("message") },
        { QStringLiteral("role"), QStringLiteral("assistant") },
        { QStringLiteral("model"), model },
        { QStringLiteral("content"), content },
        { QStringLiteral("stop_reason"), finishWord(ending) },
        { QStringLiteral("stop_sequence"), QJsonValue() },
        { QStringLiteral("usage"),
          QJsonObject { { QStringLiteral("input_tokens"), usage.input }, { QStringLiteral("output_tokens"), usage.output } } },
    });
}

QList<QByteArray> AnthropicDialect::stream(const QString &model, const QString &, const QStringList &parts, SimEnding ending,
                                           TokenUsage usage, bool) const
{
    QList<QByteArray> out;
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_start") },
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
    out << sse(compact(QJsonObject {
                   { QStringLiteral("type"), QStringLiteral("content_block_start") },
                   { QStringLiteral("index"), 0 },
                   { QStringLiteral("content_block"),
                     QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking") }, { QStringLiteral("thinking"), QString() } } } }),
               "content_block_start");
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                                     { QStringLiteral("index"), 0 },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("type"), QStringLiteral("thinking_delta") },
                                                     { QStringLiteral("thinking"), QStringLiteral("Planning…") } } } }),
               "content_block_delta");
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                                     { QStringLiteral("index"), 0 },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("type"), QStringLiteral("signature_delta") },
                                                     { QStringLiteral("signature"), QStringLiteral("c2ltLXNpZ25hdHVyZQ==") } } } }),
               "content_block_delta");
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_stop") }, { QStringLiteral("index"), 0 } }),
               "content_block_stop");
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("ping") } }), "ping");
    if (ending != SimEnding::Refused) {
        out << sse(compact(QJsonObject {
                       { QStringLiteral("type"), QStringLiteral("content_block_start") },
                       { QStringLiteral("index"), 1 },
                       { QStringLiteral("content_block"),
                         QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("text"), QString() } } } }),
                   "content_block_start");
        for (const QString &p : parts)
            out << sse(compact(QJsonObject {
                           { QStringLiteral("type"), QStringLiteral("content_block_delta") },
                           { QStringLiteral("index"), 1 },
                           { QStringLiteral("delta"),
                             QJsonObject { { QStringLiteral("type"), QStringLiteral("text_delta") }, { QStringLiteral("text"), p } } } }),
                       "content_block_delta");
        out << sse(
            compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("content_block_stop") }, { QStringLiteral("index"), 1 } }),
            "content_block_stop");
    }
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_delta") },
                                     { QStringLiteral("delta"),
                                       QJsonObject { { QStringLiteral("stop_reason"), finishWord(ending) },
                                                     { QStringLiteral("stop_sequence"), QJsonValue() } } },
                                     { QStringLiteral("usage"), QJsonObject { { QStringLiteral("output_tokens"), usage.output } } } }),
               "message_delta");
    out << sse(compact(QJsonObject { { QStringLiteral("type"), QStringLiteral("message_stop") } }), "message_stop");
    return out;
}

QByteArray AnthropicDialect::streamErrorEvent() const
{
    return sse(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", "error");
}

QByteArray AnthropicDialect::malformedStreamEvent() const
{
    return sse(R"({"type":"content_block_delta","index":1,"delta": oops)", "content_block_delta");
}

QByteArray AnthropicDialect::malformedBody() const
{
    return R"({"id":"msg_sim","type":"message","role":"assistant","content":[{"type":"text","text":"{\"title\")";
}

SimErrorReply AnthropicDialect::error(SimFailure failure, int statusOverride, int retryAfterSeconds) const
{
    SimErrorReply r = anthropicError(failure);
    if (statusOverride > 0)
        r.status = statusOverride;
    return simanswer::withRetryAfter(r, retryAfterSeconds);
}

} // namespace bullpen
