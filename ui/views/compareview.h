// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/comparison.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace bullpen {

class HistoryQueue;

class CompareModel;
class ComparisonListModel;
class HistoryReader;

// docs/contract.md §9.6: the same story on the primary and on the fallback provider, explicitly and at once, each
// under its own timeout. Side by side: each side's outcome, validation result, latency and tokens,
// the storyboards panel by panel with the words that differ highlighted, and both images. Past
// comparisons are listed from the store and reopen on a click.
class CompareView final : public QWidget
{
    Q_OBJECT
public:
    // With `queue`, the list of past comparisons is read on the console's reader thread.
    explicit CompareView(HistoryReader *history, HistoryQueue *queue = nullptr, QWidget *parent = nullptr);

    CompareModel *model() const { return m_model; }
    ComparisonListModel *history() const { return m_history; }
    QTableView *historyTable() const { return m_historyTable; }
    QTableView *panelTable() const { return m_panels; }
    QString shownComparison() const;

    void setRunning(bool running);
    // A side ended or both did: shown, and put in the list once finished.
    void showComparison(const Comparison &comparison);

Q_SIGNALS:
    void compareRequested();
    void cancelRequested();

private:
    void fillSide(int column, const ComparisonSide &side, const Comparison &comparison);

    CompareModel *m_model;
    ComparisonListModel *m_history;
    QTableView *m_historyTable;
    QTableView *m_panels;
    QPushButton *m_compare;
    QPushButton *m_cancel;
    QLabel *m_status;
    QLabel *m_side[2];
    QLabel *m_image[2];
    QLabel *m_diffSummary;
};

} // namespace bullpen
