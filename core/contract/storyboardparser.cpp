// SPDX-License-Identifier: MIT
#include "storyboardparser.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace bullpen {

namespace {

StoryboardCheck violation(StoryboardRule rule, QString detail)
{
    StoryboardCheck check;
    check.violation = StoryboardViolation { rule, std::move(detail) };
    return check;
}

// Index of the first byte of an invalid UTF-8 sequence, or -1.
qsizetype firstInvalidUtf8(QByteArrayView bytes)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        int extra = 0;
        char32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + extra >= n)
            return i;
        for (int k = 1; k <= extra; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const bool overlong = (extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += extra + 1;
    }
    return -1;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

QByteArrayView trimmed(QByteArrayView v)
{
    qsizetype b = 0;
    qsizetype e = v.size();
    while (b < e && isSpace(v.at(b)))
        ++b;
    while (e > b && isSpace(v.at(e - 1)))
        --e;
    return v.sliced(b, e - b);
}

} // namespace

StoryboardCheck StoryboardParser::parse(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    return parse(QByteArrayView(utf8));
}

StoryboardCheck StoryboardParser::parse(QByteArrayView utf8Text)
{
    if (const qsizetype bad = firstInvalidUtf8(utf8Text); bad >= 0)
        return violation(StoryboardRule::Utf8, QStringLiteral("output is not valid UTF-8 (first bad byte at offset %1)").arg(bad));

    QByteArrayView body = trimmed(utf8Text);
    if (body.isEmpty())
        return violation(StoryboardRule::Json, QStringLiteral("output is empty"));

    static constexpr QByteArrayView fence("```");
    if (body.startsWith(fence)) {
        const qsizetype lineEnd = body.indexOf('\n');
        if (lineEnd < 0)
            return violation(StoryboardRule::Fence, QStringLiteral("code fence is not followed by a new line"));
        const QByteArrayView info = trimmed(body.sliced(3, lineEnd - 3));
        if (!info.isEmpty() && info != QByteArrayView("json") && info != QByteArrayView("JSON"))
            return violation(StoryboardRule::Fence,
                             QStringLiteral("code fence is marked \"%1\"; only ``` or ```json is accepted")
                                 .arg(QString::fromUtf8(info.first(std::min<qsizetype>(info.size(), 20)))));
        QByteArrayView inner = body.sliced(lineEnd + 1);
        if (!inner.endsWith(fence))
            return violation(StoryboardRule::Fence, QStringLiteral("code fence is not closed at the end of the output"));
        inner = trimmed(inner.chopped(3));
        if (inner.contains(fence))
            return violation(StoryboardRule::Fence, QStringLiteral("output holds more than one code fence"));
        body = inner;
    } else if (body.contains(fence)) {
        return violation(StoryboardRule::Fence,
                         QStringLiteral("text before the code fence; only the JSON or one fenced JSON block is accepted"));
    }

    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError)
        return violation(StoryboardRule::Json,
                         QStringLiteral("output is not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return violation(StoryboardRule::TopLevelObject, QStringLiteral("output JSON is not an object"));
    return StoryboardValidator::validate(doc.object());
}

} // namespace bullpen
