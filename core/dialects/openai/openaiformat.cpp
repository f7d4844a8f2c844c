// SPDX-License-Identifier: MIT
#include "openaiformat.h"

#include "providers/jsonread.h"
#include "providers/storyboardprompt.h"

#include <QJsonArray>

namespace bullpen {

namespace {

void readUsage(const QJsonObject &root, ProviderResponse &out)
{
    const QJsonObject usage = root.value(QLatin1StringView("usage")).toObject();
    if (usage.isEmpty())
        return;
    out.usage.input = jsonread::count(usage.value(QLatin1StringView("prompt_tokens")));
    out.usage.output = jsonread::count(usage.value(QLatin1StringView("completion_tokens"))); // includes reasoning
}

QString finishOf(const QJsonObject &choice)
{
    const QJsonValue v = choice.value(QLatin1StringView("finish_reason"));
    return v.isString() ? v.toString() : QString(); // null until the end; DashScope may say "null"
}

class OpenAiStream final : public StreamDecoder
{
public:
    void onEvent(const SseEvent &event, ProviderResponse &out) override
    {
        if (terminated())
            return; // events after [DONE] are ignored
        if (event.data.trimmed() == "[DONE]") {
            end();
            return;
        }
        const auto data = chunk(event, out);
        if (!data)
            return;
        if (event.event == "error" || data->contains(QLatin1StringView("error"))) {
            streamError(event, out);
            return;
        }
        const QJsonArray choices = data->value(QLatin1StringView("choices")).toArray();
        if (!choices.isEmpty()) {
            const QJsonObject choice = choices.first().toObject();
            const QJsonObject delta = choice.value(QLatin1StringView("delta")).toObject();
            if (const QJsonValue c = delta.value(QLatin1StringView("content")); c.isString())
                out.text += c.toString();
            if (const QJsonValue r = delta.value(QLatin1StringView("refusal")); r.isString())
                out.refusal += r.toString();
            if (const QString f = finishOf(choice); !f.isEmpty() && f != u"null")
                out.finishReason = f;
        }
        readUsage(*data, out);
    }
};

} // namespace

QNetworkRequest OpenAiFormat::request(const ProviderEndpoint &endpoint) const
{
    return providerRequest(joinUrl(endpoint.baseUrl, QStringLiteral("/chat/completions")), endpoint);
}

QByteArray OpenAiFormat::body(const ProviderEndpoint &endpoint, const StageRequest &request) const
{
    const PromptParts prompt = promptFor(request);
    QJsonObject root {
        { QStringLiteral("model"), endpoint.model },
        { QStringLiteral("messages"),
          QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("system") }, { QStringLiteral("content"), prompt.system } },
                       QJsonObject { { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), prompt.user } } } },
        { QStringLiteral("stream"), endpoint.stream },
    };
    if (endpoint.stream)
        root.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    askFor(root, endpoint, request, prompt.schema);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

void OpenAiFormat::askFor(QJsonObject &root, const ProviderEndpoint &endpoint, const StageRequest &request, const QJsonObject &schema) const
{
    root.insert(QStringLiteral("max_completion_tokens"), endpoint.maxOutputTokens);
    root.insert(QStringLiteral("response_format"),
                QJsonObject { { QStringLiteral("type"), QStringLiteral("json_schema") },
                              { QStringLiteral("json_schema"),
                                QJsonObject { { QStringLiteral("name"), toId(request.stage) },
                                              { QStringLiteral("strict"), true },
                                              { QStringLiteral("schema"), schema } } } });
}

void OpenAiFormat::parseBody(const QByteArray &body, ProviderResponse &out) const
{
    const auto root = jsonread::body(body, out.malformedBody);
    if (!root)
        return;
    const QJsonValue choices = root->value(QLatin1StringView("choices"));
    if (!choices.isArray() || choices.toArray().isEmpty()) {
        out.malformedBody = QStringLiteral("no choices in the response");
        return;
    }
    const QJsonObject choice = choices.toArray().first().toObject();
    const QJsonObject message = choice.value(QLatin1StringView("message")).toObject();
    if (const QJsonValue c = message.value(QLatin1StringView("content")); c.isString())
        out.text = c.toString();
    if (const QJsonValue r = message.value(QLatin1StringView("refusal")); r.isString())
        out.refusal = r.toString();
    out.finishReason = finishOf(choice);
    readUsage(*root, out);
    out.modelVersion = root->value(QLatin1StringView("model")).toString();
}

std::unique_ptr<StreamDecoder> OpenAiFormat::streamDecoder() const
{
    return std::make_unique<OpenAiStream>();
}

} // namespace bullpen
