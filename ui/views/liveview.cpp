// SPDX-License-Identifier: MIT
#include "liveview.h"

#include "budgetbardelegate.h"
#include "models/eventlogmodel.h"
#include "models/generationlistmodel.h"
#include "models/words.h"
#include "timelinewidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace bullpen {

// The event stream's filter: by type (a suffix such as "_attempt_completed") and by generation.
class LiveView::EventFilter final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setFilters(const QString &type, const QString &generationId)
    {
        if (type == m_type && generationId == m_generation)
            return;
        m_type = type;
        m_generation = generationId;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        const QModelIndex i = sourceModel()->index(row, 0, parent);
        if (!m_generation.isEmpty() && i.data(EventLogModel::GenerationIdRole).toString() != m_generation)
            return false;
        return m_type.isEmpty() || i.data(EventLogModel::TypeRole).toString().contains(m_type);
    }

private:
    QString m_type;
    QString m_generation;
};

LiveView::LiveView(GenerationListModel *generations, EventLogModel *events, QWidget *parent)
    : QWidget(parent)
    , m_generations(generations)
{
    setObjectName(QStringLiteral("liveView"));
    QWidget *generationsBox = makeGenerationPane(generations);
    m_timeline = new TimelineWidget;
    QWidget *eventsBox = makeEventPane(events);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(generationsBox);
    split->addWidget(m_timeline);
    split->addWidget(eventsBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    // The list is bounded (GenerationListModel::kKeep): the selected generation is kept whatever its
    // age, and the timelines of the ones trimmed away are let go with them.
    connect(m_generations, &GenerationListModel::generationsDropped, this, [this](const QStringList &ids) {
        for (const QString &id : ids)
            m_byGeneration.remove(id);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_generations->setPinned(selectedGeneration());
        setEventsFollowSelection(m_followSelection);
        showTimeline();
        Q_EMIT generationSelected(selectedGeneration());
    });
}

// The generation table with its instance filter, its ticking columns and its fitted widths.
QWidget *LiveView::makeGenerationPane(GenerationListModel *generations)
{
    m_generationProxy = new QSortFilterProxyModel(this);
    m_generationProxy->setSourceModel(generations);
    m_generationProxy->setSortRole(GenerationListModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("generationTable"));
    m_table->setModel(m_generationProxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(GenerationListModel::StartedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setItemDelegateForColumn(GenerationListModel::BudgetColumn, new BudgetBarDelegate(m_table));
    // The instance column and its filter appear with the first generation that names one (a console
    // attached to an engine, whose stream carries every instance's generations on a shared store;
    // embedded, every generation is this console's own).
    m_table->setColumnHidden(GenerationListModel::InstanceColumn, true);
    m_instanceFilter = new QComboBox;
    m_instanceFilter->setObjectName(QStringLiteral("instanceFilter"));
    m_instanceFilter->addItem(tr("All instances"), QString());
    m_instanceFilter->hide();
    m_generationProxy->setFilterKeyColumn(GenerationListModel::InstanceColumn);
    connect(m_instanceFilter, &QComboBox::currentIndexChanged, this, [this] {
        const QString instance = m_instanceFilter->currentData().toString();
        m_generationProxy->setFilterRegularExpression(
            instance.isEmpty() ? QString() : QLatin1Char('^') + QRegularExpression::escape(instance) + QLatin1Char('$'));
    });
    connect(generations, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            const QString &instance = m_generations->rowAt(row).instance;
            if (instance.isEmpty() || m_instanceFilter->findData(instance) >= 0)
                continue;
            m_instanceFilter->addItem(instance, instance);
            m_instanceFilter->show();
            m_table->setColumnHidden(GenerationListModel::InstanceColumn, false);
        }
    });
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    // Elapsed time and budget bars move while generations run.
    auto *tick = new QTimer(this);
    tick->setInterval(250);
    // Only those two columns are repainted: a whole-table repaint four times a second was the console's
    // largest GUI-thread cost under Generate ×200 (text layout of every cell on screen).
    connect(tick, &QTimer::timeout, this, [this] {
        for (const int column : { GenerationListModel::ElapsedColumn, GenerationListModel::BudgetColumn }) {
            if (!m_table->isColumnHidden(column))
                m_table->viewport()->update(m_table->columnViewportPosition(column), 0, m_table->columnWidth(column),
                                            m_table->viewport()->height());
        }
    });
    tick->start();
    // Columns fit what is on screen, at most twice a second, and only ever grow; one the operator has
    // dragged keeps its width. A table that changes every few milliseconds under Generate ×200 thus does
    // not lay out every row's text after each batch (QHeaderView::ResizeToContents did, and stalled the
    // GUI for up to 45 ms at a time; with its default precision, ~300 ms).
    m_table->horizontalHeader()->setResizeContentsPrecision(0); // the rows on screen
    m_fitColumns = new QTimer(this);
    m_fitColumns->setSingleShot(true);
    connect(m_fitColumns, &QTimer::timeout, this, &LiveView::fitColumns);
    const auto scheduleFit = [this] { // at once after a quiet half second, else when it has passed
        if (m_fitColumns->isActive())
            return;
        const qint64 since = m_lastFit.isValid() ? m_lastFit.elapsed() : kFitIntervalMs;
        m_fitColumns->start(static_cast<int>(std::max<qint64>(0, kFitIntervalMs - since)));
    };
    connect(m_generationProxy, &QAbstractItemModel::rowsInserted, this, scheduleFit);
    connect(m_generationProxy, &QAbstractItemModel::dataChanged, this, scheduleFit);
    connect(m_generationProxy, &QAbstractItemModel::modelReset, this, scheduleFit);
    scheduleFit(); // the headers' own widths

    auto *generationsBox = new QWidget;
    auto *generationsLayout = new QVBoxLayout(generationsBox);
    generationsLayout->setContentsMargins(0, 0, 0, 0);
    generationsLayout->addLayout(makeListTools());
    generationsLayout->addWidget(m_table);

    return generationsBox;
}

// The event log, filtered by type and (when asked) by the selected generation.
QWidget *LiveView::makeEventPane(EventLogModel *events)
{
    m_eventProxy = new EventFilter(this);
    m_eventProxy->setSourceModel(events);
    m_eventTable = new QTableView;
    m_eventTable->setObjectName(QStringLiteral("eventTable"));
    m_eventTable->setModel(m_eventProxy);
    m_eventTable->horizontalHeader()->setStretchLastSection(true);
    m_eventTable->verticalHeader()->hide();
    m_eventTable->setWordWrap(false);
    m_eventTable->verticalHeader()->setDefaultSectionSize(m_eventTable->fontMetrics().height() + 6);
    m_typeFilter = new QComboBox;
    m_typeFilter->setObjectName(QStringLiteral("eventTypeFilter"));
    m_typeFilter->addItem(tr("All events"), QString());
    for (const char *t : { "generation_started", "_attempt_started", "_attempt_completed", "_fallback_triggered", "_retry_scheduled",
                           "late_result_discarded", "generation_finished" })
        m_typeFilter->addItem(words::eventType(QString::fromLatin1(t).remove(0, t[0] == '_' ? 1 : 0)), QString::fromLatin1(t));
    connect(m_typeFilter, &QComboBox::currentIndexChanged, this, [this] { setEventsFollowSelection(m_followSelection); });
    m_followBox = new QCheckBox(tr("Only the selected generation"));
    m_followBox->setObjectName(QStringLiteral("eventsFollowSelection"));
    m_followBox->setToolTip(tr("Show the events of the generation selected above; clear it to see every generation's events"));
    m_followBox->setChecked(true);
    connect(m_followBox, &QCheckBox::toggled, this, &LiveView::setEventsFollowSelection);

    auto *eventsBox = new QWidget;
    auto *eventsLayout = new QVBoxLayout(eventsBox);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    auto *eventTools = new QHBoxLayout;
    eventTools->addWidget(m_typeFilter, 1);
    eventTools->addWidget(m_followBox);
    eventsLayout->addLayout(eventTools);
    eventsLayout->addWidget(m_eventTable);

    return eventsBox;
}

QLayout *LiveView::makeListTools()
{
    m_newRun = new QToolButton;
    m_newRun->setObjectName(QStringLiteral("newRunHint"));
    m_newRun->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_newRun->hide();
    connect(m_newRun, &QToolButton::clicked, this, [this] {
        m_followed = m_newRunId; // following the newest again
        select(m_newRunId);
        m_table->scrollTo(m_table->currentIndex());
    });
    auto *tools = new QHBoxLayout;
    tools->addWidget(m_instanceFilter);
    tools->addWidget(m_newRun);
    tools->addStretch(1);
    return tools;
}

void LiveView::noteNewRun(const QString &generationId)
{
    const int row = m_generations->rowOf(generationId);
    const QModelIndex idx = row < 0 ? QModelIndex() : m_generationProxy->mapFromSource(m_generations->index(row, 0));
    if (!idx.isValid() || m_table->viewport()->rect().intersects(m_table->visualRect(idx)))
        return; // in view: the operator sees it
    m_newRunId = generationId;
    m_newRun->setText(tr("New generation started, out of view: show it"));
    m_newRun->show();
}

void LiveView::addEvents(const QList<Event> &batch)
{
    QString newest;
    for (const Event &e : batch) {
        if (std::holds_alternative<GenerationStarted>(e.body))
            newest = e.generationId;
        if (m_generations->rowOf(e.generationId) >= 0) // not one trimmed away (a late event)
            m_byGeneration[e.generationId] << e;
    }
    // Follow the newest generation while the operator has not chosen one: a row they selected (or
    // select() chose) stays selected while Generate ×N adds rows.
    const QString current = selectedGeneration();
    if (!newest.isEmpty() && (current.isEmpty() || current == m_followed)) {
        select(newest);
        m_followed = newest;
    } else {
        showTimeline();
        if (!newest.isEmpty())
            noteNewRun(newest);
    }
    m_eventTable->scrollToBottom();
}

void LiveView::select(const QString &generationId)
{
    const int row = m_generations->rowOf(generationId);
    if (row < 0)
        return;
    if (generationId == m_newRunId)
        m_newRun->hide();
    const QModelIndex idx = m_generationProxy->mapFromSource(m_generations->index(row, 0));
    m_table->selectRow(idx.row());
    m_table->setCurrentIndex(idx);
    showTimeline();
}

void LiveView::setEventsFollowSelection(bool follow)
{
    m_followSelection = follow;
    if (m_followBox->isChecked() != follow)
        m_followBox->setChecked(follow);
    m_eventProxy->setFilters(m_typeFilter->currentData().toString(), follow ? selectedGeneration() : QString());
}

QAbstractItemModel *LiveView::eventStream() const
{
    return m_eventProxy;
}

QString LiveView::selectedGeneration() const
{
    const QModelIndex idx = m_table->currentIndex();
    return idx.isValid() ? idx.data(GenerationListModel::GenerationIdRole).toString() : QString();
}

void LiveView::fitColumns()
{
    m_lastFit.start();
    QHeaderView *header = m_table->horizontalHeader();
    const QAbstractItemView *view = m_table; // QTableView hides sizeHintForColumn
    const int last = header->count() - 1;
    for (int column = 0; column < last; ++column) { // the last one stretches
        if (m_table->isColumnHidden(column))
            continue;
        const auto fitted = m_fittedWidths.constFind(column);
        // A width that is not the one this set last was the operator's: it stays theirs.
        if (fitted != m_fittedWidths.cend() && *fitted != header->sectionSize(column))
            continue;
        // The first fit sets the width (Qt's default is 100 px whatever the column holds); later ones widen.
        const int wanted = std::max(view->sizeHintForColumn(column), header->sectionSizeHint(column));
        if (fitted == m_fittedWidths.cend() || wanted > header->sectionSize(column))
            header->resizeSection(column, wanted);
        m_fittedWidths.insert(column, header->sectionSize(column));
    }
    Q_EMIT columnsFitted();
}

void LiveView::showTimeline()
{
    m_timeline->setEvents(m_byGeneration.value(selectedGeneration()));
}

} // namespace bullpen
