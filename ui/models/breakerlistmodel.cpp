// SPDX-License-Identifier: MIT
#include "breakerlistmodel.h"

#include "contract/isotime.h"
#include "contract/recordtext.h"
#include "wire/breakerrowjson.h"
#include "wire/providersjson.h"

namespace bullpen {

BreakerListModel::BreakerListModel(QObject *parent)
    : JsonRowsModel(parent)
    , m_now([] { return QDateTime::currentDateTimeUtc(); })
{
}

namespace {

// A time as the wire spells it, the sort key (ISO 8601 in UTC sorts as time); empty when none.
QString isoOrEmpty(const QDateTime &t)
{
    return t.isValid() ? isoUtcWithMs(t.toMSecsSinceEpoch()) : QString();
}

} // namespace

void BreakerListModel::setProviders(const QJsonObject &providers)
{
    QList<QJsonObject> rows;
    for (const BreakerView &b : ProvidersJson::breakers(providers))
        rows << BreakerRowJson::toJson(b);
    setRows(rows);
}

std::optional<BreakerView> BreakerListModel::breaker(const QJsonObject &row)
{
    const std::variant<BreakerView, FieldError> read = BreakerRowJson::fromJson(row);
    const BreakerView *b = std::get_if<BreakerView>(&read);
    return b ? std::optional(*b) : std::nullopt;
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
    const BreakerKey k = breaker(row).value_or(BreakerView {}).key;
    return toId(k.provider) + QLatin1Char('/') + toId(k.role) + QLatin1Char('/') + toId(k.stage);
}

QString BreakerListModel::text(const QJsonObject &row, int column) const
{
    const BreakerView b = breaker(row).value_or(BreakerView {}); // every row is one (setProviders)
    switch (column) {
    case ProviderColumn:
        return toId(b.key.provider);
    case RoleColumn:
        return controltext::role(b.key.role);
    case StageColumn:
        return controltext::stage(b.key.stage);
    case StateColumn:
        return stateText(toId(b.state));
    case SinceColumn:
        return controltext::clock(b.since);
    case FailuresColumn:
        return tr("%1 of %2").arg(b.failures).arg(b.attempts);
    case NextTrialColumn: {
        if (b.state == BreakerState::HalfOpen)
            return tr("trial in flight");
        if (b.state != BreakerState::Open || !b.retryAt)
            return {};
        return tr("%1 (in %2)").arg(controltext::clock(*b.retryAt), controltext::remaining(b.retryAt, m_now()));
    }
    case OpenedColumn:
        return QString::number(b.opened);
    case ReasonColumn:
        return localizedRecordText(b.reason);
    default:
        return {};
    }
}

QVariant BreakerListModel::sortValue(const QJsonObject &row, int column) const
{
    const BreakerView b = breaker(row).value_or(BreakerView {}); // every row is one (setProviders)
    switch (column) {
    case SinceColumn:
        return isoOrEmpty(b.since);
    case NextTrialColumn:
        return b.retryAt ? isoOrEmpty(*b.retryAt) : QString();
    case FailuresColumn:
        return b.failures;
    case OpenedColumn:
        return b.opened;
    default:
        return text(row, column);
    }
}

} // namespace bullpen
