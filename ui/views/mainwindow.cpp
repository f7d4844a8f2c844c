// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "compareview.h"
#include "config/settings.h"
#include "controlview.h"
#include "desktopnotifier.h"
#include "elidedlabel.h"
#include "failuresview.h"
#include "focusframestyle.h"
#include "healthstrip.h"
#include "keychain/secretstore.h"
#include "latencyview.h"
#include "liveview.h"
#include "models/annotationmodel.h"
#include "models/eventbatcher.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "models/historyqueue.h"
#include "models/viewlink.h"
#include "pipeline/comparison.h"
#include "pipeline/engineconnection.h"
#include "resultview.h"
#include "runview.h"
#include "settingsview.h"
#include "tones.h"
#include "tunepanel.h"
#include "views/engineconfigview.h"
#include "wire/storyboardpolicyjson.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace bullpen {

MainWindow::MainWindow(EngineConnection &engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Bullpen"));
    FocusFrameStyle::ensureInstalled();
    m_batcher = new EventBatcher(this);
    m_generations = new GenerationListModel(this);
    m_events = new EventLogModel(this);
    QWidget *settingsTab = makeViews(engine);
    // Provider health above every tab: "is anything wrong right now" is never a click away.
    m_health = new HealthStrip(m_queue);
    m_health->setEngine(&m_engine);
    auto *notifier = new DesktopNotifier(this);
    notifier->setObjectName(QStringLiteral("desktopNotifier"));
    connect(m_health, &HealthStrip::alert, notifier, &DesktopNotifier::notify);
    // The engine's firing alerts (evaluated by the engine whether or not the Control view is shown),
    // each raised once; a click on one opens the Control view in this window.
    connect(&m_engine, &EngineConnection::alertsChanged, notifier, [notifier](const QJsonObject &alerts) {
        notifier->notifyAlerts(alerts, ViewLink { QStringLiteral("control"), {}, {} }.toString());
    });
    connect(notifier, &DesktopNotifier::linkActivated, this, [this](const QString &link) {
        if (openLink(link, nullptr)) {
            show();
            raise();
            activateWindow();
        }
    });
    connect(m_health, &HealthStrip::cardActivated, this, [this](Provider provider, Role role, Stage stage) {
        m_tabs->setCurrentWidget(m_failures);
        m_failures->filterByCard(provider, role, stage);
    });
    auto *central = new QWidget;
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    centralLayout->addWidget(m_health);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    makeStatusBar(engine);
    connect(&engine.client(), &EngineClient::eventRecorded, m_batcher, &EventBatcher::add);
    connect(m_batcher, &EventBatcher::batchReady, this, [this](const QList<Event> &batch) {
        m_generations->appendBatch(batch);
        m_events->appendBatch(batch);
        m_live->addEvents(batch);
        m_latency->addEvents(batch);
    });
    watchHistoryWrites(engine);
    connectRuns(engine, settingsTab);
    buildMenusAndKeys();

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    if (!settings.contains(QStringLiteral("window/geometry")))
        resize(1280, 860);
    // The first key typed goes into the story, not into whatever control happens to come first.
    if (m_tabs->currentWidget() == m_run)
        m_run->focusStory();
}

