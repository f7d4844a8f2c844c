// SPDX-License-Identifier: MIT
#include "ops/soakrun.h"

#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::ops {

const QStringList &soakStories()
{
    static const QStringList stories = {
        QStringLiteral("Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together."),
        QStringLiteral(
            "하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. \"열쇠를 잊었어,\" 고양이가 말한다. 하루와 "
            "고양이는 함께 집으로 돌아간다."),
        QStringLiteral(
            "Jun bakes bread at midnight. The oven sings. \"Too much yeast!\" shouts Jun. By morning the loaf fills the kitchen."),
        QStringLiteral("비가 오는 날, 서윤은 우산을 잃어버린다. 낯선 할머니가 우산을 건넨다. \"내일 돌려주렴,\" 할머니가 웃는다. 다음 날 "
                       "가게는 사라지고 없다."),
        QStringLiteral(
            "A robot learns to whistle. Birds gather on the roof. \"Again,\" chirps the smallest bird. The robot whistles until dawn."),
    };
    return stories;
}

QString rawUserFor(const QString &generationId)
{
    return QStringLiteral("soak-user-%1@example.com").arg(qHash(generationId) % 50);
}

void report(QTextStream &out, const SoakLedger &ledger, const QJsonObject &summary, bool json, const QString &recordsLine)
{
    if (json) {
        out << QJsonDocument(summary).toJson(QJsonDocument::Indented);
    } else {
        ledger.print(out, summary);
        if (!recordsLine.isEmpty())
            out << recordsLine << "\n";
    }
    out.flush();
}

} // namespace bullpen::ops
