// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/generationpipeline.h"
#include "pipeline/generationresult.h"

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace bullpen {

class CompareView;
class ComparisonRunner;
class EngineSetup;
class FailuresView;
class LatencyView;
class SettingsView;
class HistoryQueue;
class EventBatcher;
class EventLogModel;
class GenerationListModel;
class LiveView;
class ResultView;
class RunView;

// The console (SPEC 9): Run, Live and Result in tabs, a status bar that always says which providers
// are live or that the built-in simulator is in use, Ctrl+Return to generate and Esc to cancel, and
// window state kept between runs.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(EngineSetup &engine, QWidget *parent = nullptr);
    ~MainWindow() override;

    RunView *runView() const { return m_run; }
    LiveView *liveView() const { return m_live; }
    ResultView *resultView() const { return m_result; }
    FailuresView *failuresView() const { return m_failures; }
    LatencyView *latencyView() const { return m_latency; }
    CompareView *compareView() const { return m_compare; }
    SettingsView *settingsView() const { return m_settingsView; }
    ComparisonRunner *comparisons() const { return m_comparisons; }
    // Starts a comparison of the Run view's story (primary and relief provider, each alone).
    QString compare();
    QTabWidget *tabs() const { return m_tabs; }
    void generate(int count);
    void cancelAll();

Q_SIGNALS:
    void generationFinished(const bullpen::GenerationResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    EngineSetup &m_engine;
    EventBatcher *m_batcher;
    GenerationListModel *m_generations;
    EventLogModel *m_events;
    QTabWidget *m_tabs;
    RunView *m_run;
    LiveView *m_live;
    ResultView *m_result;
    HistoryQueue *m_queue;
    FailuresView *m_failures;
    LatencyView *m_latency;
    CompareView *m_compare;
    SettingsView *m_settingsView;
    ComparisonRunner *m_comparisons;
    QString m_runningComparison;
    bool m_historyRefreshPending = false;
    QStringList m_running;
    QLabel *m_engineLabel = nullptr;
    GenerationRequest m_lastRequest;
    QWidget *m_storeWarning = nullptr;
    QLabel *m_storeWarningLabel = nullptr;
    quint64 m_acknowledgedWriteFailures = 0;
    QString m_firstWriteFailure;
};

} // namespace bullpen
