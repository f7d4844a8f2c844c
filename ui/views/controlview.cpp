// SPDX-License-Identifier: MIT
#include "controlview.h"

#include "contract/providerregistry.h"
#include "draindialog.h"
#include "models/alertlistmodel.h"
#include "models/auditlogmodel.h"
#include "models/breakerlistmodel.h"
#include "models/drainlistmodel.h"
#include "models/probelistmodel.h"
#include "pipeline/engineconnection.h"
#include "providerpicker.h"
#include "silencedialog.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace bullpen {

namespace {

constexpr auto kTick = std::chrono::seconds(1); // Remaining and Next trial count down once a second
constexpr auto kRefresh = std::chrono::seconds(5); // the engine's lists, asked again while shown

// Columns sized again after rows arrive or the table is shown. A header whose columns fit (fitColumns)
// lays them all out again: resizeColumnsToContents() would set its stretched column to its text's width
// too, and rows that arrived while the table was hidden left the columns as wide as their titles.
void refitColumns(QTableView *table)
{
    QHeaderView *header = table->horizontalHeader();
    bool fitted = false;
    for (int c = 0; c < header->count(); ++c)
        if (header->sectionResizeMode(c) == QHeaderView::Stretch) {
            header->setSectionResizeMode(c, QHeaderView::Interactive);
            header->setSectionResizeMode(c, QHeaderView::Stretch); // lays every section out again, now
            fitted = true;
        }
    if (!fitted)
        table->resizeColumnsToContents();
}

// Every column as wide as what it holds, `stretch` takes the rest: no cell but the stretched one is
// elided (it says the rest in its tooltip), and nothing scrolls sideways where the columns fit.
void fitColumns(QTableView *table, int stretch)
{
    QHeaderView *header = table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(stretch, QHeaderView::Stretch);
}

// The drains' and alerts' boxes, above each other and above the tabs, with half the style's margins
// above and below: the Control view then fits 700 px in height with the health strip's drained cards.
void tightenVertically(QLayout *layout)
{
    const QMargins m = layout->contentsMargins();
    layout->setContentsMargins(m.left(), m.top() / 2, m.right(), m.bottom() / 2);
}

QTableView *makeTable(const QString &name, QAbstractItemModel *model)
{
    auto *table = new QTableView;
    table->setObjectName(name);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setTabKeyNavigation(false);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() * 3); // a header and two rows; the splitter gives more
    // Columns as wide as what they hold when rows arrive (at 1024 px the times were off-screen behind
    // ten equal columns); the operator may still drag them, until the next rows come.
    QObject::connect(model, &QAbstractItemModel::rowsInserted, table, [table] { refitColumns(table); });
    return table;
}

QJsonObject currentRow(const QTableView *table)
{
    const QModelIndex i = table->selectionModel() ? table->selectionModel()->currentIndex() : QModelIndex();
    if (!i.isValid() || !table->selectionModel()->isRowSelected(i.row(), i.parent()))
        return {};
    return i.data(JsonRowsModel::RowRole).toJsonObject();
}

} // namespace

