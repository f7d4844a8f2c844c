// SPDX-License-Identifier: MIT
#include "tunepanel.h"

#include "charts.h"
#include "cost/spend.h"
#include "history/historyreader.h"
#include "models/historyqueue.h"
#include "models/units.h"
#include "tones.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace bullpen {

using std::chrono::milliseconds;
using namespace std::chrono_literals;

namespace {

struct Loaded
{
    std::optional<TuneReport> report;
    QStringList currencies;
    QString error;
};

// The top of an axis: the largest value with a little room, never 0.
double top(double max)
{
    return max > 0 ? max * 1.1 : 1.0;
}

} // namespace

QList<milliseconds> TunePanel::candidateTimeouts()
{
    return defaultTuneTimeouts();
}

TunePanel::TunePanel(HistoryQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
{
    setObjectName(QStringLiteral("tunePanel"));
    m_chart = charts::makeView(tr("Predicted by primary timeout: p95, fallback rate, cost"));
    m_chart->setObjectName(QStringLiteral("tuneChart"));
    m_chart->chart()->legend()->setVisible(true);
    m_chart->chart()->legend()->setAlignment(Qt::AlignTop);
    m_status = new QLabel(tr("not read yet"));
    m_status->setObjectName(QStringLiteral("tuneStatus"));
    m_status->setWordWrap(true);
    m_candidate = new QComboBox;
    m_candidate->setObjectName(QStringLiteral("tuneCandidate"));
    m_candidate->setToolTip(tr("A primary timeout and what the recorded attempts predict under it"));
    connect(m_candidate, &QComboBox::currentIndexChanged, this, &TunePanel::describeChoice);
    m_apply = new QPushButton(tr("Apply"));
    m_apply->setObjectName(QStringLiteral("tuneApply"));
    m_apply->setToolTip(tr("Save the chosen primary timeout to the settings file (as the Settings view does)"));
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (const auto c = chosen())
            Q_EMIT applyRequested(*c);
    });
    m_line = new QLineEdit;
    m_line->setObjectName(QStringLiteral("tuneSettingsLine"));
    m_line->setReadOnly(true);
    m_lineHint = new QLabel(tr("Settings line for the engine's file:"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_candidate, 2);
    row->addWidget(m_apply);
    row->addWidget(m_lineHint);
    row->addWidget(m_line, 2);
    m_alternatives = new QLabel;
    m_alternatives->setObjectName(QStringLiteral("tuneAlternatives"));
    m_alternatives->setWordWrap(true);
    m_alternatives->setToolTip(
        tr("Today's timeouts with the breaker replayed on and off, in the order the generations started, and under the other preset. "
           "Unobserved: predictions that call a primary the record skipped (stood in by the nearest earlier recorded one) or "
           "assume a capacity marker the record does not keep."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chart, 1);
    layout->addLayout(row);
    layout->addWidget(m_alternatives);
    layout->addWidget(m_status);
    setEmbedded(true);
}

void TunePanel::setToday(milliseconds primary, milliseconds fallback, const QString &preset, const BreakerSettings &breaker)
{
    m_primary = primary;
    m_fallback = fallback;
    m_preset = preset;
    m_breaker = breaker;
    m_stale = true;
}

QString TunePanel::alternativeText(const TunePrediction &p)
{
    const QString breaker = p.candidate.breaker == TuneBreaker::On ? tr("breaker on") : tr("breaker off");
    return tr("%1, %2: p50 %3 · p95 %4 · fallback %5 % · success %6 % · cost %7 · unobserved %8%9")
        .arg(p.candidate.preset, breaker, units::duration(p.p50Ms), units::duration(p.p95Ms))
        .arg(100.0 * p.fallbackRate, 0, 'f', 1)
        .arg(100.0 * p.successRate, 0, 'f', 1)
        .arg(QLocale().toString(p.cost, 'f', 2))
        .arg(p.unobserved)
        .arg(p.candidate.today ? tr(" (today)") : QString());
}

void TunePanel::drawAlternatives()
{
    QStringList lines;
    if (m_report && m_report->generations > 0) {
        for (const TunePrediction &p : m_report->alternatives)
            lines << alternativeText(p);
    }
    m_alternatives->setText(lines.join(QLatin1Char('\n')));
}

void TunePanel::setRange(qint64 fromMs, qint64 toMs)
{
    m_fromMs = fromMs;
    m_toMs = toMs;
    m_stale = true;
    if (isVisible())
        reload();
}

void TunePanel::setEmbedded(bool embedded)
{
    m_embedded = embedded;
    m_apply->setVisible(embedded);
    m_line->setVisible(!embedded);
    m_lineHint->setVisible(!embedded);
    describeChoice();
}

QString TunePanel::settingsLine(milliseconds primary)
{
    const QString value = units::field(primary).remove(QLatin1Char(' '));
    return QStringLiteral("\"storyboard\": {\"primary_timeout\": \"%1\"}   STORYBOARD_PRIMARY_TIMEOUT=%1").arg(value);
}

QString TunePanel::costAxisTitle(const QStringList &currencies)
{
    if (currencies.isEmpty())
        return tr("cost (no priced attempts)");
    if (currencies.size() == 1)
        return tr("cost (%1)").arg(currencies.constFirst());
    return tr("cost (%1 added up, not converted)").arg(currencies.join(QStringLiteral(" + ")));
}

QString TunePanel::costToolTip(const QStringList &currencies)
{
    if (currencies.isEmpty())
        return tr("Cost: no attempt in this range has a known cost (no tokens reported, or no price).");
    if (currencies.size() == 1)
        return tr("Cost in %1: what the replayed attempts' recorded costs add up to, at the providers' prices.")
            .arg(currencies.constFirst());
    return tr("Cost: the recorded costs are in %1 and are added up as they are, not converted; compare candidates with "
              "each other, not with a budget. Give every provider's price in one currency to read it as money.")
        .arg(currencies.join(QStringLiteral(", ")));
}

void TunePanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        reload();
}

