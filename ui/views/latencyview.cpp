// SPDX-License-Identifier: MIT
#include "latencyview.h"

#include "annotationoverlay.h"
#include "charts.h"
#include "contract/providerregistry.h"
#include "engine/stageresult.h"
#include "history/historyreader.h"
#include "linkfilters.h"
#include "models/historyqueue.h"
#include "models/units.h"
#include "models/words.h"
#include "providerpicker.h"
#include "spendpanel.h"
#include "tones.h"
#include "tunepanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QStackedBarSeries>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <utility>

namespace bullpen {

namespace {

constexpr qint64 kMinute = 60'000;
constexpr qint64 kHour = 60 * kMinute;

struct Choice
{
    const char *label;
    qint64 ms;
};

constexpr Choice kRanges[] = {
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "Last hour"), kHour },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "Last 24 hours"), 24 * kHour },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "Last 7 days"), 7 * 24 * kHour },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "Last 30 days"), 30 * 24 * kHour },
};
constexpr Choice kBuckets[] = {
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "1-minute buckets"), kMinute },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "5-minute buckets"), 5 * kMinute },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "1-hour buckets"), kHour },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "6-hour buckets"), 6 * kHour },
    { QT_TRANSLATE_NOOP("bullpen::LatencyView", "1-day buckets"), 24 * kHour },
};
constexpr int kMaxBuckets = 2000;

struct Loaded
{
    LatencyStats stats;
    LatencyStats compared; // another provider in the same role and stage, when one is chosen
    qint64 skipped = 0; // storyboard primary: generations that skipped it (breaker open, drained)
    double elapsedMs = 0;
    QString error;
};

// A bin by its upper edge in seconds ("0.25", "0.5" … "90+"): a range ("0.25–0.5") was cut to "0.2…" at
// the chart's usual width. The axis title says that each bar holds what is up to its label.
QString binLabel(std::size_t i)
{
    const auto &e = LatencyStats::histogramEdges();
    const QLocale l;
    if (i + 1 >= e.size())
        return l.toString(e[i] / 1000.0) + QLatin1Char('+');
    return l.toString(e[i + 1] / 1000.0);
}

// A bucket's first point: its index in the series (points are in time order), recorded in `pointOf`;
// the points of later buckets move up by one.
int claimPoint(std::vector<int> &pointOf, int bucket)
{
    int index = 0;
    for (int i = 0; i < bucket; ++i)
        index += pointOf[std::size_t(i)] >= 0 ? 1 : 0;
    for (std::size_t i = std::size_t(bucket) + 1; i < pointOf.size(); ++i)
        pointOf[i] += pointOf[i] >= 0 ? 1 : 0;
    pointOf[std::size_t(bucket)] = index;
    return index;
}

} // namespace

