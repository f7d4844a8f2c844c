// SPDX-License-Identifier: MIT
#include "textdiff.h"

#include <vector>

namespace bullpen {

QStringList TextDiff::words(const QString &text)
{
    QStringList out;
    QString current;
    auto flush = [&] {
        if (!current.isEmpty())
            out << current;
        current.clear();
    };
    for (const QChar c : text) {
        if (c.isSpace()) {
            if (out.isEmpty() && current.isEmpty())
                current += c; // leading space: a word of its own
            else if (current.isEmpty())
                out.last() += c;
            else
                current += c;
            continue;
        }
        const bool wordChar = c.isLetterOrNumber() || c.isMark() || c.isSurrogate();
        if (!current.isEmpty()
            && (current.back().isSpace() || !wordChar
                || !(current.back().isLetterOrNumber() || current.back().isMark() || current.back().isSurrogate())))
            flush();
        current += c;
    }
    flush();
    return out;
}

TextDiff TextDiff::compute(const QString &left, const QString &right, int maxWords)
{
    TextDiff d;
    const QStringList a = words(left);
    const QStringList b = words(right);
    auto key = [](const QString &w) {
        return w.trimmed();
    };
    if (a.size() > maxWords || b.size() > maxWords) {
        const bool same = left == right;
        d.left = { DiffSpan { left, !same } };
        d.right = { DiffSpan { right, !same } };
        d.changedLeft = same ? 0 : static_cast<int>(a.size());
        d.changedRight = same ? 0 : static_cast<int>(b.size());
        return d;
    }
    const std::size_t n = static_cast<std::size_t>(a.size());
    const std::size_t m = static_cast<std::size_t>(b.size());
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = key(a[qsizetype(i)]) == key(b[qsizetype(j)]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
    auto append = [](QList<DiffSpan> &spans, const QString &w, bool changed) {
        if (!spans.isEmpty() && spans.last().changed == changed)
            spans.last().text += w;
        else
            spans << DiffSpan { w, changed };
    };
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && key(a[qsizetype(i)]) == key(b[qsizetype(j)])) {
            append(d.left, a[qsizetype(i++)], false);
            append(d.right, b[qsizetype(j++)], false);
        } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
            append(d.right, b[qsizetype(j++)], true);
            ++d.changedRight;
        } else {
            append(d.left, a[qsizetype(i++)], true);
            ++d.changedLeft;
        }
    }
    return d;
}

QString TextDiff::toHtml(const QList<DiffSpan> &spans, const QString &changedStyle)
{
    QString html;
    for (const DiffSpan &s : spans) {
        if (s.changed) {
            // Trailing whitespace stays outside the highlight.
            const qsizetype end = [&] {
                qsizetype e = s.text.size();
                while (e > 0 && s.text.at(e - 1).isSpace())
                    --e;
                return e;
            }();
            html += QStringLiteral("<span style=\"%1\">").arg(changedStyle) + s.text.left(end).toHtmlEscaped() + QStringLiteral("</span>")
                + s.text.mid(end).toHtmlEscaped();
        } else {
            html += s.text.toHtmlEscaped();
        }
    }
    return html;
}

} // namespace bullpen
