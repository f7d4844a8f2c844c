// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "liveview.h"
#include "models/eventbatcher.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "resultview.h"
#include "runtime/enginesetup.h"
#include "runview.h"
#include "store/masking.h"

#include <QCloseEvent>
#include <QLabel>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>

namespace bullpen {

MainWindow::MainWindow(EngineSetup &engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Bullpen"));
    m_batcher = new EventBatcher(this);
    m_generations = new GenerationListModel(this);
    m_events = new EventLogModel(this);
    m_run = new RunView(engine.storyboardPolicy(), engine.usingSimulator() ? Scenario::builtInNames() : QStringList{});
    if (engine.usingSimulator())
        m_run->setScenario(engine.simulator()->scenario().name);
    m_live = new LiveView(m_generations, m_events);
    m_result = new ResultView;
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->addTab(m_run, tr("Run"));
    m_tabs->addTab(m_live, tr("Live"));
    m_tabs->addTab(m_result, tr("Result"));
    setCentralWidget(m_tabs);

    auto *engineLabel = new QLabel(engine.describe());
    m_engineLabel = engineLabel;
    engineLabel->setObjectName(QStringLiteral("engineStatus"));
    if (engine.usingSimulator())
        engineLabel->setStyleSheet(QStringLiteral("QLabel { color: #8e44ad; font-weight: bold; }"));
    statusBar()->addWidget(engineLabel, 1);

    connect(&engine.pipeline(), &GenerationPipeline::eventRecorded, m_batcher, &EventBatcher::add);
    connect(m_batcher, &EventBatcher::batchReady, this, [this](const QList<Event> &batch) {
        m_generations->appendBatch(batch);
        m_events->appendBatch(batch);
        m_live->addEvents(batch);
    });
    connect(&engine.pipeline(), &GenerationPipeline::finished, this, [this](const GenerationResult &r) {
        m_running.removeAll(r.generationId);
        m_run->setRunning(static_cast<int>(m_running.size()));
        m_batcher->flush();
        if (m_live->selectedGeneration() == r.generationId || m_running.isEmpty())
            m_result->showResult(r);
        Q_EMIT generationFinished(r);
    });
    connect(m_run, &RunView::generateRequested, this, &MainWindow::generate);
    connect(m_run, &RunView::cancelRequested, this, &MainWindow::cancelAll);
    connect(m_result, &ResultView::retryRequested, this, [this] {
        if (!m_lastRequest.story.isEmpty()) {
            GenerationRequest again = m_lastRequest;
            again.generationId.clear();
            again.fresh = true;
            m_running << m_engine.pipeline().start(again);
            m_run->setRunning(static_cast<int>(m_running.size()));
            m_tabs->setCurrentWidget(m_live);
        }
    });
    auto *go = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(go, &QShortcut::activated, this, [this] { generate(1); });
    auto *stop = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(stop, &QShortcut::activated, this, &MainWindow::cancelAll);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    if (!settings.contains(QStringLiteral("window/geometry")))
        resize(1280, 860);
}

MainWindow::~MainWindow() = default;

void MainWindow::generate(int count)
{
    const std::optional<StagePolicy> policy = m_run->policy();
    if (!policy || m_run->story().trimmed().isEmpty())
        return;
    if (m_engine.usingSimulator() && !m_run->scenario().isEmpty() && m_run->scenario() != m_engine.simulator()->scenario().name) {
        QString why;
        if (const auto s = Scenario::load(m_run->scenario(), &why))
            m_engine.simulator()->setScenario(*s);
    }
    if (m_engine.usingSimulator()) {
        m_engine.simulator()->setRoles(policy->primary, policy->fallback);
        m_engineLabel->setText(m_engine.describe());
    }
    PipelineOptions options = m_engine.pipeline().options();
    options.storyboard = *policy;
    m_engine.pipeline().setOptions(options);
    for (int i = 0; i < count; ++i) {
        GenerationRequest request;
        request.story = m_run->story();
        request.userId = m_run->userId();
        request.fresh = true;
        m_lastRequest = request;
        const QString id = m_engine.pipeline().start(request);
        if (!request.userId.isEmpty())
            m_generations->setUserMask(id, Masking::displayUser(request.userId));
        m_running << id;
    }
    m_run->setRunning(static_cast<int>(m_running.size()));
    m_tabs->setCurrentWidget(m_live);
}

void MainWindow::cancelAll()
{
    const QStringList running = m_running;
    for (const QString &id : running)
        m_engine.pipeline().cancel(id);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    QMainWindow::closeEvent(event);
}

} // namespace bullpen