// Every view, in its tab; the settings tab (the engine's configuration when attached), returned.
QWidget *MainWindow::makeViews(EngineConnection &engine)
{
    m_run = new RunView(engine.storyboardPolicy(), engine.scenarios(), engine.providers());
    if (!engine.scenarios().isEmpty())
        m_run->setScenario(engine.defaultScenario());
    m_live = new LiveView(m_generations, m_events);
    m_result = new ResultView;
    m_queue = new HistoryQueue(engine.history(), this);
    m_failures = new FailuresView(engine.history(), m_queue, engine.providers());
    m_failures->setEngine(&engine);
    m_latency = new LatencyView(engine.history(), m_queue, engine.providers());
    m_latency->setStoryboardTimeouts(double(engine.storyboardPolicy().primaryTimeout.count()),
                                     double(engine.storyboardPolicy().fallbackTimeout.count()));
    m_latency->tunePanel()->setToday(engine.storyboardPolicy().primaryTimeout, engine.storyboardPolicy().fallbackTimeout,
                                     engine.storyboardPolicy().preset, engine.breakerSettings());
    m_latency->tunePanel()->setEmbedded(!engine.attached());
    m_compare = new CompareView(engine.history(), m_queue);
    QWidget *settingsTab = nullptr;
    if (engine.attached()) {
        m_engineConfig = new EngineConfigView;
        m_engineConfig->setConfig(engine.runningConfig());
        settingsTab = m_engineConfig;
    } else {
        m_settingsView = new SettingsView({ engine.settingsFilePath(), engine.keyFilePath(), engine.dataDir() }, engine.environment(),
                                          !engine.scenarios().isEmpty());
        m_settingsView->setInForce(engine.storyboardPolicy());
        connect(m_latency->tunePanel(), &TunePanel::applyRequested, this, [this](std::chrono::milliseconds timeout) {
            const bool ok = m_settingsView->applyPrimaryTimeout(timeout);
            m_latency->tunePanel()->showApplied(ok, m_settingsView->statusText());
        });
        settingsTab = m_settingsView;
    }
    m_comparisons = engine.newComparisonRunner(this);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->addTab(m_run, tr("Run"));
    m_tabs->addTab(m_live, tr("Live"));
    m_tabs->addTab(m_result, tr("Result"));
    m_tabs->addTab(m_failures, tr("Failures"));
    m_tabs->addTab(m_latency, tr("Latency"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(settingsTab, tr("Settings"));
    m_control = new ControlView(engine);
    m_tabs->addTab(m_control, tr("Control"));
    if (engine.attached()) {
        connect(&engine, &EngineConnection::configChanged, this, [this] {
            m_engineConfig->setConfig(m_engine.runningConfig());
            // The engine's providers first: its defaults may name one its settings add.
            m_run->setProviders(m_engine.providers());
            m_failures->setProviders(m_engine.providers());
            m_latency->setProviders(m_engine.providers());
            m_control->updateProviders();
            m_run->setEngineDefaults(m_engine.storyboardPolicy(), m_engine.scenarios(), m_engine.defaultScenario());
        });
    }
    // One annotation model for the Latency and Failures charts, fed by the audit trail and the alerts,
    // asked for again whenever either chart has read the store.
    auto *annotations = new AnnotationModel(this);
    annotations->setObjectName(QStringLiteral("annotations"));
    connect(&engine, &EngineConnection::auditChanged, annotations, &AnnotationModel::setAudit);
    connect(&engine, &EngineConnection::alertsChanged, annotations, &AnnotationModel::setAlerts);
    const auto askAnnotations = [&engine] {
        engine.refreshAudit();
        engine.refreshAlerts();
    };
    connect(m_latency, &LatencyView::loaded, &engine, askAnnotations);
    connect(m_failures, &FailuresView::chartsUpdated, &engine, askAnnotations);
    m_latency->setAnnotations(annotations);
    m_failures->setAnnotations(annotations);
    return settingsTab;
}

// The engine's status, the model warnings and the store's warning with its acknowledgement.
void MainWindow::makeStatusBar(EngineConnection &engine)
{
    auto *engineLabel = new ElidedLabel;
    m_engineLabel = engineLabel;
    engineLabel->setObjectName(QStringLiteral("engineStatus"));
    engineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(engineLabel, 1);
    showEngineStatus();
    connect(&engine, &EngineConnection::statusChanged, this, &MainWindow::showEngineStatus);
    if (const QStringList warnings = engine.warnings(); !warnings.isEmpty()) {
        auto *modelWarning = new QLabel(tr("⚠ %1").arg(warnings.join(QStringLiteral("; "))));
        modelWarning->setObjectName(QStringLiteral("modelWarning"));
        modelWarning->setWordWrap(false);
        modelWarning->setToolTip(warnings.join(QLatin1Char('\n')));
        modelWarning->setStyleSheet(tones::textStyle(tones::Tone::Own, true));
        statusBar()->addPermanentWidget(modelWarning);
    }

    // docs/contract.md §5: a failed record write never fails a generation, but it is shown until acknowledged.
    m_storeWarning = new QWidget;
    m_storeWarning->setObjectName(QStringLiteral("storeWarning"));
    auto *warningLayout = new QHBoxLayout(m_storeWarning);
    warningLayout->setContentsMargins(0, 0, 0, 0);
    m_storeWarningLabel = new QLabel;
    m_storeWarningLabel->setObjectName(QStringLiteral("storeWarningText"));
    m_storeWarningLabel->setStyleSheet(tones::textStyle(tones::Tone::Failure, true));
    m_storeWarningLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *acknowledge = new QToolButton;
    acknowledge->setObjectName(QStringLiteral("storeWarningAcknowledge"));
    acknowledge->setText(tr("Acknowledge"));
    warningLayout->addWidget(m_storeWarningLabel);
    warningLayout->addWidget(acknowledge);
    statusBar()->addPermanentWidget(m_storeWarning);
    m_storeWarning->hide();
    connect(acknowledge, &QToolButton::clicked, this, [this] {
        if (m_engine.historyWrites())
            m_acknowledgedWriteFailures = m_engine.historyWrites()->writeStats().failed;
        m_firstWriteFailure.clear();
        m_failureText.clear();
        if (!m_storeUnreachable)
            m_storeWarning->hide();
    });
}

// A failed or held record write is shown until acknowledged; new final states refresh the failures view.
void MainWindow::watchHistoryWrites(EngineConnection &engine)
{
    if (HistoryWrites *writes = engine.historyWrites()) {
        const QString location = engine.history()->location();
        connect(writes, &HistoryWrites::writeFailed, this, [this, writes, location](const QString &message) {
            const HistoryWriteStats st = writes->writeStats();
            const int n = static_cast<int>(st.failed - m_acknowledgedWriteFailures);
            // The first cause since the last acknowledgement (later ones are often its consequences).
            if (m_firstWriteFailure.isEmpty()) {
                const qsizetype colon = message.indexOf(QLatin1String(": "));
                m_firstWriteFailure = colon < 0 ? message : message.mid(colon + 2);
            }
            const QString &reason = m_firstWriteFailure;
            // The status bar is narrow: the file name and the first words of the reason; all of it in the tooltip.
            const QString shortReason = reason.size() > 60 ? reason.left(57) + QStringLiteral("…") : reason;
            m_failureText = tr("Record writes failed: %L1 — %2: %3").arg(n).arg(QFileInfo(location).fileName(), shortReason);
            m_failureTip = tr("Record writes failed: %L1 — %2: %3").arg(n).arg(location, reason) + QStringLiteral("\n")
                + tr("The generations themselves were not affected, but the history does not hold these records. "
                     "Free disk space or repair the store; the count stays until you acknowledge it.");
            if (m_storeUnreachable)
                return; // the outage's notice stays up; the count is shown when the store is back
            m_storeWarningLabel->setText(m_failureText);
            m_storeWarningLabel->setToolTip(m_failureTip);
            m_storeWarning->show();
        });
        // A store on PostgreSQL can drop its connection: records are held (nothing is lost) while the
        // writer reconnects, and the status bar says so until it is back.
        connect(writes, &HistoryWrites::reachabilityChanged, this, [this, writes](bool reachable, const QString &message) {
            m_storeUnreachable = !reachable;
            if (!reachable) {
                const qint64 since = writes->writeStats().unreachableSinceMs;
                m_storeWarningLabel->setText(
                    tr("Store unreachable since %1 — records are held and written when it is back")
                        .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(since).time(), QLocale::ShortFormat)));
                m_storeWarningLabel->setToolTip(message);
                m_storeWarning->show();
            } else if (!m_failureText.isEmpty() && writes->writeStats().failed > m_acknowledgedWriteFailures) {
                m_storeWarningLabel->setText(m_failureText);
                m_storeWarningLabel->setToolTip(m_failureTip);
            } else {
                m_storeWarning->hide();
            }
        });
    }
    if (HistoryWrites *writes = engine.historyWrites()) {
        // New final states on disk: the failures view takes the matching rows on top, at most once a second.
        connect(writes, &HistoryWrites::finalStatesCommitted, this, [this] {
            if (m_historyRefreshPending)
                return;
            m_historyRefreshPending = true;
            QTimer::singleShot(1000, this, [this] {
                m_historyRefreshPending = false;
                m_failures->refreshNewest();
                m_health->refresh(); // this console's own runs show in the health strip at once, not at its next tick
            });
        });
    }
}