LatencyView::LatencyView(HistoryReader *history, HistoryQueue *queue, const ProviderTable &providers, QWidget *parent)
    : QWidget(parent)
    , m_history(history)
    , m_queue(queue)
{
    setObjectName(QStringLiteral("latencyView"));
    auto combo = [this](const char *name) {
        auto *c = new QComboBox;
        c->setObjectName(QLatin1StringView(name));
        connect(c, &QComboBox::activated, this, &LatencyView::reload);
        return c;
    };
    m_provider = combo("latencyProvider");
    m_compareWith = combo("latencyCompareWith");
    m_compareWith->addItem(tr("compare with…"), QString());
    setProviders(providers);
    m_compareWith->setToolTip(tr("Draw another provider's p50 and p90 (dashed) in the same role and stage"));
    m_role = combo("latencyRole");
    m_role->addItem(tr("as primary"), toId(Role::Primary));
    m_role->addItem(tr("as fallback"), toId(Role::Fallback));
    m_stage = combo("latencyStage");
    for (Stage s : { Stage::Storyboard, Stage::Captions, Stage::Image })
        m_stage->addItem(words::stage(s), toId(s));
    m_range = combo("latencyRange");
    for (const Choice &c : kRanges)
        m_range->addItem(tr(c.label), c.ms);
    m_range->setCurrentIndex(1);
    m_bucket = combo("latencyBucket");
    for (const Choice &c : kBuckets)
        m_bucket->addItem(tr(c.label), c.ms);
    m_bucket->setCurrentIndex(2);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_provider);
    controls->addWidget(m_role);
    controls->addWidget(m_stage);
    controls->addWidget(m_range);
    controls->addWidget(m_bucket);
    controls->addWidget(m_compareWith);
    controls->addStretch(1);
    m_updated = new QLabel(tr("not read yet"));
    m_updated->setObjectName(QStringLiteral("latencyUpdated"));
    m_refreshPause = new QToolButton;
    m_refreshPause->setObjectName(QStringLiteral("latencyPause"));
    m_refreshPause->setCheckable(true);
    m_refreshPause->setText(tr("Pause updates"));
    m_refreshPause->setToolTip(tr("Stop reading the store again (this console's own attempts are still added)"));
    connect(m_refreshPause, &QToolButton::toggled, this, &LatencyView::setRefreshPaused);
    controls->addWidget(m_updated);
    controls->addWidget(m_refreshPause);
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(30'000);
    // Off screen, the view does not read or redraw (rebuilding its charts took ~20 ms of the GUI
    // thread every 30 s under Generate ×200 while another view was open); it catches up as it is shown.
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (m_refreshPaused || m_loading)
            return;
        if (!isVisible())
            m_missedRefresh = true;
        else
            reload();
    });
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("latencySummary"));
    m_summary->setWordWrap(true);

    m_timeChart = charts::makeView(tr("Latency percentiles and success rate"));
    m_timeChart->chart()->legend()->setVisible(true);
    m_timeChart->chart()->legend()->setAlignment(Qt::AlignTop);
    m_histChart = charts::makeView(tr("Histogram of attempt durations"));
    m_histChart->chart()->legend()->setVisible(true);
    m_histChart->chart()->legend()->setAlignment(Qt::AlignTop);
    m_extraChart = charts::makeView(tr("Extra wait fallback added"));
    m_extraChart->chart()->legend()->setVisible(true);
    m_extraChart->chart()->legend()->setAlignment(Qt::AlignTop);

    auto *durations = new QWidget;
    auto *bottom = new QHBoxLayout(durations);
    bottom->setContentsMargins(0, 0, 0, 0);
    bottom->addWidget(m_histChart, 1);
    bottom->addWidget(m_extraChart, 1);
    // docs/contract.md §16 and §17: the range's spend and the tuner, each a panel of its own files.
    m_tune = new TunePanel(m_queue);
    m_spend = new SpendPanel(m_queue);
    auto *below = new QTabWidget;
    below->setObjectName(QStringLiteral("latencyBelow"));
    below->addTab(durations, tr("Durations"));
    below->addTab(m_tune, tr("Tune"));
    below->addTab(m_spend, tr("Spend"));
    // Tune and Spend take the percentile chart's room: at 1024×700 their curves need the height.
    connect(below, &QTabWidget::currentChanged, this, [this](int tab) { m_timeChart->setVisible(tab == 0); });
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_timeChart, 3);
    layout->addWidget(below, 2);

    if (!m_history) {
        m_summary->setText(tr("Latency history is off: Bullpen was started without a store (--no-store)."));
        setEnabled(false);
        return;
    }
    m_refreshTimer->start();
    reload();
}

void LatencyView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_missedRefresh, false) && !m_refreshPaused && !m_loading)
        reload();
}

void LatencyView::setRefreshInterval(int ms)
{
    m_refreshTimer->setInterval(ms);
}

void LatencyView::setProviders(const ProviderTable &providers)
{
    fillProviderPicker(m_provider, providers.all(), 0, [](Provider p) { return toId(p); });
    fillProviderPicker(m_compareWith, providers.all(), 1, [](Provider p) { return tr("compare with %1").arg(toId(p)); });
}

void LatencyView::setComparedProvider(const QString &provider)
{
    m_compareWith->setCurrentIndex(std::max(0, m_compareWith->findData(provider)));
}

int LatencyView::comparedPointCount() const
{
    return m_compared90 ? static_cast<int>(m_compared90->count()) : 0;
}

