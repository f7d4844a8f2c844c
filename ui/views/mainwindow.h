// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/generationrequest.h"
#include "pipeline/generationresult.h"
#include "remote/engineendpoint.h"

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace bullpen {

class CompareView;
class ControlView;
class ComparisonRunner;
class ElidedLabel;
class EngineConfigView;
class EngineConnection;
class FailuresView;
class LatencyView;
class HealthStrip;
class SettingsView;
class HistoryQueue;
class EventBatcher;
class EventLogModel;
class GenerationListModel;
class LiveView;
class ResultView;
class RunView;

// The console (docs/contract.md §9): Run, Live and Result in tabs, a status bar that always says which engine
// (embedded, or the URL and instance of an attached one, with its connection state) and which providers
// are live or that the built-in simulator is in use, Ctrl+Return to generate and Esc to cancel, and
// window state kept between runs. It holds the engine only as an EngineConnection: the same views
// embedded and attached.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(EngineConnection &engine, QWidget *parent = nullptr);
    ~MainWindow() override;

    RunView *runView() const { return m_run; }
    LiveView *liveView() const { return m_live; }
    ResultView *resultView() const { return m_result; }
    FailuresView *failuresView() const { return m_failures; }
    LatencyView *latencyView() const { return m_latency; }
    CompareView *compareView() const { return m_compare; }
    ControlView *controlView() const { return m_control; }
    SettingsView *settingsView() const { return m_settingsView; } // embedded only
    EngineConfigView *engineConfigView() const { return m_engineConfig; } // attached only
    ComparisonRunner *comparisons() const { return m_comparisons; }
    // Starts a comparison of the Run view's story (primary and fallback provider, each alone).
    QString compare();
    QTabWidget *tabs() const { return m_tabs; }
    HealthStrip *healthStrip() const { return m_health; }
    void generate(int count);
    // `bullpen --open gen_…`: the Failures tab on that generation (any time, any outcome) and its detail.
    void openGeneration(const QString &generationId);
    // docs/console.md "Links": the current view (and the generation whose detail is open) as a
    // bullpen:// link; opening one shows that view. False with what is wrong in *error.
    QString currentLink() const;
    bool openLink(const QString &link, QString *error);
    void cancelAll();
    // The request the last Generate sent (its storyboard policy only when the operator chose another than
    // the engine's own).
    const GenerationRequest &lastRequest() const { return m_lastRequest; }

    // Engine → Connect…: asks for a running engine's URL and token (kept in the 0600 key file as
    // BULLPEN_ENGINE_TOKEN when asked to, never in the settings file), then attachRequested().
    void connectToEngine();

Q_SIGNALS:
    void generationFinished(const bullpen::GenerationResult &result);
    // The operator chose an engine to attach to: the host replaces this window with one attached there.
    void attachRequested(const bullpen::EngineEndpoint &endpoint);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QWidget *makeViews(EngineConnection &engine);
    void makeStatusBar(EngineConnection &engine);
    void watchHistoryWrites(EngineConnection &engine);
    void connectRuns(EngineConnection &engine, QWidget *settingsTab);
    EngineConnection &m_engine;
    EventBatcher *m_batcher;
    GenerationListModel *m_generations;
    EventLogModel *m_events;
    QTabWidget *m_tabs;
    HealthStrip *m_health = nullptr;
    RunView *m_run;
    LiveView *m_live;
    ResultView *m_result;
    HistoryQueue *m_queue;
    FailuresView *m_failures;
    LatencyView *m_latency;
    CompareView *m_compare;
    ControlView *m_control = nullptr;
    SettingsView *m_settingsView = nullptr;
    EngineConfigView *m_engineConfig = nullptr;
    void showEngineStatus();
    void buildMenusAndKeys(); // mainwindowkeys.cpp
    bool mayClose();
    void showShortcuts();
    ComparisonRunner *m_comparisons;
    QString m_runningComparison;
    bool m_historyRefreshPending = false;
    QStringList m_running;
    ElidedLabel *m_engineLabel = nullptr;
    GenerationRequest m_lastRequest;
    QWidget *m_storeWarning = nullptr;
    QLabel *m_storeWarningLabel = nullptr;
    quint64 m_acknowledgedWriteFailures = 0;
    QString m_firstWriteFailure;
    QString m_failureText, m_failureTip; // the failed-writes warning, shown again when the store is back
    bool m_storeUnreachable = false;
};

} // namespace bullpen
