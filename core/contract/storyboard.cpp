// SPDX-License-Identifier: MIT
#include "storyboard.h"

#include <QJsonArray>

namespace bullpen {

QJsonObject Storyboard::toJson() const
{
    QJsonArray panelArray;
    for (const Panel &p : panels) {
        QJsonArray dialogueArray;
        for (const DialogueLine &d : p.dialogue)
            dialogueArray.append(QJsonObject { { QStringLiteral("speaker"), d.speaker }, { QStringLiteral("text"), d.text } });
        panelArray.append(QJsonObject { { QStringLiteral("index"), p.index },
                                        { QStringLiteral("role"), p.role },
                                        { QStringLiteral("scene"), p.scene },
                                        { QStringLiteral("characters"), QJsonArray::fromStringList(p.characters) },
                                        { QStringLiteral("dialogue"), dialogueArray } });
    }
    return QJsonObject { { QStringLiteral("title"), title }, { QStringLiteral("panels"), panelArray } };
}

} // namespace bullpen