void LatencyView::setStoryboardTimeouts(double primaryMs, double fallbackMs)
{
    m_primaryTimeoutMs = primaryMs;
    m_fallbackTimeoutMs = fallbackMs;
}

void LatencyView::setRefreshPaused(bool paused)
{
    m_refreshPaused = paused;
    if (m_refreshPause->isChecked() != paused)
        m_refreshPause->setChecked(paused);
    m_refreshPause->setText(paused ? tr("Resume updates") : tr("Pause updates"));
    m_updated->setText(updatedText());
    if (!paused && !m_loading)
        reload();
}

QString LatencyView::updatedText() const
{
    return charts::updatedText(m_updatedAt, m_refreshPaused);
}

qint64 LatencyView::spanMs() const
{
    return m_range->currentData().toLongLong();
}

qint64 LatencyView::bucketMs() const
{
    // Never more than kMaxBuckets points: a finer bucket than the range allows is widened.
    return std::max(m_bucket->currentData().toLongLong(), (spanMs() + kMaxBuckets - 1) / kMaxBuckets);
}

void LatencyView::setSelection(const QString &provider, const QString &role, const QString &stage)
{
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(provider)));
    m_role->setCurrentIndex(std::max(0, m_role->findData(role)));
    m_stage->setCurrentIndex(std::max(0, m_stage->findData(stage)));
}

void LatencyView::setRange(qint64 span, qint64 bucket)
{
    if (const int i = m_range->findData(span); i >= 0)
        m_range->setCurrentIndex(i);
    if (const int i = m_bucket->findData(bucket); i >= 0)
        m_bucket->setCurrentIndex(i);
}

QList<LinkFilter> LatencyView::linkFilterTable() const
{
    return { { "provider", m_provider }, { "role", m_role },     { "stage", m_stage },
             { "range", m_range },       { "bucket", m_bucket }, { "compare", m_compareWith } };
}

QList<std::pair<QString, QString>> LatencyView::linkFilters() const
{
    return linkFilterValues(linkFilterTable());
}

bool LatencyView::openLinkFilters(const QList<std::pair<QString, QString>> &filters, QString *error)
{
    if (!applyLinkFilterValues(linkFilterTable(), filters, error))
        return false;
    reload();
    return true;
}

int LatencyView::pointCount() const
{
    return m_p50 ? static_cast<int>(m_p50->count()) : 0;
}

