// SPDX-License-Identifier: MIT
#include "failuresview.h"

#include "annotationoverlay.h"
#include "charts.h"
#include "contract/displaymask.h"
#include "contract/providerregistry.h"
#include "contract/recordtext.h"
#include "engine/stageresult.h"
#include "linkfilters.h"
#include "models/eventlogmodel.h"
#include "models/failurehistorymodel.h"
#include "models/historyqueue.h"
#include "models/units.h"
#include "models/words.h"
#include "pipeline/engineconnection.h"
#include "pipeline/replayplayer.h"
#include "providerpicker.h"
#include "replaydialog.h"
#include "timelinewidget.h"
#include "tones.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMetaEnum>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <utility>

namespace bullpen {

using namespace std::chrono;

namespace {

constexpr qint64 kHour = 3'600'000;

struct Range
{
    const char *label;
    qint64 spanMs; // 0: everything
    qint64 bucketMs;
};

// Time ranges and the bucket the fallback-rate chart uses for each (≤ ~170 points).
constexpr Range kRanges[] = {
    { QT_TRANSLATE_NOOP("bullpen::FailuresView", "Last hour"), kHour, 5 * 60'000 },
    { QT_TRANSLATE_NOOP("bullpen::FailuresView", "Last 24 hours"), 24 * kHour, kHour },
    { QT_TRANSLATE_NOOP("bullpen::FailuresView", "Last 7 days"), 7 * 24 * kHour, kHour },
    { QT_TRANSLATE_NOOP("bullpen::FailuresView", "Last 30 days"), 30 * 24 * kHour, 6 * kHour },
    { QT_TRANSLATE_NOOP("bullpen::FailuresView", "All time"), 0, 24 * kHour },
};

template<class E> void addEnumItems(QComboBox *box)
{
    const QMetaEnum me = QMetaEnum::fromType<E>();
    for (int i = 0; i < me.keyCount(); ++i)
        box->addItem(QLatin1StringView(me.key(i)), QLatin1StringView(me.key(i)));
}

struct ChartData
{
    QList<std::pair<QString, qint64>> byCode;
    QList<std::pair<QString, qint64>> byKind;
    QList<RateBucket> rate;
    qint64 total = 0;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 bucketMs = 0;
    double elapsedMs = 0;
    QString error;
};

} // namespace

// Two rows: what to count (range, outcome, code, kind, stage), then whose (provider, reason,
// instance, scope, search) and the export.
QLayout *FailuresView::makeFilterRows(QToolButton *exportButton)
{
    auto *filters = new QVBoxLayout;
    auto *what = new QHBoxLayout;
    for (QComboBox *c : { m_range, m_outcome, m_code, m_kind, m_stage })
        what->addWidget(c);
    what->addStretch(1);
    auto *whose = new QHBoxLayout;
    for (QComboBox *c : { m_provider, m_reason, m_instance })
        whose->addWidget(c);
    whose->addWidget(m_scope);
    whose->addWidget(m_search, 1);
    whose->addWidget(m_searchClear);
    whose->addWidget(exportButton);
    filters->addLayout(what);
    filters->addLayout(whose);
    return filters;
}

FailuresView::FailuresView(HistoryReader *history, HistoryQueue *queue, const ProviderTable &providers, QWidget *parent)
    : QWidget(parent)
    , m_history(history)
    , m_queue(queue)
    , m_providers(providers)
    , m_model(new FailureHistoryModel(this))
{
    setObjectName(QStringLiteral("failuresView"));
    QLayout *filters = makeFilters();
    QHBoxLayout *summaryRow = makeSummaryRow();
    QWidget *chartRow = makeCharts();
    makeTable();
    QWidget *detail = makeDetail();

    auto *lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(m_table);
    lower->addWidget(detail);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    // The table's key columns (code, kind, providers, duration, stage) readable beside the detail at 1024 px.
    lower->setSizes({ 560, 400 });
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(chartRow);
    split->addWidget(lower);
    split->setStretchFactor(1, 3);
    split->setSizes({ 150, 610 }); // the charts as tall as before the filters took two rows; 120 px at the least

    connect(m_collapse, &QToolButton::clicked, this, [this] { setDetailCollapsed(!isDetailCollapsed()); });
    summaryRow->insertWidget(1, m_collapse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addLayout(summaryRow);
    layout->addWidget(split, 1);

    connect(m_model, &FailureHistoryModel::queryFailed, this,
            [this](const QString &error) { m_summary->setText(tr("The history could not be read: %1").arg(error)); });
    if (!m_history) {
        m_summary->setText(tr("History is off: Bullpen was started without a store (--no-store)."));
        setEnabled(false);
        return;
    }
    m_model->setQueue(m_queue);
    m_model->setHistory(m_history);
    connect(m_model, &FailureHistoryModel::pageLoaded, this, [this](bool first) {
        m_updatedAt = QDateTime::currentDateTime();
        m_updated->setText(updatedText());
        if (!first)
            Q_EMIT refreshed();
    });
    m_refreshTimer->start();
    // The filter's first page is in: the newest generation's detail is shown.
    connect(m_model, &FailureHistoryModel::pageLoaded, this, [this](bool first) {
        if (!first)
            return;
        if (m_model->rowCount() > 0)
            m_table->selectRow(0);
        else
            showDetail(QString());
    });
    applyFilter();
}

QComboBox *FailuresView::filterCombo(const char *name)
{
    auto *c = new QComboBox;
    c->setObjectName(QLatin1StringView(name));
    // As wide as about 14 characters, the rest elided (the list shows every item whole): the
    // filters fit a 1024 px window on two rows.
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(14);
    connect(c, &QComboBox::activated, this, &FailuresView::applyFilter);
    return c;
}

// The filters: what (range, outcome, code, kind, stage) and whose (provider, reason, instance, search).
QLayout *FailuresView::makeFilters()
{
    m_range = filterCombo("rangeCombo");
    for (const Range &r : kRanges)
        m_range->addItem(tr(r.label), r.spanMs); // the data names it in a link: "7d", "all"
    m_range->setCurrentIndex(2);
    m_outcome = filterCombo("outcomeCombo");
    m_outcome->addItem(tr("Failed"), QStringLiteral("failed"));
    m_outcome->addItem(tr("Answered by the fallback"), QStringLiteral("relieved"));
    m_outcome->addItem(tr("Cancelled"), QStringLiteral("cancelled"));
    m_outcome->addItem(tr("All generations"), QString());
    m_code = filterCombo("codeCombo");
    m_code->addItem(tr("Any public code"), QString());
    addEnumItems<PublicCode>(m_code);
    m_kind = filterCombo("kindCombo");
    m_kind->addItem(tr("Any kind"), QString());
    addEnumItems<FailureKind>(m_kind);
    m_stage = filterCombo("stageCombo");
    m_stage->addItem(tr("Any stage"), QString());
    for (const Stage s : enumValues<Stage>())
        m_stage->addItem(words::stage(s), toId(s));
    m_provider = filterCombo("providerCombo");
    m_provider->addItem(tr("Any provider"), QString());
    setProviders(m_providers);
    m_reason = filterCombo("reasonCombo");
    m_reason->addItem(tr("Any fallback reason"), QString());
    for (const QString &ending : fallbackReasonEndings())
        m_reason->addItem(ending, ending);
    m_reason->setToolTip(tr("Why the fallback got the stage, for every provider: circuit_open and drained are primaries "
                            "skipped by a breaker or an operator; the others are the primary's failure"));
    m_scope = new QToolButton;
    m_scope->setObjectName(QStringLiteral("scopeButton"));
    m_scope->setToolTip(tr("Only generations in which this provider, in this role, failed an attempt of this stage "
                           "(from its health card). Click to remove."));
    m_scope->hide();
    connect(m_scope, &QToolButton::clicked, this, [this] {
        m_failedAttempt.reset();
        m_scope->hide();
        applyFilter();
    });
    // Engines sharing one store (docs/store.md): the instances the rows have named so far.
    m_instance = filterCombo("instanceCombo");
    m_instance->addItem(tr("Any instance"), QString());
    connect(m_model, &FailureHistoryModel::pageLoaded, this, [this] {
        for (const QString &name : m_model->instancesSeen()) {
            if (m_instance->findData(name) < 0)
                m_instance->addItem(name, name);
        }
    });

    auto *exportButton = new QToolButton;
    exportButton->setObjectName(QStringLiteral("exportButton"));
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export what the filter selects, masked as on screen"));
    connect(exportButton, &QToolButton::clicked, this, &FailuresView::chooseExport);

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("searchEdit"));
    m_search->setPlaceholderText(tr("gen_… or a user id, then Enter"));
    m_search->setToolTip(tr("A generation id (whole, or its first characters) or a user id. A user id is matched on its keyed "
                            "hash with the installation's key: it is never stored, and the box then shows only its mask."));
    m_search->setMinimumWidth(150);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    m_searchClear = new QToolButton;
    m_searchClear->setObjectName(QStringLiteral("searchClear"));
    m_searchClear->setText(tr("Clear search"));
    m_searchClear->hide();
    connect(m_searchClear, &QToolButton::clicked, this, [this] { search(QString()); });

    return makeFilterRows(exportButton);
}

QHBoxLayout *FailuresView::makeSummaryRow()
{
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("failuresSummary"));
    m_updated = new QLabel(tr("not read yet"));
    m_updated->setObjectName(QStringLiteral("failuresUpdated"));
    m_refreshPause = new QToolButton;
    m_refreshPause->setObjectName(QStringLiteral("failuresPause"));
    m_refreshPause->setCheckable(true);
    m_refreshPause->setText(tr("Pause updates"));
    m_refreshPause->setToolTip(tr("Stop reading new rows and counts from the store (what is shown stays)"));
    connect(m_refreshPause, &QToolButton::toggled, this, &FailuresView::setRefreshPaused);
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(10'000);
    connect(m_refreshTimer, &QTimer::timeout, this, &FailuresView::refreshNewest);
    auto *summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_updated);
    summaryRow->addWidget(m_refreshPause);
    return summaryRow;
}

QWidget *FailuresView::makeCharts()
{
    m_codeChart = charts::makeView(tr("Count by public code"));
    m_kindChart = charts::makeView(tr("Count by kind"));
    m_rateChart = charts::makeView(tr("Fallback rate over time"));
    auto *chartRow = new QWidget;
    auto *chartLayout = new QHBoxLayout(chartRow);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_codeChart, 1);
    chartLayout->addWidget(m_kindChart, 1);
    chartLayout->addWidget(m_rateChart, 1);
    return chartRow;
}