void TunePanel::reload()
{
    if (!m_queue || m_loading || m_toMs <= m_fromMs)
        return;
    m_loading = true;
    m_stale = false;
    m_status->setText(tr("Replaying the recorded attempts…"));
    TuneCandidate today { m_primary, m_fallback, true };
    today.preset = m_preset;
    today.breakerSettings = m_breaker;
    const QList<TuneCandidate> candidates = tuneCandidates(candidateTimeouts(), {}, today);
    const qint64 from = m_fromMs, to = m_toMs;
    m_queue->run<Loaded>(
        this,
        [from, to, candidates, today](HistoryReader &history) {
            Loaded l;
            l.report = history.tune(Stage::Storyboard, from, to, candidates, today, &l.error);
            // The tuner sums costs as numbers; the same range's spend says in which currencies they are.
            if (const std::optional<Spend> spend = l.report ? history.spend(from, to) : std::nullopt)
                l.currencies = spend->currencies(Stage::Storyboard);
            return l;
        },
        [this](Loaded l) {
            m_loading = false;
            m_report = std::move(l.report);
            m_currencies = l.currencies;
            if (!m_report)
                m_status->setText(tr("The tuner could not read the history: %1").arg(l.error));
            draw();
            Q_EMIT loaded();
            if (m_stale)
                reload(); // the range moved while this read ran
        });
}

