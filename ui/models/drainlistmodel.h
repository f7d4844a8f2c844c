// SPDX-License-Identifier: MIT
#pragma once

#include "controltext.h"
#include "engine/breakerboard.h"
#include "jsonrowsmodel.h"

namespace bullpen {

// The Control view's active drains (docs/console.md, "Control view"): provider, role and stage (or
// every one), who, why, since, until and what remains, from GET /v1/providers' shape; Remaining ticks
// with refreshColumn(RemainingColumn).
class DrainListModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column { ProviderColumn, RoleColumn, StageColumn, ByColumn, ReasonColumn, SinceColumn, UntilColumn, RemainingColumn, ColumnCount };
    explicit DrainListModel(QObject *parent = nullptr);
    void setClock(controltext::WallClock clock) { m_now = std::move(clock); }
    // Every drain of every provider in a GET /v1/providers answer that this console knows, each row as
    // its codec writes it (wire/drainrowjson.h).
    void setProviders(const QJsonObject &providers);
    // A row (RowRole) read back by the codec; nothing for a row that is not one (no current row).
    static std::optional<Drain> drain(const QJsonObject &row);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QVariant sortValue(const QJsonObject &row, int column) const override;
    QString toolTip(const QJsonObject &row, int column) const override;

private:
    controltext::WallClock m_now;
};

} // namespace bullpen