void LatencyView::reload()
{
    if (!m_history)
        return;
    const QString provider = m_provider->currentData().toString();
    const QString role = m_role->currentData().toString();
    const QString stage = m_stage->currentData().toString();
    // A provider is not compared with itself: its own entry is off, and a choice of it is undone.
    if (auto *items = qobject_cast<QStandardItemModel *>(m_compareWith->model())) {
        for (int i = 1; i < items->rowCount(); ++i)
            items->item(i)->setEnabled(items->item(i)->data(Qt::UserRole).toString() != provider);
    }
    if (m_compareWith->currentData().toString() == provider)
        m_compareWith->setCurrentIndex(0);
    const QString compared = m_compareWith->currentData().toString();
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    const qint64 bucket = bucketMs();
    qint64 from = to - spanMs();
    from -= from % bucket; // buckets on round times
    m_tune->setRange(to - spanMs(), to + 1);
    m_spend->setRange(to - spanMs(), to + 1);
    const quint64 sequence = ++m_sequence;
    m_loading = true;
    m_summary->setText(tr("Reading attempts from the store…"));
    m_queue->run<Loaded>(
        this,
        [provider, role, stage, compared, from, to, bucket](HistoryReader &store) {
            QElapsedTimer t;
            t.start();
            Loaded l;
            l.stats = LatencyStats(from, to, bucket);
            // The combo boxes hold ids of these enums only.
            const Stage stageValue = stageFromId(stage).value_or(Stage::Storyboard);
            l.stats.addCells(store.latencyHistogram(providerFromId(provider).value_or(Provider::Gemini),
                                                    roleFromId(role).value_or(Role::Primary), stageValue, from, to, bucket, &l.error));
            QList<FallbackWaitCell> cells = store.fallbackWaitHistogram(stageValue, from, to, bucket, &l.error);
            cells.removeIf([&](const FallbackWaitCell &c) {
                return !FallbackWaitTracker::concerns(FallbackWait { 0, c.primaryProvider, c.fallbackProvider, 0, 0, false }, provider,
                                                      role);
            });
            l.stats.setFallbackWaitCells(cells);
            // A skipped primary (docs/contract.md §13) has no attempt and added no wait, so the figures
            // above leave it out; say how many there were. The history row keeps the storyboard's
            // fallback reason, so this is counted for that stage.
            if (stageValue == Stage::Storyboard && role == u"primary") {
                for (const bool drained : { false, true }) {
                    HistoryFilter f;
                    f.fromMs = from;
                    f.toMs = to;
                    f.fallbackReason = skipReason(providerFromId(provider).value_or(Provider::Gemini), drained);
                    l.skipped += std::max<qint64>(0, store.count(f, &l.error));
                }
            }
            if (const auto other = providerFromId(compared); other && compared != provider) {
                l.compared = LatencyStats(from, to, bucket);
                l.compared.addCells(
                    store.latencyHistogram(*other, roleFromId(role).value_or(Role::Primary), stageValue, from, to, bucket, &l.error));
            }
            l.elapsedMs = double(t.nsecsElapsed()) / 1e6;
            return l;
        },
        [this, sequence](Loaded l) {
            if (sequence != m_sequence)
                return;
            m_loading = false;
            m_stats = std::move(l.stats);
            m_comparedStats = std::move(l.compared);
            m_skipped = l.skipped;
            m_lastLoadMs = l.elapsedMs;
            QElapsedTimer t;
            t.start();
            rebuildCharts();
            m_lastDrawMs = double(t.nsecsElapsed()) / 1e6;
            if (!l.error.isEmpty())
                m_summary->setText(tr("The history could not be read: %1").arg(l.error));
            else
                m_updatedAt = QDateTime::currentDateTime();
            m_updated->setText(updatedText());
            Q_EMIT loaded();
        });
}

bool LatencyView::timeoutLineOnScale() const
{
    return m_timeoutLine && m_timeoutLine->count() > 0;
}

// Attempt durations in bins, successes and failures stacked.
void LatencyView::rebuildHistogram()
{
    QChart *hist = charts::renew(m_histChart);
    m_histOk = new QBarSet(tr("succeeded"));
    m_histOk->setColor(tones::color(tones::Tone::Success));
    m_histFail = new QBarSet(tr("failed"));
    m_histFail->setColor(tones::color(tones::Tone::Failure));
    QStringList labels;
    qint64 maxBin = 1;
    for (std::size_t i = 0; i < LatencyStats::histogramEdges().size(); ++i) {
        *m_histOk << double(m_stats.histogramSuccess()[i]);
        *m_histFail << double(m_stats.histogramFailure()[i]);
        labels << binLabel(i);
        maxBin = std::max(maxBin, m_stats.histogramSuccess()[i] + m_stats.histogramFailure()[i]);
    }
    auto *bars = new QStackedBarSeries;
    bars->append(m_histOk);
    bars->append(m_histFail);
    hist->addSeries(bars);
    auto *hx = new QBarCategoryAxis;
    hx->append(labels);
    QFont small = hx->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    hx->setLabelsFont(small);
    hx->setLabelsAngle(-45);
    hx->setTitleText(tr("attempt duration, s (each bar: up to its label)"));
    auto *hy = new QValueAxis;
    hy->setRange(0, double(maxBin) * 1.1);
    hy->setLabelFormat(QStringLiteral("%d"));
    hy->applyNiceNumbers();
    hist->addAxis(hx, Qt::AlignBottom);
    hist->addAxis(hy, Qt::AlignLeft);
    bars->attachAxis(hx);
    bars->attachAxis(hy);
}

void LatencyView::rebuildCharts()
{
    ++m_fullRedraws;
    const QDateTimeAxis *x = rebuildTimeChart();
    rebuildHistogram();
    rebuildExtraChart(x->format(), x->min(), x->max());
    updateSummary();
}