// Runs, comparisons and retries from the views to the engine, and their results back.
void MainWindow::connectRuns(EngineConnection &engine, QWidget *settingsTab)
{
    connect(m_run, &RunView::compareRequested, this, &MainWindow::compare);
    connect(m_compare, &CompareView::compareRequested, this, &MainWindow::compare);
    connect(m_compare, &CompareView::cancelRequested, this, [this] { m_comparisons->cancel(m_runningComparison); });
    connect(m_comparisons, &ComparisonRunner::updated, m_compare, &CompareView::showComparison);
    connect(&engine.client(), &EngineClient::finished, this, [this](const GenerationResult &r) {
        m_running.removeAll(r.generationId);
        m_run->setRunning(static_cast<int>(m_running.size()));
        m_batcher->flush();
        if (m_live->selectedGeneration() == r.generationId || m_running.isEmpty())
            m_result->showResult(r);
        Q_EMIT generationFinished(r);
    });
    connect(m_comparisons, &ComparisonRunner::finished, this, [this](const Comparison &) {
        // By the runner's word, not the id: a remote engine names the comparison itself.
        if (!m_runningComparison.isEmpty() && !m_comparisons->isRunning(m_runningComparison))
            m_runningComparison.clear();
    });
    connect(m_run, &RunView::generateRequested, this, &MainWindow::generate);
    connect(m_run, &RunView::cancelRequested, this, &MainWindow::cancelAll);
    connect(m_result, &ResultView::settingsRequested, this, [this, settingsTab] { m_tabs->setCurrentWidget(settingsTab); });
    connect(m_result, &ResultView::storyEditRequested, this, [this] { m_tabs->setCurrentWidget(m_run); });
    connect(m_result, &ResultView::retryRequested, this, [this] {
        if (!m_lastRequest.story.isEmpty()) {
            GenerationRequest again = m_lastRequest;
            again.generationId.clear();
            again.fresh = true;
            m_running << m_engine.client().start(again);
            m_run->setRunning(static_cast<int>(m_running.size()));
            m_tabs->setCurrentWidget(m_live);
        }
    });
}

