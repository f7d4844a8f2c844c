// SPDX-License-Identifier: MIT
#include "linkfilters.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QStringList>
#include <QVariant>

namespace bullpen {

namespace {
constexpr qint64 kMinuteMs = 60'000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;

int indexOf(const QComboBox *combo, const QString &value)
{
    for (int i = 0; i < combo->count(); ++i)
        if (linkValue(combo->itemData(i)) == value)
            return i;
    return -1;
}
} // namespace

QString linkValue(const QVariant &data)
{
    if (data.typeId() != QMetaType::LongLong && data.typeId() != QMetaType::Int)
        return data.toString();
    const qint64 ms = data.toLongLong();
    if (ms == 0)
        return QStringLiteral("all");
    if (ms % kDayMs == 0 && ms > kDayMs) // "24h" as the box says it, "7d"
        return QStringLiteral("%1d").arg(ms / kDayMs);
    if (ms % kHourMs == 0)
        return QStringLiteral("%1h").arg(ms / kHourMs);
    if (ms % kMinuteMs == 0)
        return QStringLiteral("%1m").arg(ms / kMinuteMs);
    return QString::number(ms);
}

LinkFilterValues linkFilterValues(const QList<LinkFilter> &table)
{
    LinkFilterValues out;
    for (const LinkFilter &f : table) {
        const QString value = linkValue(f.combo->currentData());
        if (!value.isEmpty())
            out.append({ QLatin1StringView(f.key), value });
    }
    return out;
}

bool applyLinkFilterValues(const QList<LinkFilter> &table, const LinkFilterValues &values, QString *error)
{
    QList<int> chosen(table.size(), -1);
    for (int i = 0; i < table.size(); ++i)
        chosen[i] = indexOf(table.at(i).combo, QString()); // left out of the link: its "any" item, if it has one
    for (const auto &[key, value] : values) {
        qsizetype row = -1;
        QStringList keys;
        for (qsizetype i = 0; i < table.size(); ++i) {
            keys << QLatin1StringView(table.at(i).key);
            if (key == QLatin1StringView(table.at(i).key))
                row = i;
        }
        if (row < 0) {
            if (error)
                *error = QCoreApplication::translate("bullpen::LinkFilters", "unknown part \"%1\" in the link; this view's link takes %2")
                             .arg(key.left(32), keys.join(QStringLiteral(", ")));
            return false;
        }
        const int index = indexOf(table.at(row).combo, value);
        if (index < 0) {
            QStringList valid;
            for (int i = 0; i < table.at(row).combo->count(); ++i)
                if (const QString v = linkValue(table.at(row).combo->itemData(i)); !v.isEmpty())
                    valid << v;
            if (error)
                *error = QCoreApplication::translate("bullpen::LinkFilters",
                                                     "%1=%2 in the link is not one of %3; Copy link gives a link this console opens")
                             .arg(key, value.left(32), valid.join(QStringLiteral(", ")));
            return false;
        }
        chosen[row] = index;
    }
    for (qsizetype i = 0; i < table.size(); ++i)
        if (chosen.at(i) >= 0)
            table.at(i).combo->setCurrentIndex(chosen.at(i));
    return true;
}

} // namespace bullpen
