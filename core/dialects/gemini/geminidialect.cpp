// SPDX-License-Identifier: MIT
#include "geminidialect.h"

#include "geminiformat.h"

#include <QJsonArray>
#include <QUrlQuery>

namespace bullpen {

const GeminiDialect &GeminiDialect::instance()
{
    static const GeminiDialect dialect;
    return dialect;
}

std::unique_ptr<WireFormat> GeminiDialect::format(Provider provider) const
{
    return std::make_unique<GeminiFormat>(provider);
}

// ".../models/gemini-2.5-flash:generateContent": the model is in the path.
std::optional<QString> GeminiDialect::route(const QString &path, const QString &base) const
{
    if (!path.startsWith(base + QStringLiteral("/models/")))
        return std::nullopt;
    return path.mid(base.size() + 8).section(QLatin1Char(':'), 0, 0);
}

// Gemini takes its key in x-goog-api-key or as ?key=.
bool GeminiDialect::carriesCredentials(const SimRequest &request) const
{
    return !request.header("x-goog-api-key").isEmpty() || !QUrlQuery(request.url).queryItemValue(QStringLiteral("key")).isEmpty();
}

QString GeminiDialect::storyFromRequest(const QJsonObject &request) const
{
    QString text;
    const QJsonArray contents = request.value(QLatin1StringView("contents")).toArray();
    for (const QJsonValue &c : contents) {
        const QJsonArray parts = c.toObject().value(QLatin1StringView("parts")).toArray();
        for (const QJsonValue &p : parts)
            text += p.toObject().value(QLatin1StringView("text")).toString();
    }
    return text;
}

bool GeminiDialect::requestWantsStream(const QJsonObject &, const QString &path) const
{
    return path.endsWith(QLatin1StringView(":streamGenerateContent"));
}

bool GeminiDialect::isImageRequest(const QJsonObject &request) const
{
    const QJsonArray modalities =
        request.value(QLatin1StringView("generationConfig")).toObject().value(QLatin1StringView("responseModalities")).toArray();
    return modalities.contains(QStringLiteral("IMAGE"));
}

} // namespace bullpen
