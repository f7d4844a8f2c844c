// SPDX-License-Identifier: MIT
#include "storyboardprompt.h"

#include "engine/stagegenerator.h"

#include <QJsonArray>

namespace bullpen {

QString StoryboardPrompt::systemInstruction()
{
    return QStringLiteral("You turn a user's short story into a four-panel comic storyboard. Answer with one JSON object and "
                          "nothing else: {\"title\": string, \"panels\": [4 panels]}. Each panel is {\"index\": 1-4, \"role\": "
                          "\"SETUP\"|\"DEVELOPMENT\"|\"TURN\"|\"CONCLUSION\" (in this order, the 기승전결 structure), \"scene\": "
                          "what the panel shows, \"characters\": [names], \"dialogue\": [{\"speaker\": name, \"text\": line}]}. "
                          "At most 4 dialogue lines per panel, each at most 200 characters. Write in the language of the story.");
}

QString StoryboardPrompt::userMessage(const QString &story)
{
    return QStringLiteral("Story:\n") + story;
}

QJsonObject StoryboardPrompt::jsonSchema()
{
    const QJsonObject str { { QStringLiteral("type"), QStringLiteral("string") } };
    const QJsonObject dialogueLine {
        { QStringLiteral("type"), QStringLiteral("object") },
        { QStringLiteral("properties"), QJsonObject { { QStringLiteral("speaker"), str }, { QStringLiteral("text"), str } } },
        { QStringLiteral("required"), QJsonArray { QStringLiteral("speaker"), QStringLiteral("text") } },
        { QStringLiteral("additionalProperties"), false },
    };
    const QJsonObject panel {
        { QStringLiteral("type"), QStringLiteral("object") },
        { QStringLiteral("properties"),
          QJsonObject {
              { QStringLiteral("index"), QJsonObject { { QStringLiteral("type"), QStringLiteral("integer") } } },
              { QStringLiteral("role"),
                QJsonObject { { QStringLiteral("type"), QStringLiteral("string") },
                              { QStringLiteral("enum"),
                                QJsonArray { QStringLiteral("SETUP"), QStringLiteral("DEVELOPMENT"), QStringLiteral("TURN"),
                                             QStringLiteral("CONCLUSION") } } } },
              { QStringLiteral("scene"), str },
              { QStringLiteral("characters"),
                QJsonObject { { QStringLiteral("type"), QStringLiteral("array") }, { QStringLiteral("items"), str } } },
              { QStringLiteral("dialogue"),
                QJsonObject { { QStringLiteral("type"), QStringLiteral("array") }, { QStringLiteral("items"), dialogueLine } } },
          } },
        { QStringLiteral("required"),
          QJsonArray { QStringLiteral("index"), QStringLiteral("role"), QStringLiteral("scene"), QStringLiteral("characters"),
                       QStringLiteral("dialogue") } },
        { QStringLiteral("additionalProperties"), false },
    };
    return QJsonObject {
        { QStringLiteral("type"), QStringLiteral("object") },
        { QStringLiteral("properties"),
          QJsonObject { { QStringLiteral("title"), str },
                        { QStringLiteral("panels"),
                          QJsonObject { { QStringLiteral("type"), QStringLiteral("array") }, { QStringLiteral("items"), panel } } } } },
        { QStringLiteral("required"), QJsonArray { QStringLiteral("title"), QStringLiteral("panels") } },
        { QStringLiteral("additionalProperties"), false },
    };
}

QString StoryboardPrompt::captionsInstruction()
{
    return QStringLiteral("Write alt text for a four-panel comic: one short sentence per panel describing what it shows, for a reader who "
                          "cannot see it. Answer with one JSON object and nothing else: {\"captions\": [4 strings]}. Write in the language "
                          "of the storyboard.");
}

QString StoryboardPrompt::captionsMessage(const QString &storyboardJson)
{
    return kCaptionsMarker + QLatin1Char('\n') + storyboardJson;
}

QJsonObject StoryboardPrompt::captionsSchema()
{
    return QJsonObject {
        { QStringLiteral("type"), QStringLiteral("object") },
        { QStringLiteral("properties"),
          QJsonObject {
              { QStringLiteral("captions"),
                QJsonObject { { QStringLiteral("type"), QStringLiteral("array") },
                              { QStringLiteral("items"), QJsonObject { { QStringLiteral("type"), QStringLiteral("string") } } } } } } },
        { QStringLiteral("required"), QJsonArray { QStringLiteral("captions") } },
        { QStringLiteral("additionalProperties"), false },
    };
}

QString StoryboardPrompt::imagePrompt(const QString &storyboardJson)
{
    return kImageMarker
        + QStringLiteral(" in a 2x2 grid, one panel per entry, in order, with the dialogue in speech bubbles. "
                         "Storyboard (JSON):\n")
        + storyboardJson;
}

PromptParts promptFor(const StageRequest &request)
{
    if (request.stage == Stage::Captions)
        return { StoryboardPrompt::captionsInstruction(), StoryboardPrompt::captionsMessage(request.stageInput),
                 StoryboardPrompt::captionsSchema() };
    return { StoryboardPrompt::systemInstruction(), StoryboardPrompt::userMessage(request.story), StoryboardPrompt::jsonSchema() };
}

} // namespace bullpen
