// SPDX-License-Identifier: MIT
#pragma once

#include "controltext.h"
#include "engine/breakerboard.h"
#include "jsonrowsmodel.h"

namespace bullpen {

// The Control view's breakers (docs/console.md, "Control view"): one row per provider × role × stage
// that has seen an attempt, with its state, since when, the failures in the window, when the next
// trial may go (ticking with refreshColumn(NextTrialColumn)), how often it opened and why.
class BreakerListModel final : public JsonRowsModel
{
    Q_OBJECT
public:
    enum Column {
        ProviderColumn,
        RoleColumn,
        StageColumn,
        StateColumn,
        SinceColumn,
        FailuresColumn,
        NextTrialColumn,
        OpenedColumn,
        ReasonColumn,
        ColumnCount
    };
    explicit BreakerListModel(QObject *parent = nullptr);
    void setClock(controltext::WallClock clock) { m_now = std::move(clock); }
    // Every breaker of every provider in a GET /v1/providers answer that this console knows, each row
    // as its codec writes it (wire/breakerrowjson.h).
    void setProviders(const QJsonObject &providers);
    // A row (RowRole) read back by the codec; nothing for a row that is not one (no current row).
    static std::optional<BreakerView> breaker(const QJsonObject &row);
    // A breaker's state in words: closed, OPEN, HALF-OPEN.
    static QString stateText(const QString &stateId);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString key(const QJsonObject &row) const override;
    QString text(const QJsonObject &row, int column) const override;
    QVariant sortValue(const QJsonObject &row, int column) const override;

private:
    controltext::WallClock m_now;
};

} // namespace bullpen
