// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

namespace bullpen {

// What every provider is asked, in the same words, so that their answers are comparable (SPEC 2.1).
class StoryboardPrompt final
{
public:
    static QString systemInstruction();
    static QString userMessage(const QString &story);
    // JSON Schema of the storyboard (OpenAI, Anthropic; Gemini's responseJsonSchema).
    static QJsonObject jsonSchema();
    static constexpr int kMaxOutputTokens = 4096;
};

} // namespace bullpen
