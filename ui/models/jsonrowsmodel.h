// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>

namespace bullpen {

// A table of the engine's JSON rows (drains, breakers, audit entries: docs/api.md, "Providers") that a
// periodic refresh updates in place (docs/contract.md §15): a row whose key is still there stays at its
// index and only its cells change (dataChanged), a row that went is removed alone, a new one is
// appended; never a reset, so a selection, an open menu or a persistent index held on a row survives
// the refresh. Subclasses say what a row's key is and how its cells read.
class JsonRowsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Qt::DisplayRole: text; SortRole: the raw value (ISO time, count); RowRole: the row's JSON object.
    enum DataRole { SortRole = Qt::UserRole + 1, RowRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(const QList<QJsonObject> &rows);
    QJsonObject row(int row) const { return m_rows.value(row); }
    const QList<QJsonObject> &rows() const { return m_rows; }
    // The cells of `column` read again (a remaining time that ticks).
    void refreshColumn(int column);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    virtual QString key(const QJsonObject &row) const = 0;
    virtual QString text(const QJsonObject &row, int column) const = 0;
    virtual QVariant sortValue(const QJsonObject &row, int column) const { return text(row, column); }
    virtual QString toolTip(const QJsonObject &row, int column) const { return text(row, column); }

private:
    QList<QJsonObject> m_rows;
};

} // namespace bullpen
