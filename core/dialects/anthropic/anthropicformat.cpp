// SPDX-License-Identifier: MIT
#include "anthropicformat.h"

#include "providers/jsonread.h"
#include "providers/storyboardprompt.h"

#include <QJsonArray>
#include <QSet>

namespace bullpen {

namespace {

class AnthropicStream final : public StreamDecoder
{
public:
    void onEvent(const SseEvent &event, ProviderResponse &out) override
    {
        if (terminated())
            return;
        // Anthropic names every event. Like the official SDK, an unnamed or unknown event is skipped
        // unread (future event types must not fail a stream); a known one with broken JSON is not.
        static const QSet<QByteArray> known {
            "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping",
            "error"
        };
        if (!known.contains(event.event))
            return;
        const auto data = chunk(event, out);
        if (!data)
            return;
        const QString type = QString::fromUtf8(event.event);
        if (type == u"error") {
            streamError(event, out);
        } else if (type == u"message_start") {
            const QJsonObject message = data->value(QLatin1StringView("message")).toObject();
            const QJsonObject usage = message.value(QLatin1StringView("usage")).toObject();
            out.usage.input = jsonread::count(usage.value(QLatin1StringView("input_tokens")));
            out.modelVersion = message.value(QLatin1StringView("model")).toString();
        } else if (type == u"content_block_start") {
            const QJsonObject block = data->value(QLatin1StringView("content_block")).toObject();
            m_textBlocks[data->value(QLatin1StringView("index")).toInt()] = block.value(QLatin1StringView("type")).toString() == u"text";
            out.text += block.value(QLatin1StringView("text")).toString();
        } else if (type == u"content_block_delta") {
            const QJsonObject delta = data->value(QLatin1StringView("delta")).toObject();
            if (delta.value(QLatin1StringView("type")).toString() == u"text_delta"
                && m_textBlocks.value(data->value(QLatin1StringView("index")).toInt(), true))
                out.text += delta.value(QLatin1StringView("text")).toString();
        } else if (type == u"message_delta") {
            const QJsonObject delta = data->value(QLatin1StringView("delta")).toObject();
            if (const QJsonValue s = delta.value(QLatin1StringView("stop_reason")); s.isString())
                out.finishReason = s.toString();
            const QJsonObject usage = data->value(QLatin1StringView("usage")).toObject();
            if (usage.contains(QLatin1StringView("output_tokens")))
                out.usage.output = jsonread::count(usage.value(QLatin1StringView("output_tokens")));
        } else if (type == u"message_stop") {
            end();
        }
        // ping, content_block_stop: nothing to read
    }

private:
    QHash<int, bool> m_textBlocks;
};

} // namespace

QNetworkRequest AnthropicFormat::request(const ProviderEndpoint &endpoint) const
{
    QNetworkRequest req = providerRequest(joinUrl(endpoint.baseUrl, QStringLiteral("/messages")), endpoint);
    req.setRawHeader("anthropic-version", "2023-06-01");
    return req;
}

QByteArray AnthropicFormat::body(const ProviderEndpoint &endpoint, const StageRequest &request) const
{
    const PromptParts prompt = promptFor(request);
    const QJsonObject root {
        { QStringLiteral("model"), endpoint.model },
        { QStringLiteral("max_tokens"), endpoint.maxOutputTokens },
        { QStringLiteral("system"), prompt.system },
        { QStringLiteral("messages"),
          QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), prompt.user } } } },
        { QStringLiteral("output_config"),
          QJsonObject { { QStringLiteral("format"),
                          QJsonObject { { QStringLiteral("type"), QStringLiteral("json_schema") },
                                        { QStringLiteral("schema"), prompt.schema } } } } },
        { QStringLiteral("stream"), endpoint.stream },
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

void AnthropicFormat::parseBody(const QByteArray &body, ProviderResponse &out) const
{
    const auto root = jsonread::body(body, out.malformedBody);
    if (!root)
        return;
    const QJsonValue content = root->value(QLatin1StringView("content"));
    if (!content.isArray()) {
        out.malformedBody = QStringLiteral("\"content\" is not an array");
        return;
    }
    const QJsonArray contentArray = content.toArray();
    for (const QJsonValue &bv : contentArray) {
        const QJsonObject block = bv.toObject();
        if (block.value(QLatin1StringView("type")).toString() == u"text") // by type, not position: thinking may come first
            out.text += block.value(QLatin1StringView("text")).toString();
    }
    if (const QJsonValue s = root->value(QLatin1StringView("stop_reason")); s.isString())
        out.finishReason = s.toString();
    const QJsonObject usage = root->value(QLatin1StringView("usage")).toObject();
    out.usage.input = jsonread::count(usage.value(QLatin1StringView("input_tokens")));
    out.usage.output = jsonread::count(usage.value(QLatin1StringView("output_tokens")));
    out.modelVersion = root->value(QLatin1StringView("model")).toString();
}

std::unique_ptr<StreamDecoder> AnthropicFormat::streamDecoder() const
{
    return std::make_unique<AnthropicStream>();
}

} // namespace bullpen
