// SPDX-License-Identifier: MIT
// Gemini's answers as the simulator writes them (docs/simulator-fidelity.md): the shapes its SDK accepts.
#include "dialects/simanswer.h"
#include "geminidialect.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

using simanswer::compact;

QString finishWord(SimEnding e)
{
    return e == SimEnding::MaxTokens ? QStringLiteral("MAX_TOKENS") : QStringLiteral("STOP");
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

SimErrorReply geminiError(SimFailure f, const QByteArray &retrySeconds)
{
    auto reply = [](int status, const char *rpc, const QByteArray &message, const QByteArray &details = "[]") {
        return SimErrorReply { status,
                               QByteArray(R"({"error":{"code":)") + QByteArray::number(status) + R"(,"message":")" + message
                                   + R"(","status":")" + rpc + R"(","details":)" + details + "}}",
                               {} };
    };
    // Gemini never sends Retry-After: the delay is the RetryInfo detail in the body.
    switch (f) {
    case SimFailure::Overloaded:
        return reply(503, "UNAVAILABLE",
                     "This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.");
    case SimFailure::RateLimited:
        return reply(
            429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in " + retrySeconds + "s.",
            R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":")"
                + retrySeconds + R"(s"}])");
    case SimFailure::Unauthenticated:
        return reply(403, "PERMISSION_DENIED",
                     "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form "
                     "of API consumer identity to call this API.");
    case SimFailure::Auth:
        return reply(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
                     R"([{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}])");
    case SimFailure::Quota:
        return reply(
            429, "RESOURCE_EXHAUSTED", "Quota exceeded for metric: generate_content_free_tier_requests, limit: 0",
            R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}])");
    case SimFailure::BadRequest:
        return reply(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    case SimFailure::NotFound:
        return reply(404, "NOT_FOUND", "models/unknown is not found for API version v1beta.");
    case SimFailure::Timeout:
        return reply(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.");
    case SimFailure::Other:
        break;
    }
    return reply(500, "INTERNAL", "An internal error has occurred.");
}

} // namespace

QByteArray GeminiDialect::body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const
{
    if (ending == SimEnding::Refused)
        return compact(
            QJsonObject { { QStringLiteral("promptFeedback"), QJsonObject { { QStringLiteral("blockReason"), QStringLiteral("SAFETY") } } },
                          { QStringLiteral("usageMetadata"), geminiUsage(TokenUsage { usage.input, 0 }) },
                          { QStringLiteral("modelVersion"), model } });
    QJsonObject o = geminiChunk(text, finishWord(ending), true);
    o.insert(QStringLiteral("usageMetadata"), geminiUsage(usage));
    o.insert(QStringLiteral("modelVersion"), model);
    o.insert(QStringLiteral("responseId"), QStringLiteral("sim-response"));
    return compact(o);
}

QList<QByteArray> GeminiDialect::stream(const QString &model, const QString &text, const QStringList &parts, SimEnding ending,
                                        TokenUsage usage, bool) const
{
    QList<QByteArray> out;
    if (ending == SimEnding::Refused)
        return { sse(body(model, text, ending, usage)) };
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const bool last = i == parts.size() - 1;
        QJsonObject chunk = geminiChunk(parts.at(i), last ? finishWord(ending) : QString(), i == 0);
        if (last) {
            chunk.insert(QStringLiteral("usageMetadata"), geminiUsage(usage));
            chunk.insert(QStringLiteral("modelVersion"), model);
        }
        out << sse(compact(chunk));
    }
    return out;
}

QByteArray GeminiDialect::streamErrorEvent() const
{
    return sse(R"({"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}})");
}

QByteArray GeminiDialect::malformedStreamEvent() const
{
    return sse(R"({"candidates": [ {"content": oops)");
}

QByteArray GeminiDialect::malformedBody() const
{
    return R"({"candidates": [{"content": {"parts": [{"text": "{\"title\")";
}

// Gemini never sends Retry-After: the delay is the RetryInfo detail in the body. Its body repeats the
// status: an override keeps the two in agreement.
SimErrorReply GeminiDialect::error(SimFailure failure, int statusOverride, int retryAfterSeconds) const
{
    SimErrorReply r = geminiError(failure, QByteArray::number(retryAfterSeconds >= 0 ? retryAfterSeconds : 30));
    if (statusOverride > 0 && statusOverride != r.status) {
        r.status = statusOverride;
        QJsonObject root = QJsonDocument::fromJson(r.body).object();
        QJsonObject e = root.value(QLatin1StringView("error")).toObject();
        e.insert(QStringLiteral("code"), statusOverride);
        e.insert(QStringLiteral("status"), QString::fromLatin1(geminiRpcStatus(statusOverride)));
        root.insert(QStringLiteral("error"), e);
        r.body = compact(root);
    }
    return r;
}

QByteArray GeminiDialect::imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage)
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

} // namespace bullpen