ControlView::ControlView(EngineConnection &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_drains(new DrainListModel(this))
    , m_breakers(new BreakerListModel(this))
    , m_audit(new AuditLogModel(this))
    , m_alertsModel(new AlertListModel(this))
    , m_probes(new ProbeListModel(this))
    , m_auditFilter(new QSortFilterProxyModel(this))
    , m_ticker(new QTimer(this))
{
    setObjectName(QStringLiteral("controlView"));
    // What needs the operator now above (the drains, then the alerts), each at the whole width; below
    // them, the breakers, the probes and the audit trail as tabs. At 1024 px the alerts' eight columns,
    // the breakers' nine and the probes' seven fit without scrolling sideways only at the whole width
    // (tst_console); side by side with the drains the alerts scrolled.
    auto *below = new QTabWidget;
    below->setObjectName(QStringLiteral("controlTabs"));
    below->addTab(makeBreakersBox(), tr("Breakers (this engine)"));
    below->addTab(makeProbesBox(), tr("Probes"));
    below->addTab(makeAuditBox(), tr("Audit trail"));
    connect(below, &QTabWidget::currentChanged, this, [this] {
        refitColumns(m_breakerTable);
        refitColumns(m_probeTable);
    });
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(makeDrainsBox());
    splitter->addWidget(makeAlertsBox());
    splitter->addWidget(below);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("controlStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    connect(&engine, &EngineConnection::providersChanged, this, [this](const QJsonObject &providers) {
        m_drains->setProviders(providers);
        m_breakers->setProviders(providers);
        m_probes->setProviders(providers);
        showProbes();
        updateButtons();
    });
    connect(&engine, &EngineConnection::alertsChanged, this, [this](const QJsonObject &alerts) {
        m_alertsModel->setAlerts(alerts);
        updateButtons();
    });
    connect(&engine, &EngineConnection::auditChanged, this, [this](const QJsonArray &entries) { m_audit->setEntries(entries); });
    connect(&engine, &EngineConnection::providerActionFailed, this, [this](const QString &message) { m_status->setText(message); });
    connect(&engine, &EngineConnection::statusChanged, this, &ControlView::updateButtons);
    m_ticker->setInterval(kTick);
    connect(m_ticker, &QTimer::timeout, this, &ControlView::tick);
    m_ticker->start();
    showProbes();
    updateButtons();
}

ControlView::~ControlView() = default;

QWidget *ControlView::makeDrainsBox()
{
    auto *box = new QGroupBox(tr("Active drains"));
    m_drainTable = makeTable(QStringLiteral("drainTable"), m_drains);
    m_drainTable->setMinimumHeight(m_drainTable->horizontalHeader()->sizeHint().height() * 2); // three panes above each other
    m_drainTable->setSortingEnabled(false); // rows keep their place while the operator looks at them
    fitColumns(m_drainTable, DrainListModel::ReasonColumn); // no horizontal scrolling at 1024 px
    m_provider = new QComboBox;
    m_provider->setObjectName(QStringLiteral("controlDrainProvider"));
    updateProviders();
    m_drainButton = new QPushButton(tr("Drain…"));
    m_drainButton->setObjectName(QStringLiteral("controlDrain"));
    m_restoreButton = new QPushButton(tr("Restore"));
    m_restoreButton->setObjectName(QStringLiteral("controlRestore"));
    m_restoreButton->setToolTip(tr("Ends the selected drain (a drain of every role or stage ends every drain of the provider)"));
    connect(m_drainButton, &QPushButton::clicked, this, &ControlView::askToDrain);
    connect(m_restoreButton, &QPushButton::clicked, this, &ControlView::restoreCurrentDrain);
    connect(m_drainTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ControlView::updateButtons);
    connect(m_drainTable, &QTableView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex at = m_drainTable->indexAt(pos);
        if (!at.isValid())
            return;
        m_drainTable->selectRow(at.row());
        auto *menu = new QMenu(this); // the view's, not the row's: a refresh behind it deletes nothing
        menu->setObjectName(QStringLiteral("drainRowMenu"));
        menu->setAttribute(Qt::WA_DeleteOnClose);
        QAction *restore = menu->addAction(tr("Restore"), this, &ControlView::restoreCurrentDrain);
        restore->setObjectName(QStringLiteral("drainRowRestore"));
        restore->setEnabled(m_engine.usable());
        menu->popup(m_drainTable->viewport()->mapToGlobal(pos));
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_provider);
    buttons->addWidget(m_drainButton);
    buttons->addStretch(1);
    buttons->addWidget(m_restoreButton);
    auto *layout = new QVBoxLayout(box);
    tightenVertically(layout);
    layout->addWidget(m_drainTable, 1);
    layout->addLayout(buttons);
    return box;
}

