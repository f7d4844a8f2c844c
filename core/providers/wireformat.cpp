// SPDX-License-Identifier: MIT
#include "wireformat.h"

#include "anthropicformat.h"
#include "geminiformat.h"
#include "jsonread.h"
#include "openaiformat.h"

namespace bullpen {

std::unique_ptr<WireFormat> WireFormat::create(Provider provider)
{
    switch (provider) {
    case Provider::Gemini:
        return std::make_unique<GeminiFormat>();
    case Provider::OpenAI:
    case Provider::Qwen:
        return std::make_unique<OpenAiFormat>(provider);
    case Provider::Anthropic:
        return std::make_unique<AnthropicFormat>();
    }
    return nullptr;
}

std::optional<QJsonObject> StreamDecoder::chunk(const SseEvent &event, ProviderResponse &out)
{
    QString why;
    auto o = jsonread::object(event.data, &why);
    if (!o) {
        out.malformedBody = QStringLiteral("stream event: ") + why;
        end();
    }
    return o;
}

void StreamDecoder::streamError(const SseEvent &event, ProviderResponse &out)
{
    out.errorBody = event.data;
    out.errorInStream = true;
    end();
}

QUrl joinUrl(const QUrl &base, const QString &path)
{
    QUrl url = base;
    QString p = url.path();
    while (p.endsWith(QLatin1Char('/')))
        p.chop(1);
    url.setPath(p + path);
    return url;
}

} // namespace bullpen
