// SPDX-License-Identifier: MIT
#pragma once

#include "history/providerhealth.h"

#include <QAbstractTableModel>

namespace bullpen {

// The health strip's numbers (docs/contract.md §9.8): one row per provider, role and stage seen in the
// last 15 minutes, with the last 5 minutes' and the last 15 minutes' attempts, error %, top failure kind,
// fallback % and p50/p90, and the state of the 5-minute window ("failing now"). Fed whole by setHealth()
// from the store's summaries; rows keep their order (providers in enum order, primary first, stages in
// enum order).
class ProviderHealthModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ProviderColumn,
        RoleColumn,
        StageColumn,
        StateColumn,
        Attempts5,
        Errors5,
        TopKind5,
        Fallback5,
        P50_5,
        P90_5,
        Attempts15,
        Errors15,
        TopKind15,
        Fallback15,
        P50_15,
        P90_15,
        ColumnCount
    };
    // Qt::UserRole: the raw number (qint64 count, double percent or ms; an empty QVariant when none).
    enum DataRole { ValueRole = Qt::UserRole + 1, StateRole };

    explicit ProviderHealthModel(QObject *parent = nullptr);

    void setHealth(const QList<ProviderHealth> &last5, const QList<ProviderHealth> &last15);
    // The summaries of one row, by provider, role and stage (empty ones where it had no attempts).
    ProviderHealth last5(int row) const { return m_rows.value(row).last5; }
    ProviderHealth last15(int row) const { return m_rows.value(row).last15; }
    int rowOf(Provider provider, Role role, Stage stage) const;
    // The rule behind StateColumn, in words (tooltip, README).
    static QString ruleText();
    static QString stateText(ProviderHealth::State state);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        ProviderHealth last5;
        ProviderHealth last15;
    };
    QList<Row> m_rows;
};

} // namespace bullpen
