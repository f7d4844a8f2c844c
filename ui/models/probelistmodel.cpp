// SPDX-License-Identifier: MIT
#include "probelistmodel.h"

#include "contract/durationtext.h"

#include <QJsonArray>

namespace bullpen {

ProbeListModel::ProbeListModel(QObject *parent)
    : JsonRowsModel(parent)
    , m_now([] { return QDateTime::currentDateTimeUtc(); })
{
}

void ProbeListModel::setProviders(const QJsonObject &providers)
{
    const QJsonValue probes = providers.value(QLatin1StringView("probes"));
    m_runs = probes.isObject();
    m_lead = probes.toObject().value(QLatin1StringView("lead")).toBool(true);
    QList<QJsonObject> rows;
    for (const QJsonValue &t : probes.toObject().value(QLatin1StringView("targets")).toArray())
        rows << t.toObject();
    setRows(rows);
}

int ProbeListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProbeListModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case ResultColumn:
        return tr("Last result");
    case TookColumn:
        return tr("Took");
    case WhenColumn:
        return tr("When");
    case NextDueColumn:
        return tr("Next due");
    default:
        return {};
    }
}

QString ProbeListModel::key(const QJsonObject &row) const
{
    return controltext::targetKey(row);
}

QString ProbeListModel::text(const QJsonObject &row, int column) const
{
    const QJsonObject last = row.value(QLatin1StringView("last")).toObject();
    switch (column) {
    case ProviderColumn:
        return row.value(QLatin1StringView("provider")).toString();
    case RoleColumn:
        return controltext::role(row.value(QLatin1StringView("role")));
    case StageColumn:
        return controltext::stage(row.value(QLatin1StringView("stage")));
    case ResultColumn:
        if (last.isEmpty())
            return row.value(QLatin1StringView("running")).toBool() ? tr("first probe running") : tr("not probed yet");
        return last.value(QLatin1StringView("ok")).toBool() ? tr("ok") : last.value(QLatin1StringView("kind")).toString(); // kinds are ids
    case TookColumn:
        return last.isEmpty() ? QString() : durationText(last.value(QLatin1StringView("duration_ms")).toDouble());
    case WhenColumn:
        return controltext::clock(last.value(QLatin1StringView("at")));
    case NextDueColumn: {
        if (row.value(QLatin1StringView("running")).toBool())
            return tr("running");
        const QDateTime due = controltext::time(row.value(QLatin1StringView("next_due")));
        if (!due.isValid())
            return {};
        const qint64 ms = m_now().msecsTo(due);
        return ms <= 0 ? tr("now") : tr("in %1").arg(durationText(double(ms / 1000 * 1000)));
    }
    default:
        return {};
    }
}

QVariant ProbeListModel::sortValue(const QJsonObject &row, int column) const
{
    const QJsonObject last = row.value(QLatin1StringView("last")).toObject();
    switch (column) {
    case TookColumn:
        return last.value(QLatin1StringView("duration_ms")).toDouble();
    case WhenColumn:
        return last.value(QLatin1StringView("at")).toString();
    case NextDueColumn:
        return row.value(QLatin1StringView("next_due")).toString();
    default:
        return text(row, column);
    }
}

QString ProbeListModel::toolTip(const QJsonObject &row, int column) const
{
    const QString held = row.value(QLatin1StringView("held")).toString();
    if (column == NextDueColumn && held == u"traffic")
        return tr("Users' traffic reached it within the interval: no probe while it has traffic");
    if (column == NextDueColumn && held == u"breaker")
        return tr("Its breaker is open or it is drained: no probe until the breaker lets one through");
    if (column == ResultColumn || column == WhenColumn)
        return row.value(QLatin1StringView("last")).toObject().value(QLatin1StringView("generation_id")).toString();
    return text(row, column);
}

} // namespace bullpen
