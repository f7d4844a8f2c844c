// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

namespace bullpen {

// A word-level difference between two texts, for the compare view's highlighting (docs/contract.md §9.6). Words are
// runs of letters and digits (Hangul included); punctuation marks are words of their own; whitespace
// travels with the word before it and is never "changed" by itself.
struct DiffSpan
{
    QString text;
    bool changed = false;
    friend bool operator==(const DiffSpan &, const DiffSpan &) = default;
};

struct TextDiff
{
    QList<DiffSpan> left;
    QList<DiffSpan> right;
    int changedLeft = 0; // words only on the left
    int changedRight = 0; // words only on the right
    bool identical() const { return changedLeft == 0 && changedRight == 0; }

    // Longest common subsequence of words. Texts longer than `maxWords` words are compared as a whole
    // (changed or not), which keeps the cost bounded.
    static TextDiff compute(const QString &left, const QString &right, int maxWords = 2000);
    static QStringList words(const QString &text);
    // HTML with changed spans marked by <span class="chg">, everything escaped.
    static QString toHtml(const QList<DiffSpan> &spans, const QString &changedStyle);
};

} // namespace bullpen