void MainWindow::openGeneration(const QString &generationId)
{
    m_tabs->setCurrentWidget(m_failures);
    m_failures->openGeneration(generationId);
}

QString MainWindow::currentLink() const
{
    ViewLink link;
    link.view = ViewLink::views().value(m_tabs->currentIndex());
    if (m_tabs->currentWidget() == m_failures) {
        link.generation = m_failures->detailGenerationId();
        link.filters = m_failures->linkFilters();
    } else if (m_tabs->currentWidget() == m_latency) {
        link.filters = m_latency->linkFilters();
    }
    return link.toString();
}

bool MainWindow::openLink(const QString &text, QString *error)
{
    const auto parsed = ViewLink::parse(text);
    if (const auto *why = std::get_if<QString>(&parsed)) {
        if (error)
            *error = *why;
        return false;
    }
    const ViewLink &link = std::get<ViewLink>(parsed);
    if (link.filters.isEmpty() && !link.generation.isEmpty()) {
        openGeneration(link.generation); // every time, every outcome: the generation is found wherever it is
        return true;
    }
    // The view checks its own filters before anything changes: a refused link leaves the window as it was.
    QString why;
    bool opened = true;
    if (link.view == u"failures")
        opened = m_failures->openLinkFilters(link.filters, &why);
    else if (link.view == u"latency")
        opened = m_latency->openLinkFilters(link.filters, &why);
    else if (!link.filters.isEmpty()) {
        opened = false;
        why = tr("the %1 view's link takes no filters; Copy link gives a link this console opens").arg(link.view);
    }
    if (!opened) {
        if (error)
            *error = why;
        return false;
    }
    m_tabs->setCurrentIndex(int(ViewLink::views().indexOf(link.view)));
    if (!link.generation.isEmpty())
        m_failures->showDetail(link.generation);
    return true;
}

