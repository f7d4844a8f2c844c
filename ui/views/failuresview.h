// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/event.h"
#include "history/historyexport.h"
#include "history/historyreader.h"

#include <QDateTime>
#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QLayout;
class QToolButton;
class QTableView;
class QTextBrowser;

class QHBoxLayout;

namespace bullpen {

struct LinkFilter;

class AnnotationModel;
class EngineConnection;
class ReplayDialog;

class EventLogModel;
class FailureHistoryModel;
class HistoryQueue;
class TimelineWidget;

// docs/contract.md §9.4: why did generations fail. The store's history with masked users and generation ids,
// filters (time range, outcome, public code, kind, stage, provider), counts by public code and by kind
// as bar charts and the fallback rate over time as a line chart (both computed off the GUI thread), a
// detail pane with the attempt chain drawn as the live view's timeline, the events and the next step,
// and export of what the filter selects (CSV, JSON Lines), masked as on screen.
class FailuresView final : public QWidget
{
    Q_OBJECT
public:
    // `providers`: the engine's (EngineConnection::providers()), for the provider filter and the replay's fallbacks.
    FailuresView(HistoryReader *history, HistoryQueue *queue, const ProviderTable &providers, QWidget *parent = nullptr);
    ~FailuresView() override;

    FailureHistoryModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    TimelineWidget *timeline() const { return m_timeline; }
    HistoryFilter currentFilter() const;
    QString detailGenerationId() const { return m_detailId; }
    // Counts and rates of the last chart update (for tests and the benchmark).
    const QList<std::pair<QString, qint64>> &countsByCode() const { return m_byCode; }
    const QList<std::pair<QString, qint64>> &countsByKind() const { return m_byKind; }

    // Re-reads with the filter the controls describe: the table at once, the charts in the background.
    void applyFilter();
    // New final states were committed: rows that match go on top; charts are refreshed. Off screen,
    // this waits until the view is shown.
    void refreshNewest();
    // Reads the generation and its timeline on the reader thread (attached, that is a request to the
    // engine); detailShown() follows once the pane shows it. A newer selection supersedes it.
    void showDetail(const QString &generationId);
    // Runs in the background; exportFinished() reports.
    void exportTo(const QString &path, HistoryExport::Format format);

    // The search box: "gen_…" (a whole id or its start) or a user id. A user id is matched on its keyed
    // hash by whoever holds the installation's key (the store, or the attached engine); it is kept in
    // memory for the filter only, and the box then shows its display mask.
    void search(const QString &text);
    QString searchMask() const; // what the box shows for the current search
    // `bullpen --open gen_…`: every time, every outcome, that id; its detail when it arrives.
    void openGeneration(const QString &generationId);
    // The filters and time range as a `bullpen://` link carries them (docs/console.md, "Links"), and
    // opening them: checked first (false with what is wrong, nothing changed), then applied and re-read.
    QList<std::pair<QString, QString>> linkFilters() const;
    bool openLinkFilters(const QList<std::pair<QString, QString>> &filters, QString *error);
    // Filters by a bar's key (a public code or a kind), as clicking it does.
    void filterByBar(HistoryGroup group, const QString &key);
    // A health card's way in (docs/contract.md §9.8): the last hour's generations, whatever their
    // outcome, in which this provider, in this role, failed an attempt of this stage; the other filters
    // cleared. The scope shows as a button that removes it.
    void filterByCard(Provider provider, Role role, Stage stage);

    // Auto-refresh: new rows and charts from every writer of the store, every interval (10 s by default).
    void setRefreshInterval(int ms);
    void setRefreshPaused(bool paused);
    bool isRefreshPaused() const { return m_refreshPaused; }
    QString updatedText() const;
    // The rate chart's segments: runs of buckets with traffic, each its own line (gaps are not bridged).
    int rateSegments() const { return m_rateSegments; }
    bool isDetailCollapsed() const;
    void setDetailCollapsed(bool collapsed);
    // Copies the detail pane's full generation id to the clipboard.
    void copyDetailId();
    // The engine its replays are played for (EngineConnection::newReplay: kept in an embedded engine's
    // history, nowhere when attached); none: Replay locally… says so. It must outlive the view.
    void setEngine(EngineConnection *engine) { m_engine = engine; }
    // The provider filter and the replay's fallbacks list these (the engine's: EngineConnection::providers()).
    void setProviders(const ProviderTable &providers);
    // Drains, restores, breaker transitions and alerts marked on the fallback-rate chart (docs/contract.md §15).
    void setAnnotations(AnnotationModel *model);
    // Replay locally…: reads the shown generation for a replay and opens its dialog (replayOpened()).
    void replayDetail();
    QLayout *makeFilterRows(QToolButton *exportButton);
    QHBoxLayout *makeDetailTools(); // Replay locally… and Copy id

    // The attempt chain of a stored generation as events, for generations recorded without their event

Q_SIGNALS:
    void chartsUpdated();
    // An auto-refresh (or refreshNewest()) has read the newest rows.
    void refreshed();
    void detailShown(const QString &generationId);
    void replayOpened(bullpen::ReplayDialog *dialog);
    void exportFinished(const QString &path, qint64 rows, const QString &error);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QComboBox *filterCombo(const char *name);
    QList<LinkFilter> linkFilterTable() const;
    QLayout *makeFilters();
    QHBoxLayout *makeSummaryRow();
    QWidget *makeCharts();
    void makeTable();
    QWidget *makeDetail();
    void updateCharts();
    void fillDetail(const GenerationRow &row, const HistoryReader::Timeline &timeline);
    void chooseExport();

    HistoryReader *m_history;
    HistoryQueue *m_queue;
    ProviderTable m_providers;
    EngineConnection *m_engine = nullptr;
    FailureHistoryModel *m_model;
    QComboBox *m_range;
    QComboBox *m_outcome;
    QComboBox *m_code;
    QComboBox *m_kind;
    QComboBox *m_stage;
    QComboBox *m_instance = nullptr;
    QComboBox *m_provider;
    QComboBox *m_reason; // fallback reason: an ending every provider's reasons share
    QToolButton *m_scope; // a health card's scope, while one is in force; clicking removes it
    std::optional<HistoryFilter::AttemptScope> m_failedAttempt;
    QLineEdit *m_search;
    QToolButton *m_searchClear;
    QString m_userSearch; // a raw user id being searched for: memory only, never shown
    QString m_idSearch;
    QTimer *m_refreshTimer;
    QToolButton *m_refreshPause;
    QLabel *m_updated;
    QDateTime m_updatedAt;
    bool m_refreshPaused = false;
    bool m_missedRefresh = false; // an auto-refresh fell while the view was off screen
    int m_rateSegments = 0;
    QWidget *m_detail = nullptr;
    QToolButton *m_collapse = nullptr;
    QToolButton *m_copyId = nullptr;
    QToolButton *m_replay = nullptr;
    QLabel *m_summary;
    QChartView *m_codeChart;
    QChartView *m_kindChart;
    QChartView *m_rateChart;
    QTableView *m_table;
    QLabel *m_detailHeader;
    QLabel *m_nextStep;
    TimelineWidget *m_timeline;
    EventLogModel *m_events;
    QTableView *m_eventsTable;
    QString m_detailId;
    quint64 m_chartSequence = 0;
    QList<std::pair<QString, qint64>> m_byCode;
    QList<std::pair<QString, qint64>> m_byKind;
    std::shared_ptr<std::atomic_bool> m_exportCancel;
};

} // namespace bullpen
