// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

namespace bullpen {

// What every provider is asked, in the same words, so that their answers are comparable (docs/contract.md §2.1).
class StoryboardPrompt final
{
public:
    static QString systemInstruction();
    static QString userMessage(const QString &story);
    // JSON Schema of the storyboard (OpenAI, Anthropic; Gemini's responseJsonSchema).
    static QJsonObject jsonSchema();
    static constexpr int kMaxOutputTokens = 4096;

    // The captions stage: one alt-text line per panel, as {"captions": [4 strings]}.
    static QString captionsInstruction();
    static QString captionsMessage(const QString &storyboardJson);
    static QJsonObject captionsSchema();
    // The image stage: what the image model is asked to draw.
    static QString imagePrompt(const QString &storyboardJson);
    static inline const QString kCaptionsMarker = QStringLiteral("Storyboard for alt text:");
    static inline const QString kImageMarker = QStringLiteral("Draw a four-panel comic");
};

struct PromptParts
{
    QString system;
    QString user;
    QJsonObject schema;
};

// The prompt of whichever stage a request belongs to (storyboard or captions).
PromptParts promptFor(const struct StageRequest &request);

} // namespace bullpen
