// SPDX-License-Identifier: MIT
#pragma once

#include "analytics/fallbackwaittracker.h"
#include "analytics/latencystats.h"
#include "contract/providertable.h"
#include "engine/event.h"

#include <QDateTime>
#include <QHash>
#include <QWidget>

class QBarSet;
class QChart;
class QDateTimeAxis;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QTimer;
class QToolButton;

namespace bullpen {

struct LinkFilter;

class AnnotationModel;
class HistoryReader;
class HistoryQueue;
class SpendPanel;
class TunePanel;

// docs/contract.md §9.5: per provider, role and stage, p50/p90/p99 over time buckets with the success rate, a
// histogram, and the extra wait fallback added. The store is read off the GUI thread; live attempts are
// then added one at a time and only the bucket they fall in is redrawn (a point replaced or inserted).
class LatencyView final : public QWidget
{
    Q_OBJECT
public:
    // `providers`: the engine's (EngineConnection::providers()), for the provider pickers.
    LatencyView(HistoryReader *history, HistoryQueue *queue, const ProviderTable &providers, QWidget *parent = nullptr);

    void setSelection(const QString &provider, const QString &role, const QString &stage);
    void setRange(qint64 spanMs, qint64 bucketMs); // picks the matching combo entries
    // The selection and time range as a `bullpen://` link carries them (docs/console.md, "Links"), and
    // opening them: checked first (false with what is wrong, nothing changed), then applied and re-read.
    QList<std::pair<QString, QString>> linkFilters() const;
    bool openLinkFilters(const QList<std::pair<QString, QString>> &filters, QString *error);
    void reload();
    void addEvents(const QList<Event> &batch);
    // Auto-refresh: the store is read again every interval (30 s by default), so attempts of every
    // engine writing there are drawn, not only this console's; "updated hh:mm:ss" and a pause.
    void setRefreshInterval(int ms);
    void setRefreshPaused(bool paused);
    bool isRefreshPaused() const { return m_refreshPaused; }
    QString updatedText() const;
    // The configured storyboard timeouts: the percentile chart draws the selected role's as a line
    // (0: none configured, no line).
    void setStoryboardTimeouts(double primaryMs, double fallbackMs);
    // The unit the percentile chart's values are drawn in: 1 (ms), or 1000 (s) once they reach 10 s.
    double unitMs() const { return m_unitMs; }
    bool hasTimeoutLine() const { return m_timeoutLine != nullptr; }
    // Drawn on the scale; else only named in the legend, far above the values.
    bool timeoutLineOnScale() const;
    bool isReading() const { return m_loading; } // a read of the store is under way
    // Another provider in the same role and stage drawn beside the selected one (its p50 and p90,
    // dashed); empty: none.
    void setComparedProvider(const QString &provider);
    // The provider and compare-with pickers list these (the engine's: EngineConnection::providers()).
    void setProviders(const ProviderTable &providers);
    // Drains, restores, breaker transitions and alerts marked on the percentile chart (docs/contract.md §15).
    void setAnnotations(AnnotationModel *model);
    // Points of the compared provider's p90 line (0 without a comparison).
    int comparedPointCount() const;

    qint64 skippedPrimaries() const { return m_skipped; }
    const LatencyStats &stats() const { return m_stats; }
    int pointCount() const; // points of the p50 series
    double lastLoadMs() const { return m_lastLoadMs; }
    double lastDrawMs() const { return m_lastDrawMs; }
    quint64 fullRedraws() const { return m_fullRedraws; }
    TunePanel *tunePanel() const { return m_tune; }
    SpendPanel *spendPanel() const { return m_spend; }

Q_SIGNALS:
    void loaded(); // the store's samples are in and drawn
    void liveUpdated(int bucket);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QList<LinkFilter> linkFilterTable() const;
    void rebuildCharts();
    QDateTimeAxis *rebuildTimeChart();
    void addTimeoutLine(QChart *chart, double timeoutMs, bool onScale);
    void addComparedSeries(QChart *chart);
    void rebuildExtraChart(const QString &format, const QDateTime &from, const QDateTime &to);
    void rebuildHistogram();
    void updateBucket(int bucket);
    void updateHistogram(int bin);
    void updateSummary();
    void updateExtraWait(int bucket);
    qint64 spanMs() const;
    qint64 bucketMs() const;

    HistoryReader *m_history;
    HistoryQueue *m_queue;
    QComboBox *m_provider;
    QComboBox *m_role;
    QComboBox *m_stage;
    QComboBox *m_range;
    QComboBox *m_bucket;
    QComboBox *m_compareWith;
    QLineSeries *m_compared50 = nullptr;
    QLineSeries *m_compared90 = nullptr;
    qint64 m_skipped = 0; // storyboard primary: generations that skipped it in the range
    LatencyStats m_comparedStats;
    QLabel *m_summary;
    QLabel *m_updated = nullptr;
    QToolButton *m_refreshPause = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QDateTime m_updatedAt;
    bool m_refreshPaused = false;
    bool m_missedRefresh = false; // an auto-refresh fell while the view was off screen
    QChartView *m_timeChart;
    QChartView *m_histChart;
    QChartView *m_extraChart;
    QLineSeries *m_p50 = nullptr;
    QLineSeries *m_p90 = nullptr;
    QLineSeries *m_p99 = nullptr;
    QLineSeries *m_success = nullptr;
    QLineSeries *m_timeoutLine = nullptr;
    double m_unitMs = 1;
    double m_primaryTimeoutMs = 0;
    double m_fallbackTimeoutMs = 0;
    QLineSeries *m_extra50 = nullptr;
    QLineSeries *m_extra90 = nullptr;
    QLineSeries *m_extra99 = nullptr;
    QBarSet *m_histOk = nullptr;
    QBarSet *m_histFail = nullptr;
    std::vector<int> m_pointOf; // bucket → index of its point in the series, -1 if empty
    std::vector<int> m_extraPointOf;
    LatencyStats m_stats;
    bool m_loading = false;
    quint64 m_sequence = 0;
    double m_lastLoadMs = 0;
    double m_lastDrawMs = 0;
    quint64 m_fullRedraws = 0;
    FallbackWaitTracker m_waits; // live: the extra wait that fallback added
    bool m_summaryPending = false;
    TunePanel *m_tune = nullptr;
    SpendPanel *m_spend = nullptr;
};

} // namespace bullpen
