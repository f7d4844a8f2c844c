// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/comparison.h"

#include <QAbstractTableModel>

namespace bullpen {

class HistoryReader;

// Past comparisons (SPEC 9.6), newest first, paged in from the store with fetchMore(); a comparison
// that ends is put on top.
class ComparisonListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Primary, Fallback, Outcome, ColumnCount };
    enum DataRole { ComparisonIdRole = Qt::UserRole + 1 };
    static constexpr int kPageSize = 50;

    explicit ComparisonListModel(QObject *parent = nullptr);

    void setHistory(HistoryReader *history);
    void prepend(const Comparison &comparison);
    const Comparison &at(int row) const { return m_rows.at(row); }
    int indexOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    static QString sideText(const ComparisonSide &side);

    HistoryReader *m_history = nullptr;
    QList<Comparison> m_rows;
    bool m_exhausted = true;
    bool m_fetching = false;
};

} // namespace bullpen
