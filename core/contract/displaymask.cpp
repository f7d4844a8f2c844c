// SPDX-License-Identifier: MIT
#include "displaymask.h"

#include <algorithm>

namespace bullpen {

bool DisplayMask::isControl(QChar c)
{
    return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format;
}

QString DisplayMask::user(const QString &rawUserId)
{
    // Control and format characters never reach a mask (they would reach terminals and exports).
    QString id;
    for (const QChar c : rawUserId.trimmed()) {
        if (!DisplayMask::isControl(c))
            id += c;
    }
    if (id.isEmpty())
        return QStringLiteral("(anonymous)");
    // A mask shows at most a third of the id's characters ('@' and '.' of an address are its shape,
    // not counted), so a short id is never given away by its mask.
    qsizetype budget = id.size() / 3;
    auto take = [&budget](QStringView part, qsizetype want) {
        const qsizetype n = std::min(want, budget);
        budget -= n;
        return part.left(n).toString();
    };
    const qsizetype at = id.indexOf(QLatin1Char('@'));
    if (at > 0 && at < id.size() - 1) {
        const QString domain = id.mid(at + 1);
        const qsizetype dot = domain.lastIndexOf(QLatin1Char('.'));
        const QString local = take(id, 1);
        const QString host = take(domain, 1);
        const QString tld = dot > 0 && domain.size() - dot - 1 <= budget ? domain.mid(dot) : QString();
        return local + QStringLiteral("***@") + host + QStringLiteral("***") + tld;
    }
    const qsizetype shown = std::min<qsizetype>(budget, 4);
    const qsizetype head = (shown + 1) / 2, tail = shown / 2;
    return id.left(head) + QStringLiteral("****") + id.right(tail);
}

QString DisplayMask::generationId(const QString &generationId)
{
    static const QString prefix = QStringLiteral("gen_");
    const QString hex = generationId.startsWith(prefix) ? generationId.mid(prefix.size()) : generationId;
    if (hex.size() <= 8)
        return generationId;
    return prefix + hex.left(4) + QChar(0x2026) + hex.right(4);
}

} // namespace bullpen