MainWindow::~MainWindow()
{
    // The views first (an export in progress is told to stop), then the reader thread they used.
    delete takeCentralWidget();
}

QString MainWindow::compare()
{
    const std::optional<StagePolicy> policy = m_run->policy();
    if (!policy || !policy->fallback || m_run->story().trimmed().isEmpty() || !m_runningComparison.isEmpty())
        return {};
    ComparisonRequest request;
    if (!m_engine.scenarios().isEmpty())
        request.scenario = m_run->scenario(); // travels with the request: the simulator itself is not changed
    request.story = m_run->story();
    request.userId = m_run->userId();
    request.primary = policy->primary;
    request.fallback = *policy->fallback;
    request.primaryTimeout = policy->primaryTimeout;
    request.fallbackTimeout = policy->fallbackTimeout;
    m_runningComparison = m_comparisons->start(request);
    m_compare->setRunning(true);
    m_tabs->setCurrentWidget(m_compare);
    return m_runningComparison;
}

void MainWindow::generate(int count)
{
    const std::optional<StagePolicy> policy = m_run->policy();
    if (!policy || m_run->story().trimmed().isEmpty() || !m_engine.usable())
        return;
    for (int i = 0; i < count; ++i) {
        GenerationRequest request;
        request.story = m_run->story();
        request.userId = m_run->userId();
        request.fresh = true;
        // The engine's own policy is not sent back to it: a request names a policy only when the operator
        // chose another here (docs/contract.md §12.1: every policy field is optional; what a request leaves
        // out is the engine's). A chosen one is this request's own: nothing engine-wide changes per click.
        if (StoryboardPolicyJson::toJson(*policy) != StoryboardPolicyJson::toJson(m_engine.storyboardPolicy()))
            request.storyboardPolicy = *policy;
        if (!m_engine.scenarios().isEmpty())
            request.scenario.name = m_run->scenario(); // so is the simulator's scenario (its roles follow the policy)
        m_lastRequest = request;
        m_running << m_engine.client().start(request);
    }
    m_run->setRunning(static_cast<int>(m_running.size()));
    m_tabs->setCurrentWidget(m_live);
}

void MainWindow::cancelAll()
{
    const QStringList running = m_running;
    for (const QString &id : running)
        m_engine.client().cancel(id);
}