QWidget *ControlView::makeBreakersBox()
{
    auto *box = new QWidget; // its tab says what it is
    m_breakerTable = makeTable(QStringLiteral("breakerTable"), m_breakers);
    // State and Since whole, also after a row's state changes in place (a closed breaker that opens);
    // why it opened takes the rest, whole in its tooltip.
    fitColumns(m_breakerTable, BreakerListModel::ReasonColumn);
    m_resetButton = new QPushButton(tr("Reset breaker…"));
    m_resetButton->setObjectName(QStringLiteral("controlReset"));
    m_resetButton->setToolTip(tr("Closes the selected breaker now; its next opening starts from the first cooldown. Audited."));
    connect(m_resetButton, &QPushButton::clicked, this, &ControlView::resetCurrentBreaker);
    connect(m_breakerTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ControlView::updateButtons);
    m_breakerTable->setToolTip(tr("A breaker appears once its provider, role and stage have had an attempt."));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_resetButton);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_breakerTable, 1);
    layout->addLayout(buttons);
    return box;
}

QWidget *ControlView::makeProbesBox()
{
    m_probeTable = makeTable(QStringLiteral("probeTable"), m_probes);
    fitColumns(m_probeTable, ProbeListModel::WhenColumn);
    m_probeTable->setToolTip(tr("This engine's probes: one minimal synthetic request to each provider, role and stage that had "
                                "no traffic for the whole interval"));
    m_probeNote = new QLabel;
    m_probeNote->setObjectName(QStringLiteral("probeNote"));
    m_probeNote->setWordWrap(true);
    auto *withTable = new QWidget;
    auto *layout = new QVBoxLayout(withTable);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_probeTable, 1);
    layout->addWidget(m_probeNote);
    m_noProber = new QLabel;
    m_noProber->setObjectName(QStringLiteral("noProber"));
    m_noProber->setWordWrap(true);
    m_noProber->setAlignment(Qt::AlignCenter);
    m_probePages = new QStackedWidget;
    m_probePages->addWidget(m_noProber);
    m_probePages->addWidget(withTable);
    return m_probePages;
}

// The table where a prober runs, and otherwise why there is none (never an empty table that reads as
// "probes found nothing"). Both pages live as long as the view; a refresh only flips between them.
void ControlView::showProbes()
{
    m_noProber->setText(m_engine.attached() ? tr("No prober runs here: this engine was started without --probe-every.")
                                            : tr("No prober runs here: an embedded console sends no probes. A bullpen-engine "
                                                 "started with --probe-every does, and shows them here when attached."));
    m_probePages->setCurrentIndex(m_probes->proberRuns() ? 1 : 0);
    m_probeNote->setText(m_probes->leads() ? QString()
                                           : tr("Another engine on the store holds the probers' lock and probes now; this "
                                                "engine's prober waits."));
    m_probeNote->setVisible(!m_probes->leads());
}

QWidget *ControlView::makeAlertsBox()
{
    auto *box = new QGroupBox(tr("Alerts (the shipped rules, evaluated by the engine)"));
    m_alertTable = makeTable(QStringLiteral("alertTable"), m_alertsModel);
    fitColumns(m_alertTable, AlertListModel::SeriesColumn); // no horizontal scrolling at 1024 px
    m_alertTable->setMinimumHeight(m_alertTable->horizontalHeader()->sizeHint().height() * 2); // a header and a row, at least
    m_silenceButton = new QPushButton(tr("Silence…"));
    m_silenceButton->setObjectName(QStringLiteral("controlSilence"));
    m_silenceButton->setToolTip(tr("Acknowledge the selected alert: no notification for its rule for a while. Audited."));
    m_endSilenceButton = new QPushButton(tr("End silence"));
    m_endSilenceButton->setObjectName(QStringLiteral("controlEndSilence"));
    connect(m_silenceButton, &QPushButton::clicked, this, &ControlView::silenceCurrentAlert);
    connect(m_endSilenceButton, &QPushButton::clicked, this, &ControlView::endCurrentSilence);
    connect(m_alertTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ControlView::updateButtons);
    connect(m_alertTable, &QTableView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex at = m_alertTable->indexAt(pos);
        if (!at.isValid())
            return;
        m_alertTable->selectRow(at.row());
        auto *menu = new QMenu(this); // the view's, not the row's: a refresh behind it deletes nothing
        menu->setObjectName(QStringLiteral("alertRowMenu"));
        menu->setAttribute(Qt::WA_DeleteOnClose);
        QAction *silence = menu->addAction(tr("Silence…"), this, &ControlView::silenceCurrentAlert);
        silence->setObjectName(QStringLiteral("alertRowSilence"));
        silence->setEnabled(m_silenceButton->isEnabled());
        QAction *end = menu->addAction(tr("End silence"), this, &ControlView::endCurrentSilence);
        end->setObjectName(QStringLiteral("alertRowEndSilence"));
        end->setEnabled(m_endSilenceButton->isEnabled());
        menu->popup(m_alertTable->viewport()->mapToGlobal(pos));
    });
    // The buttons beside the table, not below it: the three panes above each other fit 700 px in height.
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_silenceButton);
    buttons->addWidget(m_endSilenceButton);
    buttons->addStretch(1);
    auto *layout = new QHBoxLayout(box);
    tightenVertically(layout);
    layout->addWidget(m_alertTable, 1);
    layout->addLayout(buttons);
    return box;
}

