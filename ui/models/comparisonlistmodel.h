// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/comparison.h"

#include <QAbstractTableModel>

namespace bullpen {

class HistoryQueue;
class HistoryReader;

// Past comparisons (docs/contract.md §9.6), newest first, paged in from the store with fetchMore(); a comparison
// that ends is put on top. With a HistoryQueue each page is read on the console's reader thread and
// inserted when it arrives (pageLoaded); without one, at once.
class ComparisonListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Primary, Fallback, Outcome, ColumnCount };
    enum DataRole { ComparisonIdRole = Qt::UserRole + 1 };
    static constexpr int kPageSize = 50;

    explicit ComparisonListModel(QObject *parent = nullptr);

    void setQueue(HistoryQueue *queue) { m_queue = queue; }
    void setHistory(HistoryReader *history);
    bool isLoading() const { return m_fetching; }
    void prepend(const Comparison &comparison);
    const Comparison &at(int row) const { return m_rows.at(row); }
    int indexOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void pageLoaded();

private:
    static QString sideText(const ComparisonSide &side);
    void append(const QList<ComparisonRow> &rows);

    HistoryReader *m_history = nullptr;
    HistoryQueue *m_queue = nullptr;
    quint64 m_epoch = 0; // counts setHistory(): a page read for an earlier one is dropped
    QList<Comparison> m_rows;
    bool m_exhausted = true;
    bool m_fetching = false;
};

} // namespace bullpen
