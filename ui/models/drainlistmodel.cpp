// SPDX-License-Identifier: MIT
#include "drainlistmodel.h"

#include <QJsonArray>

namespace bullpen {

DrainListModel::DrainListModel(QObject *parent)
    : JsonRowsModel(parent)
    , m_now([] { return QDateTime::currentDateTimeUtc(); })
{
}

void DrainListModel::setProviders(const QJsonObject &providers)
{
    QList<QJsonObject> rows;
    for (const QJsonValue &p : providers.value(QLatin1StringView("providers")).toArray())
        for (const QJsonValue &d : p.toObject().value(QLatin1StringView("drains")).toArray())
            rows << d.toObject();
    setRows(rows);
}

int DrainListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DrainListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ProviderColumn:
        return tr("Provider");
    case RoleColumn:
        return tr("Role");
    case StageColumn:
        return tr("Stage");
    case ByColumn:
        return tr("By");
    case ReasonColumn:
        return tr("Why");
    case SinceColumn:
        return tr("Since");
    case UntilColumn:
        return tr("Until");
    case RemainingColumn:
        return tr("Remaining");
    default:
        return {};
    }
}

QString DrainListModel::key(const QJsonObject &row) const
{
    return row.value(QLatin1StringView("provider")).toString() + QLatin1Char('/') + row.value(QLatin1StringView("role")).toString()
        + QLatin1Char('/') + row.value(QLatin1StringView("stage")).toString();
}

QString DrainListModel::text(const QJsonObject &row, int column) const
{
    switch (column) {
    case ProviderColumn:
        return row.value(QLatin1StringView("provider")).toString();
    case RoleColumn:
        return controltext::role(row.value(QLatin1StringView("role")));
    case StageColumn:
        return controltext::stage(row.value(QLatin1StringView("stage")));
    case ByColumn: {
        const QString by = row.value(QLatin1StringView("by")).toString();
        return by == u"console" ? tr("this console") : by;
    }
    case ReasonColumn:
        return row.value(QLatin1StringView("reason")).toString();
    // To the minute, and no end as a dash (Remaining says "until restored"): the eight columns fit
    // half of a 1024 px window (the tooltips give the whole time).
    case SinceColumn:
        return controltext::minutes(row.value(QLatin1StringView("since")));
    case UntilColumn:
        return row.value(QLatin1StringView("until")).isString() ? controltext::minutes(row.value(QLatin1StringView("until")))
                                                                : QStringLiteral("–");
    case RemainingColumn:
        return controltext::remaining(row.value(QLatin1StringView("until")), m_now());
    default:
        return {};
    }
}

QString DrainListModel::toolTip(const QJsonObject &row, int column) const
{
    switch (column) {
    case SinceColumn:
        return controltext::dateTime(row.value(QLatin1StringView("since")));
    case UntilColumn:
        return row.value(QLatin1StringView("until")).isString() ? controltext::dateTime(row.value(QLatin1StringView("until")))
                                                                : tr("until restored");
    default:
        return text(row, column);
    }
}

QVariant DrainListModel::sortValue(const QJsonObject &row, int column) const
{
    switch (column) {
    case SinceColumn:
        return row.value(QLatin1StringView("since")).toString();
    case UntilColumn:
    case RemainingColumn: // no end sorts last
        return row.value(QLatin1StringView("until")).toString(QStringLiteral("9999"));
    default:
        return text(row, column);
    }
}

} // namespace bullpen
