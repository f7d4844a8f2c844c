// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace bullpen {

// docs/contract.md §2.1: the storyboard every provider must produce. Plain values; one parser and one validator
// (StoryboardParser, StoryboardValidator) build it from any provider's text.
struct DialogueLine
{
    QString speaker;
    QString text;
    friend bool operator==(const DialogueLine &, const DialogueLine &) = default;
};

struct Panel
{
    int index = 0;
    QString role; // one of kPanelRoles, in order
    QString scene;
    QStringList characters;
    QList<DialogueLine> dialogue;
    friend bool operator==(const Panel &, const Panel &) = default;
};

struct Storyboard
{
    QString title;
    QList<Panel> panels;

    QJsonObject toJson() const;
    friend bool operator==(const Storyboard &, const Storyboard &) = default;
};

// The Korean 기승전결 structure, in the order panels 1..4 must follow.
inline const QStringList &panelRoles()
{
    static const QStringList roles { QStringLiteral("SETUP"), QStringLiteral("DEVELOPMENT"), QStringLiteral("TURN"),
                                     QStringLiteral("CONCLUSION") };
    return roles;
}

struct TokenUsage
{
    qint64 input = -1; // -1: the provider did not say
    qint64 output = -1;
    bool known() const { return input >= 0 || output >= 0; }
    friend bool operator==(const TokenUsage &, const TokenUsage &) = default;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Storyboard)