void FailuresView::makeTable()
{
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("failuresTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    // Narrow enough that code, kind, providers, duration and stage read beside an open detail pane at
    // 1024 px; a long value is elided, whole in its tooltip.
    const int widths[] = { 150, 110, 110, 84, 80, 130, 100, 110, 100 }; // FailureHistoryModel::Column
    for (int c = 0; c < int(std::size(widths)); ++c)
        m_table->setColumnWidth(c, widths[c]);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            showDetail(current.data(FailureHistoryModel::GenerationIdRole).toString());
    });
}

// The detail pane: the selected generation's header, next step, timeline and events.
QWidget *FailuresView::makeDetail()
{
    m_detailHeader = new QLabel(tr("Select a generation to see its attempts."));
    m_detailHeader->setObjectName(QStringLiteral("detailHeader"));
    m_detailHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailHeader->setWordWrap(true);
    m_detailHeader->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_nextStep = new QLabel;
    m_nextStep->setObjectName(QStringLiteral("detailNextStep"));
    m_nextStep->setWordWrap(true);
    m_nextStep->setStyleSheet(tones::boxStyle(tones::Tone::Warning));
    m_nextStep->hide();
    m_timeline = new TimelineWidget;
    m_timeline->setObjectName(QStringLiteral("detailTimeline"));
    m_events = new EventLogModel(this);
    m_eventsTable = new QTableView;
    m_eventsTable->setObjectName(QStringLiteral("detailEvents"));
    m_eventsTable->setModel(m_events);
    m_eventsTable->verticalHeader()->hide();
    m_eventsTable->horizontalHeader()->setStretchLastSection(true);
    m_eventsTable->verticalHeader()->setDefaultSectionSize(m_eventsTable->fontMetrics().height() + 4);
    m_collapse = new QToolButton;
    m_collapse->setObjectName(QStringLiteral("collapseDetail"));
    m_collapse->setText(tr("Hide detail"));
    m_collapse->setToolTip(tr("Hide the detail pane and give the table the width"));
    auto *detail = new QWidget;
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->addLayout(makeDetailTools());
    detailLayout->addWidget(m_detailHeader);
    detailLayout->addWidget(m_nextStep);
    detailLayout->addWidget(m_timeline, 2);
    detailLayout->addWidget(m_eventsTable, 1);
    // The pane scrolls rather than make the window taller: a long next step wraps to more lines (in
    // Korean most of all), and the window must still fit 1024×700.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("detailScroll"));
    scroll->setWidget(detail);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_detail = scroll;
    return scroll;
}

