// SPDX-License-Identifier: MIT
#include "breakerlistmodel.h"

#include "contract/recordtext.h"

#include <QJsonArray>

namespace bullpen {

BreakerListModel::BreakerListModel(QObject *parent)
    : JsonRowsModel(parent)
    , m_now([] { return QDateTime::currentDateTimeUtc(); })
{
}

void BreakerListModel::setProviders(const QJsonObject &providers)
{
    QList<QJsonObject> rows;
    for (const QJsonValue &p : providers.value(QLatin1StringView("providers")).toArray())
        for (const QJsonValue &b : p.toObject().value(QLatin1StringView("breakers")).toArray())
            rows << b.toObject();
    setRows(rows);
}

QString BreakerListModel::stateText(const QString &stateId)
{
    if (stateId == u"open")
        return tr("OPEN");
    if (stateId == u"half_open")
        return tr("HALF-OPEN");
    if (stateId == u"closed")
        return tr("closed");
    return stateId;
}

int BreakerListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BreakerListModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case StateColumn:
        return tr("State");
    case SinceColumn:
        return tr("Since");
    case FailuresColumn:
        return tr("Failed in window");
    case NextTrialColumn:
        return tr("Next trial");
    case OpenedColumn:
        return tr("Opened");
    case ReasonColumn:
        return tr("Why");
    default:
        return {};
    }
}

QString BreakerListModel::key(const QJsonObject &row) const
{
    return controltext::targetKey(row);
}

QString BreakerListModel::text(const QJsonObject &row, int column) const
{
    const QString state = row.value(QLatin1StringView("state")).toString();
    switch (column) {
    case ProviderColumn:
        return row.value(QLatin1StringView("provider")).toString();
    case RoleColumn:
        return controltext::role(row.value(QLatin1StringView("role")));
    case StageColumn:
        return controltext::stage(row.value(QLatin1StringView("stage")));
    case StateColumn:
        return stateText(state);
    case SinceColumn:
        return controltext::clock(row.value(QLatin1StringView("since")));
    case FailuresColumn:
        return tr("%1 of %2")
            .arg(row.value(QLatin1StringView("window_failures")).toInt())
            .arg(row.value(QLatin1StringView("window_attempts")).toInt());
    case NextTrialColumn: {
        if (state == u"half_open")
            return tr("trial in flight");
        const QDateTime at = controltext::time(row.value(QLatin1StringView("retry_at")));
        if (state != u"open" || !at.isValid())
            return {};
        return tr("%1 (in %2)")
            .arg(controltext::clock(row.value(QLatin1StringView("retry_at"))),
                 controltext::remaining(row.value(QLatin1StringView("retry_at")), m_now()));
    }
    case OpenedColumn:
        return QString::number(row.value(QLatin1StringView("opened")).toInt());
    case ReasonColumn:
        return localizedRecordText(row.value(QLatin1StringView("reason")).toString());
    default:
        return {};
    }
}

QVariant BreakerListModel::sortValue(const QJsonObject &row, int column) const
{
    switch (column) {
    case SinceColumn:
        return row.value(QLatin1StringView("since")).toString();
    case NextTrialColumn:
        return row.value(QLatin1StringView("retry_at")).toString();
    case FailuresColumn:
        return row.value(QLatin1StringView("window_failures")).toInt();
    case OpenedColumn:
        return row.value(QLatin1StringView("opened")).toInt();
    default:
        return text(row, column);
    }
}

} // namespace bullpen
