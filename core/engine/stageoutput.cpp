// SPDX-License-Identifier: MIT
#include "stageoutput.h"

#include "contract/storyboardparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace bullpen {

namespace {

Failure invalid(const QString &detail)
{
    return Failure { FailureKind::OUTPUT_INVALID, detail, false, {} };
}

QString unfenced(QString text)
{
    text = text.trimmed();
    if (text.startsWith(QLatin1StringView("```")) && text.endsWith(QLatin1StringView("```")) && text.size() >= 6) {
        const qsizetype nl = text.indexOf(QLatin1Char('\n'));
        if (nl > 0)
            text = text.mid(nl + 1, text.size() - nl - 4).trimmed();
    }
    return text;
}

} // namespace

std::variant<Failure, StageOutput> validateStageOutput(Stage stage, const ProviderResponse &response)
{
    StageOutput out;
    switch (stage) {
    case Stage::Storyboard: {
        StoryboardCheck check = StoryboardParser::parse(response.text);
        if (!check.ok())
            return invalid(QStringLiteral("storyboard rejected: ") + check.violation->detail);
        out.storyboard = std::move(check.storyboard);
        return out;
    }
    case Stage::Captions: {
        QJsonParseError error {};
        const QJsonDocument doc = QJsonDocument::fromJson(unfenced(response.text).toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return invalid(QStringLiteral("captions are not a JSON object"));
        const QJsonValue captions = doc.object().value(QLatin1StringView("captions"));
        if (!captions.isArray() || captions.toArray().size() != kCaptionCount)
            return invalid(QStringLiteral("captions: expected exactly %1 lines").arg(kCaptionCount));
        const QJsonArray lines = captions.toArray();
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString line = lines.at(i).toString().simplified();
            if (line.isEmpty() || line.size() > kMaxCaptionChars)
                return invalid(QStringLiteral("captions[%1]: expected 1..%2 characters").arg(i).arg(kMaxCaptionChars));
            out.captions << line;
        }
        return out;
    }
    case Stage::Image: {
        const QByteArray &b = response.binary;
        const bool png = b.startsWith("\x89PNG\r\n\x1a\n");
        const bool jpeg = b.startsWith("\xff\xd8\xff");
        const bool webp = b.size() > 12 && b.startsWith("RIFF") && b.mid(8, 4) == "WEBP";
        if (!png && !jpeg && !webp)
            return invalid(b.isEmpty() ? QStringLiteral("no image in the response") : QStringLiteral("the image is not PNG, JPEG or WebP"));
        out.image = b;
        out.imageMime = png ? QStringLiteral("image/png") : jpeg ? QStringLiteral("image/jpeg") : QStringLiteral("image/webp");
        return out;
    }
    }
    return invalid(QStringLiteral("unknown stage"));
}

} // namespace bullpen