FailuresView::~FailuresView()
{
    if (m_exportCancel)
        m_exportCancel->store(true);
}

QList<std::pair<QString, QString>> FailuresView::linkFilters() const
{
    return linkFilterValues(linkFilterTable());
}

bool FailuresView::openLinkFilters(const QList<std::pair<QString, QString>> &filters, QString *error)
{
    if (!applyLinkFilterValues(linkFilterTable(), filters, error))
        return false;
    applyFilter();
    return true;
}

// The boxes a link carries, by the keys it names them with (the instances are left out: a console
// knows only those its rows have named so far).
QList<LinkFilter> FailuresView::linkFilterTable() const
{
    return { { "range", m_range }, { "outcome", m_outcome },   { "code", m_code },    { "kind", m_kind },
             { "stage", m_stage }, { "provider", m_provider }, { "reason", m_reason } };
}

HistoryFilter FailuresView::currentFilter() const
{
    HistoryFilter f;
    const Range &r = kRanges[std::clamp(m_range->currentIndex(), 0, int(std::size(kRanges)) - 1)];
    if (r.spanMs > 0)
        f.fromMs = QDateTime::currentMSecsSinceEpoch() - r.spanMs;
    const QString outcome = m_outcome->currentData().toString();
    if (outcome == u"relieved")
        f.fallbackApplied = true;
    else if (const auto state = historyStateFromId(outcome))
        f.states = { *state };
    f.publicCode = enumFromName<PublicCode>(m_code->currentData().toString());
    f.kind = enumFromName<FailureKind>(m_kind->currentData().toString());
    f.stage = stageFromId(m_stage->currentData().toString());
    f.provider = providerFromId(m_provider->currentData().toString());
    f.instance = m_instance->currentData().toString();
    f.fallbackReason = m_reason->currentData().toString();
    f.failedAttempt = m_failedAttempt;
    f.idPrefix = m_idSearch;
    f.userId = m_userSearch;
    if (!m_idSearch.isEmpty()) // an id names one generation: a probe's or a replay's is found too
        f.synthetic = HistoryFilter::Synthetic::Include;
    return f;
}

