// SPDX-License-Identifier: MIT
#include "controlcharacters.h"

#include <QUrlQuery>

namespace bullpen {

std::optional<qsizetype> firstControlCharacter(QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text.at(i).category() == QChar::Other_Control)
            return i;
    return std::nullopt;
}

namespace {

QString where(QStringView text, qsizetype at)
{
    return QStringLiteral("U+%1 at offset %2").arg(text.at(at).unicode(), 4, 16, QLatin1Char('0')).arg(at);
}

} // namespace

std::optional<QString> controlCharacterRefusal(const QUrl &url)
{
    const QString path = url.path(QUrl::FullyDecoded);
    if (const auto at = firstControlCharacter(path))
        return QStringLiteral("the path holds a control character (%1); ids and names are printable text, send them as "
                              "listed by the API")
            .arg(where(path, *at));
    const QUrlQuery query(url);
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (const auto at = firstControlCharacter(name))
            return QStringLiteral("a query parameter's name holds a control character (%1); see docs/api.md for the parameters")
                .arg(where(name, *at));
        if (const auto at = firstControlCharacter(value))
            return QStringLiteral("query parameter \"%1\" holds a control character (%2); send printable text (bytes 00 to 1F "
                                  "and 7F are refused, encoded or not)")
                .arg(name.left(64), where(value, *at));
    }
    return std::nullopt;
}

} // namespace bullpen