void ControlView::silenceCurrentAlert()
{
    const QString rule = currentRow(m_alertTable).value(QLatin1StringView("rule")).toString();
    if (rule.isEmpty())
        return;
    auto *dialog = new SilenceDialog(rule, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SilenceDialog::silenceAccepted, this, [this](const SilenceRequest &r) { m_engine.silenceAlert(r); });
    dialog->open(); // window-modal, no nested event loop: the view refreshes behind it
}

void ControlView::endCurrentSilence()
{
    const QString rule = currentRow(m_alertTable).value(QLatin1StringView("rule")).toString();
    if (!rule.isEmpty())
        m_engine.endSilence(rule);
}

QWidget *ControlView::makeAuditBox()
{
    auto *box = new QWidget; // its tab says what it is
    m_auditFilter->setSourceModel(m_audit);
    m_auditFilter->setFilterKeyColumn(-1);
    m_auditFilter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_auditFilter->setSortRole(JsonRowsModel::SortRole);
    m_auditTable = makeTable(QStringLiteral("auditTable"), m_auditFilter);
    m_auditTable->setSortingEnabled(true);
    m_auditTable->sortByColumn(AuditLogModel::WhenColumn, Qt::DescendingOrder);
    m_auditSearch = new QLineEdit;
    m_auditSearch->setObjectName(QStringLiteral("auditFilter"));
    m_auditSearch->setPlaceholderText(tr("Filter: who, what, provider…"));
    m_auditSearch->setClearButtonEnabled(true);
    connect(m_auditSearch, &QLineEdit::textChanged, m_auditFilter, &QSortFilterProxyModel::setFilterFixedString);
    auto *exportButton = new QPushButton(tr("Export…"));
    exportButton->setObjectName(QStringLiteral("auditExport"));
    exportButton->setToolTip(tr("Writes the rows the filter shows as CSV or JSON"));
    connect(exportButton, &QPushButton::clicked, this, &ControlView::exportAuditAs);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_auditSearch, 1);
    bar->addWidget(exportButton);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(bar);
    layout->addWidget(m_auditTable, 1);
    return box;
}

void ControlView::updateProviders()
{
    const ProviderTable &providers = m_engine.providers();
    fillProviderPicker(m_provider, providers.all(), 0, [&providers](Provider p) { return providers.name(p); });
}

void ControlView::setClock(controltext::WallClock clock)
{
    m_drains->setClock(clock);
    m_breakers->setClock(clock);
    m_probes->setClock(clock);
    tick();
}

void ControlView::refresh()
{
    m_engine.refreshProviders();
    m_engine.refreshAudit();
    m_engine.refreshAlerts();
}

void ControlView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    for (QTableView *table : { m_drainTable, m_breakerTable, m_probeTable })
        refitColumns(table);
    refresh();
}

void ControlView::tick()
{
    m_drains->refreshColumn(DrainListModel::RemainingColumn);
    m_breakers->refreshColumn(BreakerListModel::NextTrialColumn);
    m_probes->refreshColumn(ProbeListModel::NextDueColumn);
    // The lists themselves are asked again every few ticks while the view is on screen.
    static_assert(kRefresh % kTick == std::chrono::seconds(0));
    // Hidden, only the alerts: an attached console's notifications need them (embedded, the engine
    // evaluates them on its own and says so).
    if (++m_ticks % int(kRefresh / kTick) != 0)
        return;
    if (isVisible())
        refresh();
    else if (m_engine.attached())
        m_engine.refreshAlerts();
}