void TunePanel::draw()
{
    QChart *chart = charts::renew(m_chart);
    const milliseconds keep = chosen().value_or(m_primary);
    const QSignalBlocker quiet(m_candidate);
    m_candidate->clear();
    drawAlternatives();
    if (!m_report || m_report->predictions.isEmpty() || m_report->generations == 0) {
        if (m_report)
            m_status->setText(tr("No storyboard generations in this range: nothing to replay."));
        describeChoice();
        return;
    }
    auto *p95 = new QLineSeries;
    p95->setName(tr("p95 latency (s)"));
    auto *fallback = new QLineSeries;
    fallback->setName(tr("fallback rate (%)"));
    auto *cost = new QLineSeries;
    cost->setName(costAxisTitle(m_currencies));
    auto *today = new QScatterSeries;
    today->setObjectName(QStringLiteral("tuneToday"));
    today->setName(tr("today: %1").arg(units::duration(m_primary)));
    today->setMarkerSize(11);
    today->setColor(tones::color(tones::Tone::Own));
    double maxX = 0, maxP95 = 0, maxCost = 0;
    for (const TunePrediction &p : m_report->predictions) {
        const double x = double(p.candidate.primaryTimeout.count()) / 1000.0;
        p95->append(x, p.p95Ms / 1000.0);
        fallback->append(x, 100.0 * p.fallbackRate);
        cost->append(x, p.cost);
        if (p.candidate.today)
            today->append(x, p.p95Ms / 1000.0);
        maxX = std::max(maxX, x);
        maxP95 = std::max(maxP95, p.p95Ms / 1000.0);
        maxCost = std::max(maxCost, p.cost);
        m_candidate->addItem(tr("%1: p95 %2 · fallback %3 % · success %4 % · cost %5 %6 · censored %7")
                                 .arg(units::duration(p.candidate.primaryTimeout), units::duration(p.p95Ms))
                                 .arg(100.0 * p.fallbackRate, 0, 'f', 1)
                                 .arg(100.0 * p.successRate, 0, 'f', 1)
                                 .arg(QLocale().toString(p.cost, 'f', 2), m_currencies.join(QStringLiteral(" + ")))
                                 .arg(p.censored),
                             QVariant::fromValue<qint64>(p.candidate.primaryTimeout.count()));
    }
    auto *x = new QValueAxis;
    x->setTitleText(tr("primary timeout (s)"));
    x->setRange(0, maxX);
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("p95 (s)"));
    y->setRange(0, top(maxP95));
    auto *rate = new QValueAxis;
    rate->setTitleText(tr("fallback %"));
    rate->setRange(0, 100);
    auto *money = new QValueAxis;
    money->setTitleText(costAxisTitle(m_currencies));
    m_chart->setToolTip(costToolTip(m_currencies));
    money->setRange(0, top(maxCost));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(rate, Qt::AlignRight);
    chart->addAxis(money, Qt::AlignRight);
    const std::pair<QXYSeries *, QValueAxis *> drawn[] = { { p95, y }, { today, y }, { fallback, rate }, { cost, money } };
    for (const auto &[series, axis] : drawn) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(axis);
    }
    const TunePrediction &r = m_report->recorded;
    m_status->setText(tr("%1 generations replayed (%2 – %3). Recorded: p95 %4, fallback %5 %. Censored: predictions that wait "
                         "longer than a recorded timeout rest on answers that took longer; their count is named.")
                          .arg(m_report->generations)
                          .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_report->fromMs), QLocale::ShortFormat),
                               QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_report->toMs), QLocale::ShortFormat),
                               units::duration(r.p95Ms))
                          .arg(100.0 * r.fallbackRate, 0, 'f', 1));
    choose(keep);
}

std::optional<milliseconds> TunePanel::chosen() const
{
    if (m_candidate->currentIndex() < 0)
        return std::nullopt;
    return milliseconds(m_candidate->currentData().toLongLong());
}

void TunePanel::choose(milliseconds primary)
{
    const int i = m_candidate->findData(QVariant::fromValue<qint64>(primary.count()));
    if (i >= 0)
        m_candidate->setCurrentIndex(i);
    describeChoice();
}

void TunePanel::describeChoice()
{
    const std::optional<milliseconds> c = chosen();
    m_apply->setEnabled(c && *c != m_primary);
    m_apply->setText(c ? tr("Apply %1").arg(units::duration(*c)) : tr("Apply"));
    m_line->setText(c ? settingsLine(*c) : QString());
}

void TunePanel::showApplied(bool ok, const QString &status)
{
    m_status->setText(status);
    m_status->setStyleSheet(tones::textStyle(ok ? tones::Tone::Success : tones::Tone::Failure, false));
}

} // namespace bullpen
