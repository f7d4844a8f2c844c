// SPDX-License-Identifier: MIT
#pragma once

#include "cost/spend.h"

#include <QWidget>

class QChartView;
class QLabel;
class QTableView;

namespace bullpen {

class HistoryQueue;
class SpendModel;

// docs/contract.md §16 in the dashboards: spend per provider over time (stacked bars, one slice of the
// range each), the range's rows per provider, stage and role, the total and what fallbacks added. Read
// on the history's reader thread (attached: the engine's /v1/stats/spend, one call per slice).
class SpendPanel final : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kSlices = 12; // bars over the range

    explicit SpendPanel(HistoryQueue *queue, QWidget *parent = nullptr);
    void setRange(qint64 fromMs, qint64 toMs); // read again now if shown, else when next shown
    void reload();

    SpendModel *model() const { return m_model; }
    const QList<Spend> &slices() const { return m_slices; }
    QString totalsText() const;
    QChartView *chart() const { return m_chart; }

Q_SIGNALS:
    void loaded();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void draw();

    HistoryQueue *m_queue;
    SpendModel *m_model;
    QTableView *m_table;
    QChartView *m_chart;
    QLabel *m_totals;
    QList<Spend> m_slices;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    bool m_stale = true;
    bool m_loading = false;
};

} // namespace bullpen
