// SPDX-License-Identifier: MIT
#pragma once

#include "storyboard.h"

#include <QJsonObject>
#include <QObject>

#include <optional>

namespace bullpen {

// The rules of docs/contract.md §2.1, one value per rule, so tests and the console can say which one broke.
class StoryboardRules
{
    Q_GADGET
public:
    enum class Rule {
        Utf8,
        Fence,
        Json,
        TopLevelObject,
        Title,
        PanelsArray,
        PanelCount,
        PanelObject,
        PanelIndex,
        PanelRole,
        Scene,
        Characters,
        DialogueArray,
        DialogueCount,
        DialogueLineObject,
        DialogueSpeaker,
        DialogueText,
        DialogueLength,
    };
    Q_ENUM(Rule)
};
using StoryboardRule = StoryboardRules::Rule;

struct StoryboardViolation
{
    StoryboardRule rule = StoryboardRule::Json;
    QString detail; // one line, names the field and what was wrong
};

struct StoryboardCheck
{
    std::optional<Storyboard> storyboard;
    std::optional<StoryboardViolation> violation; // exactly one of the two is set
    bool ok() const { return storyboard.has_value(); }
};

class StoryboardValidator final
{
public:
    static constexpr int kPanelCount = 4;
    static constexpr int kMaxDialogueLines = 4;
    static constexpr int kMaxDialogueChars = 200; // Unicode code points, not UTF-16 units

    // Checks a parsed JSON object against docs/contract.md §2.1 and reports the first rule it breaks.
    static StoryboardCheck validate(const QJsonObject &object);
};

} // namespace bullpen
