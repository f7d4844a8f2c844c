// SPDX-License-Identifier: MIT
#include "alertlistmodel.h"

#include "controltext.h"

#include <QJsonArray>

namespace bullpen {

AlertListModel::AlertListModel(QObject *parent)
    : JsonRowsModel(parent)
{
}

void AlertListModel::setAlerts(const QJsonObject &alerts)
{
    QList<QJsonObject> rows;
    for (const char *list : { "alerts", "history" })
        for (const QJsonValue &a : alerts.value(QLatin1StringView(list)).toArray())
            rows << a.toObject();
    setRows(rows);
}

QString AlertListModel::stateText(const QString &stateId)
{
    if (stateId == u"pending")
        return tr("pending");
    if (stateId == u"firing")
        return tr("FIRING");
    if (stateId == u"resolved")
        return tr("resolved");
    return stateId;
}

int AlertListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RuleColumn:
        return tr("Alert");
    case SeriesColumn:
        return tr("Of");
    case StateColumn:
        return tr("State");
    case ActiveColumn:
        return tr("Since");
    case FiredColumn:
        return tr("Fired");
    case ResolvedColumn:
        return tr("Resolved");
    case ValueColumn:
        return tr("Value");
    case SilencedColumn:
        return tr("Silenced until");
    default:
        return {};
    }
}

QString AlertListModel::key(const QJsonObject &row) const
{
    // A series keeps its row from pending to resolved: its rule, labels and the time it began.
    return row.value(QLatin1StringView("rule")).toString() + QLatin1Char('|') + row.value(QLatin1StringView("labels")).toString()
        + QLatin1Char('|') + row.value(QLatin1StringView("active_at")).toString();
}

QString AlertListModel::text(const QJsonObject &row, int column) const
{
    switch (column) {
    case RuleColumn:
        return row.value(QLatin1StringView("rule")).toString();
    case SeriesColumn:
        return row.value(QLatin1StringView("labels")).toString();
    case StateColumn:
        return stateText(row.value(QLatin1StringView("state")).toString());
    case ActiveColumn:
        return controltext::clock(row.value(QLatin1StringView("active_at")));
    case FiredColumn:
        return controltext::clock(row.value(QLatin1StringView("fired_at")));
    case ResolvedColumn:
        return controltext::clock(row.value(QLatin1StringView("resolved_at")));
    case ValueColumn:
        return QString::number(row.value(QLatin1StringView("value")).toDouble());
    case SilencedColumn:
        return row.value(QLatin1StringView("state")).toString() == u"resolved"
            ? QString()
            : controltext::clock(row.value(QLatin1StringView("silenced_until")));
    default:
        return {};
    }
}

QString AlertListModel::toolTip(const QJsonObject &row, int column) const
{
    return text(row, column) + QStringLiteral("\n") + tr("Runbook: %1").arg(row.value(QLatin1StringView("runbook_url")).toString());
}

} // namespace bullpen