// Percentiles and success rate over time, with the configured timeout and a compared provider; its time axis.
QDateTimeAxis *LatencyView::rebuildTimeChart()
{
    const auto &buckets = m_stats.buckets();
    QChart *chart = charts::renew(m_timeChart);
    m_p50 = new QLineSeries;
    m_p50->setName(QStringLiteral("p50"));
    m_p90 = new QLineSeries;
    m_p90->setName(QStringLiteral("p90"));
    m_p99 = new QLineSeries;
    m_p99->setName(QStringLiteral("p99"));
    m_success = new QLineSeries;
    m_success->setName(tr("success rate"));
    // One meaning per colour across the latency charts: p50, p90 and p99 in their own three colours
    // (the extra-wait chart uses the same), green for success, red for failure.
    m_p50->setColor(tones::color(tones::Tone::Accent));
    m_p90->setColor(tones::color(tones::Tone::Warning));
    m_p99->setColor(tones::color(tones::Tone::Simulator));
    QPen dashed(tones::color(tones::Tone::Success));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.5);
    m_success->setPen(dashed);
    m_pointOf.assign(buckets.size(), -1);
    QList<QPointF> p50, p90, p99, ok;
    const bool storyboard = m_stage->currentData().toString() == toId(Stage::Storyboard); // the timeouts known here
    const double timeoutMs = !storyboard                           ? 0.0
        : m_role->currentData().toString() == toId(Role::Fallback) ? m_fallbackTimeoutMs
                                                                   : m_primaryTimeoutMs;
    double maxMs = 1.0;
    for (const LatencyBucket &b : buckets) {
        if (!b.isEmpty())
            maxMs = std::max(maxMs, b.percentile(99));
    }
    for (const LatencyBucket &b : m_comparedStats.buckets()) {
        if (!b.isEmpty())
            maxMs = std::max(maxMs, b.percentile(90));
    }
    // The timeout is on the scale only when the values come near it: a 60 s line over 3 s values would
    // lay them flat. Far above them it is named in the legend instead.
    const bool timeoutOnScale = timeoutMs > 0 && timeoutMs <= maxMs * 1.5;
    if (timeoutOnScale)
        maxMs = std::max(maxMs, timeoutMs);
    // Seconds once values reach 10 s: "60" reads where "60000" does not.
    m_unitMs = maxMs >= 10'000 ? 1000.0 : 1.0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        const LatencyBucket &b = buckets[i];
        if (b.isEmpty())
            continue;
        m_pointOf[i] = static_cast<int>(p50.size());
        const double x = double(b.startMs);
        p50 << QPointF(x, b.percentile(50) / m_unitMs);
        p90 << QPointF(x, b.percentile(90) / m_unitMs);
        p99 << QPointF(x, b.percentile(99) / m_unitMs);
        ok << QPointF(x, 100.0 * b.successRate());
    }
    m_p50->replace(p50);
    m_p90->replace(p90);
    m_p99->replace(p99);
    m_success->replace(ok);
    m_timeoutLine = nullptr;
    if (timeoutMs > 0)
        addTimeoutLine(chart, timeoutMs, timeoutOnScale);
    // A line needs two points: with few, each point is drawn as well (all in one bucket drew nothing).
    // Drawn largest first, so that where p50, p90 and p99 are equal (one attempt) each still shows.
    for (auto [s, marker] :
         { std::pair { m_p99, 6.0 }, std::pair { m_p90, 9.0 }, std::pair { m_p50, 12.0 }, std::pair { m_success, 6.0 } }) {
        s->setPointsVisible(p50.size() <= 3);
        s->setMarkerSize(marker);
    }
    for (QLineSeries *s : { m_p50, m_p90, m_p99, m_success })
        chart->addSeries(s);
    addComparedSeries(chart);
    auto *x = new QDateTimeAxis;
    x->setFormat(m_stats.toMs() - m_stats.fromMs() > 2 * 24 * kHour ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(m_stats.fromMs()), QDateTime::fromMSecsSinceEpoch(m_stats.toMs()));
    x->setTickCount(7);
    auto *y = new QValueAxis;
    y->setTitleText(m_unitMs > 1 ? tr("s") : tr("ms"));
    y->setRange(0, maxMs * 1.1 / m_unitMs);
    y->setLabelFormat(m_unitMs > 1 && maxMs < 100'000 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    y->applyNiceNumbers();
    auto *rate = new QValueAxis;
    rate->setTitleText(tr("success %"));
    rate->setRange(0, 100);
    rate->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(rate, Qt::AlignRight);
    for (QLineSeries *s : { m_p50, m_p90, m_p99, m_timeoutLine, m_compared50, m_compared90 }) {
        if (!s)
            continue;
        s->attachAxis(x);
        s->attachAxis(y);
    }
    m_success->attachAxis(x);
    m_success->attachAxis(rate);
    return x;
}

