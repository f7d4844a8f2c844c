// SPDX-License-Identifier: MIT
#pragma once

#include "cost/spend.h"

#include <QAbstractTableModel>

namespace bullpen {

// docs/contract.md §16: a range's spend, one row per provider, stage, role and currency (the rows of
// /v1/stats/spend). Qt::DisplayRole: text; SortRole: the raw value; RowRole: the SpendRow.
class SpendModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ProviderColumn, StageColumn, RoleColumn, AttemptsColumn, CostColumn, UnknownColumn, ColumnCount };
    enum DataRole { SortRole = Qt::UserRole + 1, RowRole };
    explicit SpendModel(QObject *parent = nullptr);

    void setSpend(const Spend &spend); // replaces the rows (a new range or a refresh)
    const Spend &spend() const { return m_spend; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Spend m_spend;
};

} // namespace bullpen
