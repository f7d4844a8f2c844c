// SPDX-License-Identifier: MIT
#include "jsonstring.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace bullpen {

void appendJsonStringContents(QByteArray &out, const QString &text)
{
    for (const QChar c : text) {
        if (c.unicode() >= 0x80) { // beyond ASCII: Qt's own encoder, for identical bytes
            const QByteArray whole = QJsonDocument(QJsonArray { text }).toJson(QJsonDocument::Compact); // ["…"]
            out += QByteArrayView(whole).sliced(2, whole.size() - 4);
            return;
        }
    }
    for (const QChar c : text) {
        const auto u = char(c.unicode());
        switch (u) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (uchar(u) < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out += "\\u00";
                out += hex[uchar(u) >> 4];
                out += hex[uchar(u) & 0xf];
            } else {
                out += u;
            }
        }
    }
}

} // namespace bullpen