// The configured timeout as a line: where a percentile meets it, attempts are being cut off. Added
// first, so that a percentile on it is drawn over it, not hidden; far above the values, named only.
void LatencyView::addTimeoutLine(QChart *chart, double timeoutMs, bool onScale)
{
    m_timeoutLine = new QLineSeries;
    m_timeoutLine->setName(onScale ? tr("timeout %1").arg(units::duration(timeoutMs))
                                   : tr("timeout %1 (far above these values)").arg(units::duration(timeoutMs)));
    QPen pen(tones::color(tones::Tone::Failure));
    pen.setStyle(Qt::DotLine);
    pen.setWidthF(1.5);
    m_timeoutLine->setPen(pen);
    if (onScale) {
        m_timeoutLine->append(double(m_stats.fromMs()), timeoutMs / m_unitMs);
        m_timeoutLine->append(double(m_stats.toMs()), timeoutMs / m_unitMs);
    }
    chart->addSeries(m_timeoutLine);
}

void LatencyView::addComparedSeries(QChart *chart)
{
    // Another provider beside it: its p50 and p90 dashed, in colours of their own (the solid p50 and
    // p90 keep theirs, so a colour never means two series).
    m_compared50 = m_compared90 = nullptr;
    if (m_comparedStats.buckets().empty())
        return;
    const QString other = m_compareWith->currentData().toString();
    m_compared50 = new QLineSeries;
    m_compared50->setName(QStringLiteral("%1 p50").arg(other));
    m_compared90 = new QLineSeries;
    m_compared90->setName(QStringLiteral("%1 p90").arg(other));
    for (auto [series, tone] : { std::pair { m_compared50, tones::Tone::Own }, std::pair { m_compared90, tones::Tone::Fallback } }) {
        QPen pen(tones::color(tone));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        series->setPen(pen);
    }
    for (const LatencyBucket &b : m_comparedStats.buckets()) {
        if (b.isEmpty())
            continue;
        m_compared50->append(double(b.startMs), b.percentile(50) / m_unitMs);
        m_compared90->append(double(b.startMs), b.percentile(90) / m_unitMs);
    }
    chart->addSeries(m_compared50);
    chart->addSeries(m_compared90);
}