void MainWindow::connectToEngine()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("connectDialog"));
    dialog.setWindowTitle(tr("Connect to an engine"));
    auto *url = new QLineEdit(QStringLiteral("http://127.0.0.1:8700"));
    url->setObjectName(QStringLiteral("engineUrlEdit"));
    auto *token = new QLineEdit;
    token->setObjectName(QStringLiteral("engineTokenEdit"));
    token->setEchoMode(QLineEdit::Password);
    token->setPlaceholderText(tr("bp_… (from `bullpen-engine token add NAME --role operator`)"));
    const bool keychain = secrets::probe().status == secrets::Status::Ok;
    auto *keep = new QCheckBox(keychain ? tr("Keep the token in the system keychain as BULLPEN_ENGINE_TOKEN")
                                        : tr("Keep the token in the key file (mode 0600) as BULLPEN_ENGINE_TOKEN"));
    keep->setObjectName(QStringLiteral("keepTokenCheck"));
    keep->setChecked(true);
    auto *error = new QLabel;
    error->setObjectName(QStringLiteral("connectError"));
    error->setStyleSheet(tones::textStyle(tones::Tone::Failure));
    error->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("Engine URL"), url);
    form->addRow(tr("API token"), token);
    form->addRow(QString(), keep);
    form->addRow(QString(), error);
    form->addRow(buttons);
    EngineEndpoint endpoint;
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        QString why;
        if (!EngineEndpoint::parseUrl(url->text(), &endpoint.base, &why) || !endpoint.trustFromEnvironment(&why)) {
            error->setText(why);
            return;
        }
        endpoint.token = token->text().trimmed().toLatin1();
        if (endpoint.token.isEmpty()) {
            error->setText(tr("The engine refuses every request without a token."));
            return;
        }
        // The keychain where one answers, else the 0600 key file (docs/install.md, "Keys").
        const QString keyFile = m_engine.keyFilePath().isEmpty() ? QString() : m_engine.keyFilePath();
        const QString value = QString::fromLatin1(endpoint.token);
        const bool inKeychain =
            keep->isChecked() && keychain && secrets::write(QStringLiteral("BULLPEN_ENGINE_TOKEN"), value).status == secrets::Status::Ok;
        if (keep->isChecked() && !inKeychain && !keyFile.isEmpty()
            && !KeyFile::setKey(keyFile, QStringLiteral("BULLPEN_ENGINE_TOKEN"), value, &why)) {
            error->setText(tr("Could not keep the token: %1").arg(why));
            return;
        }
        dialog.accept();
    });
    if (dialog.exec() == QDialog::Accepted)
        Q_EMIT attachRequested(endpoint);
}

void MainWindow::showEngineStatus()
{
    // Purple on the simulator (never mistaken for real providers), red while an attached engine is lost.
    m_engineLabel->setFullText(m_engine.describe()); // the whole text in its tooltip when cut
    // An engine that cannot be reached is said once, here, and Generate says why it is off: no
    // generation is started that would only fail for want of the engine.
    m_run->setEngineAvailable(m_engine.usable(), m_engine.describe().section(QStringLiteral(" — "), 0, 0)); // its state, not its setup
    m_engineLabel->setStyleSheet(!m_engine.usable()                    ? tones::textStyle(tones::Tone::Failure, true)
                                     : !m_engine.scenarios().isEmpty() ? tones::textStyle(tones::Tone::Simulator, true)
                                                                       : QString());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!mayClose()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    QMainWindow::closeEvent(event);
}

// Closing with generations running: embedded, they would be cancelled, so the operator is asked;
// attached, the engine keeps running them, and the operator is told so before the window goes.
bool MainWindow::mayClose()
{
    const int running = static_cast<int>(m_running.size()) + (m_runningComparison.isEmpty() ? 0 : 1);
    if (running == 0 || !isVisible())
        return true;
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("closeWhileRunning"));
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(tr("Generations still running"));
    QPushButton *close = nullptr;
    if (m_engine.attached()) {
        box.setText(tr("Still running on the engine: %L1.").arg(running));
        box.setInformativeText(tr("The engine keeps running them after this window closes; their results stay in its history "
                                  "(Failures and Latency show them when you attach again)."));
        close = box.addButton(tr("Close the window"), QMessageBox::AcceptRole);
    } else {
        box.setText(tr("Still running in this window: %L1.").arg(running));
        box.setInformativeText(tr("Quitting cancels them; each is recorded as cancelled."));
        close = box.addButton(tr("Cancel them and quit"), QMessageBox::DestructiveRole);
    }
    // Said for what it does: attached, the generations keep running either way; only the window stays.
    QPushButton *stay = box.addButton(m_engine.attached() ? tr("Keep the window open") : tr("Don't quit"), QMessageBox::RejectRole);
    close->setObjectName(QStringLiteral("closeAnyway"));
    stay->setObjectName(QStringLiteral("keepRunning"));
    box.setDefaultButton(stay);
    box.exec();
    return box.clickedButton() == close;
}

} // namespace bullpen