void ControlView::updateButtons()
{
    const bool usable = m_engine.usable();
    m_drainButton->setEnabled(usable);
    m_drainButton->setToolTip(usable ? tr("Drain the provider picked beside it: the same dialog as a health card's menu")
                                     : tr("The engine is not reachable; nothing can be drained until it is back"));
    // Restore only where something is drained, Reset only on a breaker that is open or half-open.
    m_restoreButton->setEnabled(usable && !currentRow(m_drainTable).isEmpty());
    const std::optional<BreakerView> breaker = BreakerListModel::breaker(currentRow(m_breakerTable));
    m_resetButton->setEnabled(usable && breaker && breaker->state != BreakerState::Closed);
    // Silence a rule whose alert is pending or firing; End silence where its rule is silenced.
    const QJsonObject alert = currentRow(m_alertTable);
    const bool live = !alert.isEmpty() && alert.value(QLatin1StringView("state")).toString() != u"resolved";
    m_silenceButton->setEnabled(usable && live);
    m_endSilenceButton->setEnabled(usable && live && alert.value(QLatin1StringView("silenced_until")).isString());
}

void ControlView::askToDrain()
{
    const auto provider = providerFromId(m_provider->currentData().toString());
    if (!provider)
        return;
    auto *dialog = new DrainDialog(*provider, std::nullopt, std::nullopt, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DrainDialog::drainAccepted, this, [this](const DrainRequest &r) { m_engine.drainProvider(r); });
    dialog->open(); // window-modal, no nested event loop: the view refreshes behind it
}

void ControlView::restoreCurrentDrain()
{
    const std::optional<Drain> d = DrainListModel::drain(currentRow(m_drainTable));
    if (!d)
        return;
    RestoreRequest r;
    r.provider = d->provider;
    r.role = d->role;
    r.stage = d->stage;
    m_engine.restoreDrains(r);
}

void ControlView::resetCurrentBreaker()
{
    const std::optional<BreakerView> b = BreakerListModel::breaker(currentRow(m_breakerTable));
    if (!b)
        return;
    // The dialog holds its own copy of the breaker: the table may refresh behind it.
    const BreakerResetRequest reset { b->key.provider, b->key.role, b->key.stage, {} };
    auto *ask = new QMessageBox(QMessageBox::Question, tr("Reset breaker"),
                                tr("Close the breaker of %1 as %2 at the %3 stage now? Requests go to it again at once; "
                                   "if it still fails, it opens again with the first cooldown.")
                                    .arg(toId(b->key.provider), controltext::role(b->key.role), controltext::stage(b->key.stage)),
                                QMessageBox::Cancel, this);
    ask->setObjectName(QStringLiteral("resetConfirm"));
    QPushButton *yes = ask->addButton(tr("Reset"), QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("resetConfirmButton"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    connect(yes, &QPushButton::clicked, this, [this, reset] { m_engine.resetBreaker(reset); });
    ask->open();
}

bool ControlView::exportAudit(const QString &path, QString *error) const
{
    QList<QJsonObject> rows;
    for (int r = 0; r < m_auditFilter->rowCount(); ++r)
        rows << m_auditFilter->index(r, 0).data(JsonRowsModel::RowRole).toJsonObject();
    QSaveFile file(path);
    const bool csv = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv ? AuditLogModel::toCsv(rows) : AuditLogModel::toJson(rows)) < 0
        || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2. Choose another folder.").arg(path, file.errorString());
        return false;
    }
    return true;
}

void ControlView::exportAuditAs()
{
    auto *dialog = new QFileDialog(this, tr("Export the audit trail"), QString(), tr("CSV (*.csv);;JSON (*.json)"));
    dialog->setObjectName(QStringLiteral("auditExportDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &filter) {
        dialog->setDefaultSuffix(filter.startsWith(QLatin1String("CSV")) ? QStringLiteral("csv") : QStringLiteral("json"));
    });
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QString why;
        m_status->setText(exportAudit(path, &why) ? tr("Exported to %1").arg(path) : why);
    });
    dialog->open();
}

} // namespace bullpen