// Extra wait per bucket, on the time chart's axis.
void LatencyView::rebuildExtraChart(const QString &format, const QDateTime &from, const QDateTime &to)
{
    const auto &buckets = m_stats.buckets();
    QChart *extra = charts::renew(m_extraChart);
    m_extra50 = new QLineSeries;
    m_extra50->setName(tr("extra wait p50"));
    m_extra50->setColor(tones::color(tones::Tone::Accent));
    m_extra90 = new QLineSeries;
    m_extra90->setName(tr("extra wait p90"));
    m_extra90->setColor(tones::color(tones::Tone::Warning));
    m_extra99 = new QLineSeries; // the summary line quotes p99: so does the chart
    m_extra99->setName(tr("extra wait p99"));
    m_extra99->setColor(tones::color(tones::Tone::Simulator));
    m_extraPointOf.assign(buckets.size(), -1);
    QList<QPointF> e50, e90, e99;
    double maxExtra = 1, minExtra = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        if (m_stats.extraWaitCount(int(i)) == 0)
            continue;
        m_extraPointOf[i] = static_cast<int>(e50.size());
        const double x0 = double(m_stats.fromMs() + qint64(i) * m_stats.bucketMs());
        e50 << QPointF(x0, m_stats.extraWaitPercentile(int(i), 50) / 1000.0);
        e90 << QPointF(x0, m_stats.extraWaitPercentile(int(i), 90) / 1000.0);
        e99 << QPointF(x0, m_stats.extraWaitPercentile(int(i), 99) / 1000.0);
        maxExtra = std::max(maxExtra, e99.last().y());
        minExtra = std::min(minExtra, e50.last().y());
    }
    m_extra50->replace(e50);
    m_extra90->replace(e90);
    m_extra99->replace(e99);
    // An empty chart says why, instead of leaving an operator to wonder whether it failed to load.
    extra->setTitle(e50.isEmpty() ? tr("No extra wait to draw: no generation in this range was answered by its fallback") : QString());
    for (QLineSeries *s : { m_extra50, m_extra90, m_extra99 })
        s->setPointsVisible(e50.size() <= 3);
    extra->addSeries(m_extra50);
    extra->addSeries(m_extra90);
    extra->addSeries(m_extra99);
    auto *ex = new QDateTimeAxis;
    ex->setFormat(format);
    ex->setRange(from, to);
    ex->setTickCount(4);
    auto *ey = new QValueAxis;
    ey->setTitleText(tr("s"));
    ey->setRange(minExtra * 1.1, maxExtra * 1.1);
    ey->applyNiceNumbers();
    extra->addAxis(ex, Qt::AlignBottom);
    extra->addAxis(ey, Qt::AlignLeft);
    for (QLineSeries *s : { m_extra50, m_extra90, m_extra99 }) {
        s->attachAxis(ex);
        s->attachAxis(ey);
    }
}

void LatencyView::updateSummary()
{
    const QString provider = m_provider->currentText();
    QString text =
        tr("%1 %2, %3 stage: attempts %L4, success %5 %, p50 %6 · p90 %7 · p99 %8.")
            .arg(provider, m_role->currentText(), m_stage->currentText())
            .arg(m_stats.total())
            .arg(m_stats.total() ? QLocale().toString(100.0 * double(m_stats.successes()) / double(m_stats.total()), 'f', 1)
                                 : QStringLiteral("–"))
            .arg(units::duration(m_stats.percentile(50)), units::duration(m_stats.percentile(90)), units::duration(m_stats.percentile(99)));
    if (m_stats.extraWaitCount() > 0)
        text += QLatin1Char(' ')
            + tr("Fallback added an extra wait of p50 %1 · p90 %2 · p99 %3 over the stages the fallback answered (%L4; primary's time + "
                 "fallback's time − "
                 "the primary's success median %5).")
                  .arg(units::duration(m_stats.extraWaitPercentile(50)), units::duration(m_stats.extraWaitPercentile(90)),
                       units::duration(m_stats.extraWaitPercentile(99)))
                  .arg(m_stats.extraWaitCount())
                  .arg(units::duration(m_stats.successMedian()));
    else
        text += QLatin1Char(' ') + tr("No stage the fallback answered in this range.");
    if (m_skipped > 0)
        text += QLatin1Char(' ')
            + tr("Generations that skipped this primary (breaker open or drained): %L1. They waited for nothing and are not in the extra "
                 "wait.")
                  .arg(m_skipped);
    m_summary->setToolTip(tr("Percentiles are read from log-spaced duration bins and are within %1 % of the exact values.")
                              .arg(QLocale().toString(100.0 * DurationHistogram::relativeError(), 'f', 1)));
    m_summary->setText(text);
}

