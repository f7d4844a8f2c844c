// SPDX-License-Identifier: MIT
#include "secretscrubber.h"

#include "contract/displaymask.h"

#include <QRegularExpression>

namespace bullpen::SecretScrubber {

QString tail(QStringView secret)
{
    return QStringLiteral("…") + secret.right(std::min<qsizetype>(4, secret.size() / 4)).toString();
}

QString scrub(const QString &text, const QStringList &secrets)
{
    QString out = text;
    for (const QString &s : secrets) {
        if (s.size() >= 6)
            out.replace(s, tail(s));
    }
    // Credential shapes: the value group is replaced by its tail.
    static const QRegularExpression shapes(QStringLiteral(
        R"((?i)(bearer\s+|x-api-key\s*[:=]\s*|x-goog-api-key\s*[:=]\s*|api[_-]?key\s*[:=]\s*["']?|[?&\s(]key=)([A-Za-z0-9._~+/=\-]{6,}))"
        R"(|\b(sk-[A-Za-z0-9_\-]{12,}|AIza[0-9A-Za-z_\-]{20,}|bp_[A-Za-z0-9_\-]{16,}|sim-[A-Za-z0-9_\-]{16,})\b)"));
    QString result;
    result.reserve(out.size());
    qsizetype last = 0;
    for (auto it = shapes.globalMatch(out); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const int group = m.capturedLength(2) > 0 ? 2 : 3;
        if (m.captured(group).startsWith(u'…'))
            continue;
        result += QStringView(out).mid(last, m.capturedStart(group) - last);
        result += tail(m.capturedView(group));
        last = m.capturedEnd(group);
    }
    result += QStringView(out).mid(last);
    return printable(std::move(result));
}

bool isControl(QChar c)
{
    return DisplayMask::isControl(c);
}

QString printable(QString text, bool keepLineBreaks)
{
    for (QChar &c : text) {
        if (isControl(c) && !(keepLineBreaks && (c == u'\n' || c == u'\r' || c == u'\t')))
            c = QLatin1Char(' ');
    }
    return text;
}

} // namespace bullpen::SecretScrubber
