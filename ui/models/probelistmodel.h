// SPDX-License-Identifier: MIT
#pragma once

#include "controltext.h"
#include "jsonrowsmodel.h"

namespace bullpen {

// The Control view's probes (docs/console.md, "Control view"; docs/contract.md §15): one row per
// provider × role × stage the engine's prober tries, with its last result, how long it took, when it
// ran and when the next one is due (ticking with refreshColumn(NextDueColumn)), from GET /v1/providers'
// `probes`. Where no prober runs (embedded, or an engine without --probe-every) it holds no rows and
// proberRuns() is false: the view says so instead of showing an empty table.
class ProbeListModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column { ProviderColumn, RoleColumn, StageColumn, ResultColumn, TookColumn, NextDueColumn, WhenColumn, ColumnCount };
    explicit ProbeListModel(QObject *parent = nullptr);
    void setClock(controltext::WallClock clock) { m_now = std::move(clock); }
    void setProviders(const QJsonObject &providers);
    bool proberRuns() const { return m_runs; }
    // False while another engine on the store probes (this one's prober waits for the lock).
    bool leads() const { return m_lead; }
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QVariant sortValue(const QJsonObject &row, int column) const override;
    QString toolTip(const QJsonObject &row, int column) const override;

private:
    controltext::WallClock m_now;
    bool m_runs = false;
    bool m_lead = true;
};

} // namespace bullpen
