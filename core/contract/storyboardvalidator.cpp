// SPDX-License-Identifier: MIT
#include "storyboardvalidator.h"

#include "jsontype.h"

#include <QJsonArray>

namespace bullpen {

namespace {

StoryboardCheck violation(StoryboardRule rule, QString detail)
{
    StoryboardCheck check;
    check.violation = StoryboardViolation { rule, std::move(detail) };
    return check;
}

qsizetype codePoints(const QString &s)
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s.at(i).isHighSurrogate() && i + 1 < s.size() && s.at(i + 1).isLowSurrogate())
            ++i;
        ++n;
    }
    return n;
}

bool isBlank(const QString &s)
{
    return s.trimmed().isEmpty();
}

} // namespace

StoryboardCheck StoryboardValidator::validate(const QJsonObject &object)
{
    const QJsonValue titleValue = object.value(QLatin1StringView("title"));
    if (!titleValue.isString())
        return violation(StoryboardRule::Title, QStringLiteral("title: expected a string, got %1").arg(jsonTypeName(titleValue)));
    if (isBlank(titleValue.toString()))
        return violation(StoryboardRule::Title, QStringLiteral("title: must not be empty"));

    const QJsonValue panelsValue = object.value(QLatin1StringView("panels"));
    if (!panelsValue.isArray())
        return violation(StoryboardRule::PanelsArray, QStringLiteral("panels: expected an array, got %1").arg(jsonTypeName(panelsValue)));
    const QJsonArray panelArray = panelsValue.toArray();
    if (panelArray.size() != kPanelCount)
        return violation(StoryboardRule::PanelCount,
                         QStringLiteral("panels: expected exactly %1 panels, got %2").arg(kPanelCount).arg(panelArray.size()));

    Storyboard board;
    board.title = titleValue.toString();
    for (int i = 0; i < kPanelCount; ++i) {
        // Named only on a violation: a valid board builds no message.
        const auto where = [i] {
            return QStringLiteral("panels[%1]").arg(i);
        };
        const QJsonValue pv = panelArray.at(i);
        if (!pv.isObject())
            return violation(StoryboardRule::PanelObject, QStringLiteral("%1: expected an object, got %2").arg(where(), jsonTypeName(pv)));
        const QJsonObject po = pv.toObject();

        Panel panel;
        const QJsonValue indexValue = po.value(QLatin1StringView("index"));
        const double indexNumber = indexValue.toDouble(-1);
        if (!indexValue.isDouble() || indexNumber != static_cast<double>(i + 1))
            return violation(StoryboardRule::PanelIndex,
                             QStringLiteral("%1.index: expected %2 (indices 1..4 in order), got %3")
                                 .arg(where())
                                 .arg(i + 1)
                                 .arg(indexValue.isDouble() ? QString::number(indexNumber) : jsonTypeName(indexValue)));
        panel.index = i + 1;

        const QJsonValue roleValue = po.value(QLatin1StringView("role"));
        const QString &expectedRole = panelRoles().at(i);
        if (!roleValue.isString() || roleValue.toString() != expectedRole)
            return violation(
                StoryboardRule::PanelRole,
                QStringLiteral("%1.role: expected \"%2\" (SETUP, DEVELOPMENT, TURN, CONCLUSION in order), got %3")
                    .arg(where(), expectedRole,
                         roleValue.isString() ? QLatin1Char('"') + roleValue.toString() + QLatin1Char('"') : jsonTypeName(roleValue)));
        panel.role = expectedRole;

        const QJsonValue sceneValue = po.value(QLatin1StringView("scene"));
        if (!sceneValue.isString() || isBlank(sceneValue.toString()))
            return violation(StoryboardRule::Scene,
                             QStringLiteral("%1.scene: expected a non-empty string, got %2")
                                 .arg(where(), sceneValue.isString() ? QStringLiteral("an empty string") : jsonTypeName(sceneValue)));
        panel.scene = sceneValue.toString();

        const QJsonValue charactersValue = po.value(QLatin1StringView("characters"));
        if (!charactersValue.isArray())
            return violation(
                StoryboardRule::Characters,
                QStringLiteral("%1.characters: expected an array of names, got %2").arg(where(), jsonTypeName(charactersValue)));
        const QJsonArray characterArray = charactersValue.toArray();
        for (qsizetype c = 0; c < characterArray.size(); ++c) {
            const QJsonValue cv = characterArray.at(c);
            if (!cv.isString() || isBlank(cv.toString()))
                return violation(StoryboardRule::Characters,
                                 QStringLiteral("%1.characters[%2]: expected a non-empty string, got %3")
                                     .arg(where())
                                     .arg(c)
                                     .arg(cv.isString() ? QStringLiteral("an empty string") : jsonTypeName(cv)));
            panel.characters.append(cv.toString());
        }

        const QJsonValue dialogueValue = po.value(QLatin1StringView("dialogue"));
        if (!dialogueValue.isArray())
            return violation(StoryboardRule::DialogueArray,
                             QStringLiteral("%1.dialogue: expected an array, got %2").arg(where(), jsonTypeName(dialogueValue)));
        const QJsonArray dialogueArray = dialogueValue.toArray();
        if (dialogueArray.size() > kMaxDialogueLines)
            return violation(StoryboardRule::DialogueCount,
                             QStringLiteral("%1.dialogue: at most %2 lines per panel, got %3")
                                 .arg(where())
                                 .arg(kMaxDialogueLines)
                                 .arg(dialogueArray.size()));
        for (qsizetype d = 0; d < dialogueArray.size(); ++d) {
            const auto lineWhere = [&where, d] {
                return QStringLiteral("%1.dialogue[%2]").arg(where()).arg(d);
            };
            const QJsonValue dv = dialogueArray.at(d);
            if (!dv.isObject())
                return violation(StoryboardRule::DialogueLineObject,
                                 QStringLiteral("%1: expected an object with speaker and text, got %2").arg(lineWhere(), jsonTypeName(dv)));
            const QJsonObject dobj = dv.toObject();
            const QJsonValue speaker = dobj.value(QLatin1StringView("speaker"));
            if (!speaker.isString() || isBlank(speaker.toString()))
                return violation(StoryboardRule::DialogueSpeaker,
                                 QStringLiteral("%1.speaker: expected a non-empty string, got %2")
                                     .arg(lineWhere(), speaker.isString() ? QStringLiteral("an empty string") : jsonTypeName(speaker)));
            const QJsonValue text = dobj.value(QLatin1StringView("text"));
            if (!text.isString() || isBlank(text.toString()))
                return violation(StoryboardRule::DialogueText,
                                 QStringLiteral("%1.text: expected a non-empty string, got %2")
                                     .arg(lineWhere(), text.isString() ? QStringLiteral("an empty string") : jsonTypeName(text)));
            const qsizetype length = codePoints(text.toString());
            if (length > kMaxDialogueChars)
                return violation(
                    StoryboardRule::DialogueLength,
                    QStringLiteral("%1.text: at most %2 characters, got %3").arg(lineWhere()).arg(kMaxDialogueChars).arg(length));
            panel.dialogue.append(DialogueLine { speaker.toString(), text.toString() });
        }
        board.panels.append(std::move(panel));
    }

    StoryboardCheck check;
    check.storyboard = std::move(board);
    return check;
}

} // namespace bullpen