void LatencyView::updateBucket(int bucket)
{
    const auto &buckets = m_stats.buckets();
    if (bucket < 0 || bucket >= static_cast<int>(buckets.size()) || !m_p50)
        return;
    if (static_cast<int>(m_pointOf.size()) < static_cast<int>(buckets.size()))
        m_pointOf.resize(buckets.size(), -1);
    const LatencyBucket &b = buckets[std::size_t(bucket)];
    const double x = double(b.startMs);
    const QPointF pts[] = { { x, b.percentile(50) / m_unitMs },
                            { x, b.percentile(90) / m_unitMs },
                            { x, b.percentile(99) / m_unitMs },
                            { x, 100.0 * b.successRate() } };
    QLineSeries *series[] = { m_p50, m_p90, m_p99, m_success };
    int &at = m_pointOf[std::size_t(bucket)];
    if (at >= 0) {
        for (int i = 0; i < 4; ++i)
            series[i]->replace(at, pts[i]);
    } else {
        const int index = claimPoint(m_pointOf, bucket);
        for (int i = 0; i < 4; ++i)
            series[i]->insert(index, pts[i]);
    }
    // Keep the axes around what is drawn.
    const auto axes = m_timeChart->chart()->axes(Qt::Vertical, m_p50);
    if (!axes.isEmpty()) {
        auto *y = static_cast<QValueAxis *>(axes.first());
        if (pts[2].y() * 1.1 > y->max())
            y->setMax(pts[2].y() * 1.1);
    }
    const auto xs = m_timeChart->chart()->axes(Qt::Horizontal, m_p50);
    if (!xs.isEmpty()) {
        auto *xa = static_cast<QDateTimeAxis *>(xs.first());
        if (xa->max().toMSecsSinceEpoch() < m_stats.toMs())
            xa->setMax(QDateTime::fromMSecsSinceEpoch(m_stats.toMs()));
    }
}

void LatencyView::updateHistogram(int bin)
{
    if (!m_histOk || bin < 0)
        return;
    m_histOk->replace(bin, double(m_stats.histogramSuccess()[std::size_t(bin)]));
    m_histFail->replace(bin, double(m_stats.histogramFailure()[std::size_t(bin)]));
}

void LatencyView::addEvents(const QList<Event> &batch)
{
    if (!m_history || m_loading || !m_p50)
        return; // the load under way will include these from the store
    const QString provider = m_provider->currentData().toString();
    const QString role = m_role->currentData().toString();
    const QString stage = m_stage->currentData().toString();
    bool changed = false;
    for (const Event &e : batch) {
        const auto *a = std::get_if<AttemptCompleted>(&e.body);
        if (!a)
            continue;
        const double ms = double(a->duration.count()) / 1000.0;
        m_waits.setStage(stageFromId(stage).value_or(Stage::Storyboard));
        if (const auto w = m_waits.add(e); w && FallbackWaitTracker::concerns(*w, provider, role))
            updateExtraWait(m_stats.addFallbackWait(*w));
        if (toId(a->provider) != provider || toId(a->role) != role || toId(a->stage) != stage)
            continue;
        LatencySample s;
        s.atMs = e.wallTime.isValid() ? e.wallTime.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        s.durationMs = ms;
        s.success = a->success;
        const int bucket = m_stats.add(s);
        if (bucket < 0)
            continue;
        updateBucket(bucket);
        updateHistogram(LatencyStats::histogramBin(ms));
        changed = true;
        Q_EMIT liveUpdated(bucket);
    }
    if (changed && !m_summaryPending) {
        // The summary is rebuilt at most twice a second.
        m_summaryPending = true;
        QTimer::singleShot(500, this, [this] {
            m_summaryPending = false;
            updateSummary();
        });
    }
}

void LatencyView::updateExtraWait(int b)
{
    if (b < 0 || !m_extra50)
        return;
    const double x0 = double(m_stats.fromMs() + qint64(b) * m_stats.bucketMs());
    const QPointF p50(x0, m_stats.extraWaitPercentile(b, 50) / 1000.0);
    const QPointF p90(x0, m_stats.extraWaitPercentile(b, 90) / 1000.0);
    const QPointF p99(x0, m_stats.extraWaitPercentile(b, 99) / 1000.0);
    if (static_cast<int>(m_extraPointOf.size()) <= b)
        m_extraPointOf.resize(std::size_t(b) + 1, -1);
    int &at = m_extraPointOf[std::size_t(b)];
    if (at >= 0) {
        m_extra50->replace(at, p50);
        m_extra90->replace(at, p90);
        m_extra99->replace(at, p99);
        return;
    }
    const int index = claimPoint(m_extraPointOf, b);
    m_extra50->insert(index, p50);
    m_extra90->insert(index, p90);
    m_extra99->insert(index, p99);
}

void LatencyView::setAnnotations(AnnotationModel *model)
{
    new AnnotationOverlay(m_timeChart, model); // a child of the chart's viewport
}

} // namespace bullpen