void FailuresView::applyFilter()
{
    if (!m_history)
        return;
    m_model->setFilter(currentFilter()); // its first page selects the newest row (pageLoaded)
    updateCharts();
}

void FailuresView::refreshNewest()
{
    if (!m_history || m_refreshPaused)
        return;
    // Off screen, the view neither reads nor redraws: under Generate ×200 the console asks every
    // second, and each chart rebuild took up to ~20 ms of the GUI thread. It catches up as it is shown.
    if (!isVisible()) {
        m_missedRefresh = true;
        return;
    }
    m_model->refreshNewest();
    updateCharts();
}

void FailuresView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_missedRefresh, false))
        refreshNewest();
}

void FailuresView::updateCharts()
{
    const HistoryFilter filter = currentFilter();
    const Range &r = kRanges[std::clamp(m_range->currentIndex(), 0, int(std::size(kRanges)) - 1)];
    const quint64 sequence = ++m_chartSequence;
    m_summary->setText(tr("Counting…"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_queue->run<ChartData>(
        this,
        [filter, r, now](HistoryReader &store) {
            QElapsedTimer timer;
            timer.start();
            ChartData d;
            d.toMs = now;
            d.byCode = store.countBy(HistoryGroup::PublicCode, filter, &d.error);
            d.byKind = store.countBy(HistoryGroup::Kind, filter, &d.error);
            for (const auto &c : std::as_const(d.byCode))
                d.total += c.second;
            d.fromMs = filter.fromMs.value_or(0);
            if (!filter.fromMs) { // all time: from the oldest generation
                d.fromMs = store.oldestGenerationMs(&d.error).value_or(now - 24 * kHour);
            }
            d.fromMs -= d.fromMs % r.bucketMs;
            d.bucketMs = r.bucketMs;
            d.rate = store.fallbackRate(d.fromMs, now + 1, r.bucketMs, &d.error, filter);
            d.elapsedMs = double(timer.nsecsElapsed()) / 1e6;
            return d;
        },
        [this, sequence](ChartData d) {
            if (sequence != m_chartSequence)
                return; // a newer filter is on its way
            // Failures carry a code; for the "answered by the fallback" or "all" outcomes the counts show the codes of
            // failures only, with successes as "(none)".
            m_byCode = d.byCode;
            m_byKind = d.byKind;
            charts::setBars(m_codeChart, d.byCode, tones::color(tones::Tone::Failure), tr("No generations match"),
                            [this](const QString &key) { filterByBar(HistoryGroup::PublicCode, key); });
            charts::setBars(m_kindChart, d.byKind, tones::color(tones::Tone::Warning), tr("No generations match"),
                            [this](const QString &key) { filterByBar(HistoryGroup::Kind, key); });
            QChart *rate = charts::renew(m_rateChart);
            m_rateChart->setToolTip(tr("Of the generations in range that match the provider, instance and search (every outcome: "
                                       "codes, kinds and stages describe failures only), the share a fallback provider answered. "
                                       "Buckets without traffic are left empty, not bridged."));
            // One line per run of buckets with traffic: no line is drawn across a bucket without any.
            QList<QLineSeries *> lines;
            QLineSeries *line = nullptr;
            qint64 gens = 0, fallbacks = 0, previous = std::numeric_limits<qint64>::min();
            for (const RateBucket &b : std::as_const(d.rate)) {
                gens += b.generations;
                fallbacks += b.fallbacks;
                if (b.generations == 0) {
                    line = nullptr;
                    continue;
                }
                if (!line || b.startMs - previous > d.bucketMs) {
                    line = new QLineSeries;
                    line->setColor(tones::color(tones::Tone::Accent));
                    line->setPointsVisible(true);
                    lines << line;
                }
                line->append(double(b.startMs), 100.0 * double(b.fallbacks) / double(b.generations));
                previous = b.startMs;
            }
            m_rateSegments = static_cast<int>(lines.size());
            if (gens == 0)
                rate->setTitle(tr("No generations in range"));
            for (QLineSeries *l : std::as_const(lines)) {
                l->setName(tr("fallback rate"));
                rate->addSeries(l);
            }
            auto *x = new QDateTimeAxis;
            x->setFormat(d.toMs - d.fromMs > 2 * 24 * kHour ? QStringLiteral("MM-dd") : QStringLiteral("HH:mm"));
            x->setRange(QDateTime::fromMSecsSinceEpoch(d.fromMs), QDateTime::fromMSecsSinceEpoch(d.toMs));
            x->setTickCount(5);
            auto *y = new QValueAxis;
            y->setRange(0, 100);
            y->setLabelFormat(QStringLiteral("%d %%"));
            y->setTickCount(5);
            rate->addAxis(x, Qt::AlignBottom);
            rate->addAxis(y, Qt::AlignLeft);
            for (QLineSeries *l : std::as_const(lines)) {
                l->attachAxis(x);
                l->attachAxis(y);
            }
            const QString overall = gens ? QLocale().toString(100.0 * double(fallbacks) / double(gens), 'f', 1) : QStringLiteral("–");
            m_summary->setText(d.error.isEmpty() ? tr("Matching generations: %L1 · fallback rate %2 % of the %L3 in range · "
                                                      "counted in %4")
                                                       .arg(d.total)
                                                       .arg(overall)
                                                       .arg(gens)
                                                       .arg(units::duration(d.elapsedMs))
                                                 : tr("The history could not be read: %1").arg(d.error));
            m_updatedAt = QDateTime::currentDateTime();
            m_updated->setText(updatedText());
            Q_EMIT chartsUpdated();
        });
}

QHBoxLayout *FailuresView::makeDetailTools()
{
    m_replay = new QToolButton;
    m_replay->setObjectName(QStringLiteral("replayButton"));
    m_replay->setText(tr("Replay locally…"));
    m_replay->setToolTip(tr("Play this generation again on the built-in simulator, as recorded or with other settings, and compare"));
    m_replay->setEnabled(false);
    connect(m_replay, &QToolButton::clicked, this, &FailuresView::replayDetail);
    m_copyId = new QToolButton;
    m_copyId->setObjectName(QStringLiteral("copyIdButton"));
    m_copyId->setText(tr("Copy id"));
    m_copyId->setToolTip(tr("Copy this generation's full id (for bullpen --open, the CLI or a ticket)"));
    m_copyId->setEnabled(false);
    connect(m_copyId, &QToolButton::clicked, this, &FailuresView::copyDetailId);
    auto *tools = new QHBoxLayout;
    tools->addStretch(1);
    tools->addWidget(m_replay);
    tools->addWidget(m_copyId);
    return tools;
}

void FailuresView::replayDetail()
{
    if (m_detailId.isEmpty() || !m_queue)
        return;
    struct Read
    {
        std::optional<ReplaySource> source;
        QString error;
    };
    const QString id = m_detailId;
    m_queue->run<Read>(
        this,
        [id](HistoryReader &store) {
            Read r;
            r.source = ReplaySource::read(store, id, &r.error);
            return r;
        },
        [this, id](Read r) {
            if (!r.source) {
                m_summary->setText(tr("Replay: %1").arg(r.error));
                return;
            }
            if (!m_engine) {
                m_summary->setText(tr("Replay: no engine to replay with. Open this view from the console's window."));
                return;
            }
            auto *dialog = new ReplayDialog(std::move(*r.source), id == m_detailId ? m_timeline->events() : QList<Event> {},
                                            m_engine->newReplay(nullptr), m_providers, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
            Q_EMIT replayOpened(dialog);
        });
}

void FailuresView::showDetail(const QString &generationId)
{
    m_detailId = generationId;
    m_events->clear();
    m_copyId->setEnabled(!generationId.isEmpty());
    m_replay->setEnabled(false); // until the detail shows an ended generation
    if (generationId.isEmpty() || !m_history) {
        m_detailHeader->setText(tr("Select a generation to see its attempts."));
        m_nextStep->hide();
        m_timeline->clear();
        return;
    }
    m_detailHeader->setText(tr("Reading %1…").arg(generationId.toHtmlEscaped()));
    m_nextStep->hide();
    m_timeline->clear();
    struct Detail
    {
        std::optional<GenerationRow> row;
        HistoryReader::Timeline timeline;
        QString error;
    };
    m_queue->run<Detail>(
        this,
        [generationId](HistoryReader &store) {
            Detail d;
            d.row = store.generation(generationId, &d.error);
            if (d.row)
                d.timeline = store.timeline(*d.row, &d.error);
            return d;
        },
        [this, generationId](Detail d) {
            if (generationId != m_detailId)
                return; // another generation was selected meanwhile: its own read fills the pane
            if (!d.row) {
                m_detailHeader->setText(d.error.isEmpty() ? tr("This generation is no longer in the store.")
                                                          : tr("The history could not be read: %1").arg(d.error));
            } else {
                fillDetail(*d.row, d.timeline);
            }
            Q_EMIT detailShown(generationId);
        });
}

void FailuresView::fillDetail(const GenerationRow &r, const HistoryReader::Timeline &timeline)
{
    const QList<Event> &events = timeline.events;
    const bool rebuilt = timeline.rebuilt;
    m_timeline->setEvents(events);
    m_events->appendBatch(events);

    const QString chain = r.providerChain();
    QStringList lines;
    lines << tr("<b>Generation</b> <code>%1</code>").arg(r.id.toHtmlEscaped());
    lines << tr("<b>User</b> %1 · <b>started</b> %2 · <b>took</b> %3")
                 .arg((r.userMask.isEmpty() ? tr("(none)") : r.userMask).toHtmlEscaped(),
                      QDateTime::fromMSecsSinceEpoch(r.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                      units::duration(r.elapsedMs));
    lines << tr("<b>State</b> %1 · <b>policy</b> %2 · <b>providers</b> %3")
                 .arg(words::state(r.state), r.policy.toHtmlEscaped(), chain.toHtmlEscaped())
            + (r.instance.isEmpty() ? QString() : tr(" · <b>instance</b> %1").arg(r.instance.toHtmlEscaped()));
    if (!r.publicCode.isEmpty())
        lines << tr("<b>Failed at</b> %1 with <b>%2</b> (%3): %4")
                     .arg(stageFromId(r.stage) ? words::stage(*stageFromId(r.stage)) : r.stage, r.publicCode, r.kind,
                          localizedRecordText(r.detail).toHtmlEscaped());
    // The reason is why the fallback got the stage (the primary's failure, a breaker, a drain), never
    // the fallback's own failure: said in that order.
    if (r.fallbackApplied)
        lines << tr("<b>Fallback</b> answered, after %1").arg(r.fallbackReason.toHtmlEscaped());
    else if (!r.fallbackReason.isEmpty())
        lines << tr("<b>Fallback</b> called after %1, and it failed too").arg(r.fallbackReason.toHtmlEscaped());
    if (!r.decision.isEmpty())
        lines << tr("<b>Decision</b> %1").arg(localizedRecordText(r.decision).toHtmlEscaped());
    if (rebuilt)
        lines << tr("<i>Timeline rebuilt from the attempt records: this generation's event log is not in the store.</i>");
    m_detailHeader->setText(lines.join(QStringLiteral("<br>")));
    m_replay->setEnabled(r.state != u"running");
    m_nextStep->setVisible(!r.nextStep.isEmpty());
    m_nextStep->setText(tr("<b>What to do next</b><br>%1").arg(localizedRecordText(r.nextStep).toHtmlEscaped()));
}

void FailuresView::chooseExport()
{
    QMenu menu;
    QAction *csv = menu.addAction(tr("CSV…"));
    menu.addAction(tr("JSON Lines…"));
    QAction *chosen = menu.exec(QCursor::pos());
    if (!chosen)
        return;
    const bool isCsv = chosen == csv;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export history"), isCsv ? QStringLiteral("bullpen-failures.csv") : QStringLiteral("bullpen-failures.jsonl"),
        isCsv ? tr("CSV (*.csv)") : tr("JSON Lines (*.jsonl)"));
    if (!path.isEmpty())
        exportTo(path, isCsv ? HistoryExport::Format::Csv : HistoryExport::Format::JsonLines);
}

void FailuresView::exportTo(const QString &path, HistoryExport::Format format)
{
    if (!m_history)
        return;
    struct Outcome
    {
        qint64 rows = 0;
        QString error;
    };
    const HistoryFilter filter = currentFilter();
    m_exportCancel = std::make_shared<std::atomic_bool>(false);
    auto cancel = m_exportCancel;
    m_summary->setText(tr("Exporting to %1…").arg(path));
    m_queue->run<Outcome>(
        this,
        [filter, format, path, cancel](HistoryReader &store) {
            Outcome o;
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) {
                o.error = QStringLiteral("%1: %2").arg(path, file.errorString());
                return o;
            }
            const HistoryExport::Outcome r =
                HistoryExport::write(store, filter, format, HistoryExport::Ids::MaskedOnly, file, {}, cancel.get());
            o.rows = r.rows;
            o.error = r.error;
            if (r.cancelled) {
                file.cancelWriting();
                o.error = QStringLiteral("cancelled");
            }
            if (o.error.isEmpty() && !file.commit())
                o.error = QStringLiteral("%1: %2; nothing was written").arg(path, file.errorString());
            return o;
        },
        [this, path](Outcome o) {
            m_summary->setText(o.error.isEmpty() ? tr("Exported to %2 (rows: %L1)").arg(o.rows).arg(path)
                                                 : tr("Export failed: %1. Choose another file or free some space.").arg(o.error));
            Q_EMIT exportFinished(path, o.rows, o.error);
        });
}

void FailuresView::search(const QString &text)
{
    const QString t = text.trimmed();
    m_idSearch.clear();
    m_userSearch.clear();
    if (t.startsWith(QLatin1StringView("gen_"), Qt::CaseInsensitive))
        m_idSearch = t.toLower();
    else
        m_userSearch = t;
    // The raw user id leaves the box at once: it shows the mask, as every other view does.
    m_search->setText(m_userSearch.isEmpty() ? m_idSearch : QString());
    m_search->setPlaceholderText(m_userSearch.isEmpty() ? tr("gen_… or a user id, then Enter") : searchMask());
    m_searchClear->setVisible(!t.isEmpty());
    applyFilter();
}

QString FailuresView::searchMask() const
{
    if (!m_userSearch.isEmpty())
        return tr("user %1").arg(DisplayMask::user(m_userSearch));
    return m_idSearch;
}

void FailuresView::openGeneration(const QString &generationId)
{
    m_range->setCurrentIndex(int(std::size(kRanges)) - 1); // all time
    m_outcome->setCurrentIndex(m_outcome->findData(QString()));
    for (QComboBox *c : { m_code, m_kind, m_stage, m_provider, m_reason, m_instance })
        c->setCurrentIndex(0);
    m_failedAttempt.reset();
    m_scope->hide();
    search(generationId);
    showDetail(generationId);
}

void FailuresView::filterByCard(Provider provider, Role role, Stage stage)
{
    m_range->setCurrentIndex(0); // the last hour: the card's windows are 5 and 15 minutes
    m_outcome->setCurrentIndex(m_outcome->findData(QString())); // a failed primary is often a generation a fallback answered
    for (QComboBox *c : { m_code, m_kind, m_stage, m_provider, m_reason, m_instance })
        c->setCurrentIndex(0);
    m_idSearch.clear();
    m_userSearch.clear();
    m_search->clear();
    m_search->setPlaceholderText(tr("gen_… or a user id, then Enter"));
    m_searchClear->hide();
    m_failedAttempt = HistoryFilter::AttemptScope { provider, role, stage };
    m_scope->setText(tr("%1 %2 %3 failed ✕").arg(toId(provider), words::role(role), words::stage(stage)));
    m_scope->show();
    applyFilter();
}

void FailuresView::filterByBar(HistoryGroup group, const QString &key)
{
    QComboBox *box = group == HistoryGroup::Kind ? m_kind : m_code;
    const int i = box->findData(key);
    if (i < 0)
        return; // "(none)": successes carry no code or kind
    box->setCurrentIndex(i);
    applyFilter();
}

void FailuresView::setRefreshInterval(int ms)
{
    m_refreshTimer->setInterval(ms);
}

void FailuresView::setRefreshPaused(bool paused)
{
    m_refreshPaused = paused;
    if (m_refreshPause->isChecked() != paused)
        m_refreshPause->setChecked(paused);
    m_refreshPause->setText(paused ? tr("Resume updates") : tr("Pause updates"));
    m_updated->setText(updatedText());
    if (!paused)
        refreshNewest();
}

QString FailuresView::updatedText() const
{
    return charts::updatedText(m_updatedAt, m_refreshPaused);
}

bool FailuresView::isDetailCollapsed() const
{
    return m_detail && !m_detail->isVisibleTo(this);
}

void FailuresView::setDetailCollapsed(bool collapsed)
{
    m_detail->setVisible(!collapsed);
    m_collapse->setText(collapsed ? tr("Show detail") : tr("Hide detail"));
}

void FailuresView::copyDetailId()
{
    if (m_detailId.isEmpty())
        return;
    QApplication::clipboard()->setText(m_detailId);
    // Said where the operator looks: on the button, for a moment.
    m_copyId->setText(tr("Copied"));
    QTimer::singleShot(1500, m_copyId, [button = m_copyId] { button->setText(tr("Copy id")); });
}

void FailuresView::setProviders(const ProviderTable &providers)
{
    m_providers = providers;
    fillProviderPicker(m_provider, m_providers.all(), 1, [](Provider p) { return toId(p); }); // after "Any provider"
}

void FailuresView::setAnnotations(AnnotationModel *model)
{
    new AnnotationOverlay(m_rateChart, model); // a child of the chart's viewport
}

} // namespace bullpen
