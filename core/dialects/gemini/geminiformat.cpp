// SPDX-License-Identifier: MIT
#include "geminiformat.h"

#include "providers/base64.h"
#include "providers/jsonread.h"
#include "providers/storyboardprompt.h"

#include <QJsonArray>
#include <QUrlQuery>

namespace bullpen {

namespace {

// Reads one GenerateContentResponse (a whole body, or one stream chunk) into `out`, appending text.
void readResponse(const QJsonObject &root, ProviderResponse &out)
{
    const QJsonObject feedback = root.value(QLatin1StringView("promptFeedback")).toObject();
    if (const QString block = feedback.value(QLatin1StringView("blockReason")).toString(); !block.isEmpty())
        out.blockReason = block;

    const QJsonValue candidates = root.value(QLatin1StringView("candidates"));
    if (candidates.isArray() && !candidates.toArray().isEmpty()) {
        const QJsonObject first = candidates.toArray().first().toObject();
        const QJsonArray parts = first.value(QLatin1StringView("content")).toObject().value(QLatin1StringView("parts")).toArray();
        for (const QJsonValue &pv : parts) {
            const QJsonObject part = pv.toObject();
            if (part.value(QLatin1StringView("thought")).toBool())
                continue; // thinking is not the answer
            const QJsonValue text = part.value(QLatin1StringView("text"));
            if (text.isString())
                out.text += text.toString();
            const QJsonObject inlineData = part.value(QLatin1StringView("inlineData")).toObject();
            if (!inlineData.isEmpty()) {
                const std::optional<QByteArray> decoded = decodeBase64Strict(inlineData.value(QLatin1StringView("data")).toString());
                if (!decoded)
                    out.malformedBody = QStringLiteral("inlineData is not valid base64");
                else
                    out.binary = *decoded;
                out.binaryMime = inlineData.value(QLatin1StringView("mimeType")).toString();
            }
        }
        if (const QString reason = first.value(QLatin1StringView("finishReason")).toString(); !reason.isEmpty())
            out.finishReason = reason;
    } else if (!candidates.isUndefined() && !candidates.isArray()) {
        out.malformedBody = QStringLiteral("\"candidates\" is not an array");
    }

    const QJsonObject usage = root.value(QLatin1StringView("usageMetadata")).toObject();
    if (!usage.isEmpty()) {
        out.usage.input = jsonread::count(usage.value(QLatin1StringView("promptTokenCount")));
        const qint64 candidatesTokens = jsonread::count(usage.value(QLatin1StringView("candidatesTokenCount")));
        const qint64 thoughts = jsonread::count(usage.value(QLatin1StringView("thoughtsTokenCount")));
        // Thinking is billed as output but reported apart from candidatesTokenCount.
        out.usage.output = candidatesTokens < 0 ? -1 : candidatesTokens + std::max<qint64>(thoughts, 0);
    }
    if (const QString version = root.value(QLatin1StringView("modelVersion")).toString(); !version.isEmpty())
        out.modelVersion = version;
}

class GeminiStream final : public StreamDecoder
{
public:
    void onEvent(const SseEvent &event, ProviderResponse &out) override
    {
        const auto data = chunk(event, out);
        if (!data)
            return;
        if (data->contains(QLatin1StringView("error"))) {
            streamError(event, out);
            return;
        }
        readResponse(*data, out);
        if (!out.finishReason.isEmpty() || !out.blockReason.isEmpty())
            end(); // Gemini sends no [DONE]: the chunk with finishReason is the end
    }
};

} // namespace

QNetworkRequest GeminiFormat::request(const ProviderEndpoint &endpoint) const
{
    const QString method = endpoint.stream ? QStringLiteral(":streamGenerateContent") : QStringLiteral(":generateContent");
    QUrl url = joinUrl(endpoint.baseUrl, QStringLiteral("/models/") + endpoint.model + method);
    if (endpoint.stream) {
        QUrlQuery query(url);
        query.addQueryItem(QStringLiteral("alt"), QStringLiteral("sse"));
        url.setQuery(query);
    }
    return providerRequest(url, endpoint);
}

QByteArray GeminiFormat::body(const ProviderEndpoint &endpoint, const StageRequest &request) const
{
    auto userContents = [](const QString &text) {
        return QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("user") },
                                          { QStringLiteral("parts"), QJsonArray { QJsonObject { { QStringLiteral("text"), text } } } } } };
    };
    if (request.stage == Stage::Image) {
        // Image generation: generateContent answering with an inlineData PNG.
        const QJsonObject root {
            { QStringLiteral("contents"), userContents(StoryboardPrompt::imagePrompt(request.stageInput)) },
            { QStringLiteral("generationConfig"),
              QJsonObject { { QStringLiteral("responseModalities"), QJsonArray { QStringLiteral("IMAGE") } } } },
        };
        return QJsonDocument(root).toJson(QJsonDocument::Compact);
    }
    const PromptParts prompt = promptFor(request);
    const QJsonObject root {
        { QStringLiteral("contents"), userContents(prompt.user) },
        { QStringLiteral("systemInstruction"),
          QJsonObject { { QStringLiteral("parts"), QJsonArray { QJsonObject { { QStringLiteral("text"), prompt.system } } } } } },
        { QStringLiteral("generationConfig"),
          QJsonObject { { QStringLiteral("maxOutputTokens"), endpoint.maxOutputTokens },
                        { QStringLiteral("temperature"), 0.7 },
                        { QStringLiteral("responseMimeType"), QStringLiteral("application/json") },
                        { QStringLiteral("responseJsonSchema"), prompt.schema } } },
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

void GeminiFormat::parseBody(const QByteArray &body, ProviderResponse &out) const
{
    const auto root = jsonread::body(body, out.malformedBody);
    if (!root)
        return;
    readResponse(*root, out);
}

std::unique_ptr<StreamDecoder> GeminiFormat::streamDecoder() const
{
    return std::make_unique<GeminiStream>();
}

} // namespace bullpen
