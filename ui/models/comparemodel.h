// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/comparison.h"

#include <QAbstractTableModel>

namespace bullpen {

// docs/contract.md §9.6: two storyboards side by side, row by row (title, then panels 1–4, then captions), with the
// words that differ marked. Column 0 is the primary provider's, column 1 the fallback provider's.
class CompareModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum DataRole { HtmlRole = Qt::UserRole + 1, ChangedRole, ChangedWordsRole };
    enum Row { Title, Panel1, Panel2, Panel3, Panel4, Captions, RowCount };

    explicit CompareModel(QObject *parent = nullptr);

    void setComparison(const Comparison &comparison);
    const Comparison &comparison() const { return m_comparison; }
    int changedWords() const { return m_changedWords; }
    int totalWords() const { return m_totalWords; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The text one side shows in a row (also what is compared).
    static QString rowText(const ComparisonSide &side, int row);

private:
    struct Cell
    {
        QString text;
        QString html;
        int changed = 0;
    };
    Comparison m_comparison;
    Cell m_cells[RowCount][2];
    int m_changedWords = 0;
    int m_totalWords = 0;
};

} // namespace bullpen
