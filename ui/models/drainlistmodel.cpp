// SPDX-License-Identifier: MIT
#include "drainlistmodel.h"

#include "contract/isotime.h"
#include "wire/drainrowjson.h"
#include "wire/providersjson.h"

namespace bullpen {

DrainListModel::DrainListModel(QObject *parent)
    : JsonRowsModel(parent)
    , m_now([] { return QDateTime::currentDateTimeUtc(); })
{
}

void DrainListModel::setProviders(const QJsonObject &providers)
{
    QList<QJsonObject> rows;
    for (const Drain &d : ProvidersJson::drains(providers))
        rows << DrainRowJson::toJson(d);
    setRows(rows);
}

std::optional<Drain> DrainListModel::drain(const QJsonObject &row)
{
    const std::variant<Drain, FieldError> read = DrainRowJson::fromJson(row);
    const Drain *d = std::get_if<Drain>(&read);
    return d ? std::optional(*d) : std::nullopt;
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
    const Drain d = drain(row).value_or(Drain {}); // every row is one (setProviders)
    return toId(d.provider) + QLatin1Char('/') + (d.role ? toId(*d.role) : QString()) + QLatin1Char('/')
        + (d.stage ? toId(*d.stage) : QString());
}

QString DrainListModel::text(const QJsonObject &row, int column) const
{
    const Drain d = drain(row).value_or(Drain {}); // every row is one (setProviders)
    switch (column) {
    case ProviderColumn:
        return toId(d.provider);
    case RoleColumn:
        return controltext::role(d.role);
    case StageColumn:
        return controltext::stage(d.stage);
    case ByColumn:
        return d.by == u"console" ? tr("this console") : d.by;
    case ReasonColumn:
        return d.reason;
    // To the minute, and no end as a dash (Remaining says "until restored"): the eight columns fit
    // half of a 1024 px window (the tooltips give the whole time).
    case SinceColumn:
        return controltext::minutes(d.since);
    case UntilColumn:
        return d.until ? controltext::minutes(*d.until) : QStringLiteral("–");
    case RemainingColumn:
        return controltext::remaining(d.until, m_now());
    default:
        return {};
    }
}

QString DrainListModel::toolTip(const QJsonObject &row, int column) const
{
    const Drain d = drain(row).value_or(Drain {}); // every row is one (setProviders)
    switch (column) {
    case SinceColumn:
        return controltext::dateTime(d.since);
    case UntilColumn:
        return d.until ? controltext::dateTime(*d.until) : tr("until restored");
    default:
        return text(row, column);
    }
}

QVariant DrainListModel::sortValue(const QJsonObject &row, int column) const
{
    const Drain d = drain(row).value_or(Drain {}); // every row is one (setProviders)
    switch (column) {
    case SinceColumn:
        return d.since.isValid() ? isoUtcWithMs(d.since.toMSecsSinceEpoch()) : QString();
    case UntilColumn:
    case RemainingColumn: // no end sorts last
        return d.until ? isoUtcWithMs(d.until->toMSecsSinceEpoch()) : QStringLiteral("9999");
    default:
        return text(row, column);
    }
}

} // namespace bullpen
