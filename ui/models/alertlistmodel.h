// SPDX-License-Identifier: MIT
#pragma once

#include "jsonrowsmodel.h"

namespace bullpen {

// The Control view's alerts (docs/console.md, "Control view"): the shipped rules as the engine
// evaluates them (GET /v1/alerts), pending and firing first, then the resolved ones, newest first;
// each with its series, since when it held, when it fired and ended, its value, until when an operator
// silenced its rule, and its runbook.
class AlertListModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column {
        RuleColumn,
        SeriesColumn,
        StateColumn,
        ActiveColumn,
        FiredColumn,
        ResolvedColumn,
        ValueColumn,
        SilencedColumn,
        ColumnCount
    };
    explicit AlertListModel(QObject *parent = nullptr);
    // A GET /v1/alerts answer.
    void setAlerts(const QJsonObject &alerts);
    static QString stateText(const QString &stateId);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QString toolTip(const QJsonObject &row, int column) const override;
};

} // namespace bullpen
