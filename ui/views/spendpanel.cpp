// SPDX-License-Identifier: MIT
#include "spendpanel.h"

#include "charts.h"
#include "cost/generationcost.h"
#include "history/historyreader.h"
#include "models/historyqueue.h"
#include "models/spendmodel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QStackedBarSeries>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <map>

namespace bullpen {

namespace {

struct Loaded
{
    std::optional<Spend> whole;
    QList<Spend> slices;
    QString error;
};

// The slices in one read (the store reads whole hours from its hourly spend); the range's rows are their sum.
Loaded read(HistoryReader &history, qint64 from, qint64 to)
{
    Loaded l;
    std::optional<QList<Spend>> slices = history.spendSlices(from, to, SpendPanel::kSlices, &l.error);
    if (!slices)
        return l;
    l.slices = *slices;
    l.whole = Spend::merged(from, to, l.slices);
    return l;
}

} // namespace

SpendPanel::SpendPanel(HistoryQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_model(new SpendModel(this))
{
    setObjectName(QStringLiteral("spendPanel"));
    m_chart = charts::makeView(tr("Spend per provider over time"));
    m_chart->setObjectName(QStringLiteral("spendChart"));
    m_chart->chart()->legend()->setVisible(true);
    m_chart->chart()->legend()->setAlignment(Qt::AlignTop);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("spendTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_totals = new QLabel(tr("not read yet"));
    m_totals->setObjectName(QStringLiteral("spendTotals"));
    m_totals->setWordWrap(true);
    auto *row = new QHBoxLayout;
    row->addWidget(m_chart, 3);
    row->addWidget(m_table, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row, 1);
    layout->addWidget(m_totals);
}

void SpendPanel::setRange(qint64 fromMs, qint64 toMs)
{
    m_fromMs = fromMs;
    m_toMs = toMs;
    m_stale = true;
    if (isVisible())
        reload();
}

void SpendPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        reload();
}

void SpendPanel::reload()
{
    if (!m_queue || m_loading || m_toMs <= m_fromMs)
        return;
    m_loading = true;
    m_stale = false;
    const qint64 from = m_fromMs, to = m_toMs;
    m_queue->run<Loaded>(
        this, [from, to](HistoryReader &history) { return read(history, from, to); },
        [this](Loaded l) {
            m_loading = false;
            if (!l.whole) {
                m_totals->setText(tr("Spend could not be read: %1").arg(l.error));
            } else {
                m_model->setSpend(*l.whole);
                m_slices = l.slices;
                m_totals->setText(totalsText());
            }
            draw();
            Q_EMIT loaded();
            if (m_stale)
                reload();
        });
}

QString SpendPanel::totalsText() const
{
    const Spend &s = m_model->spend();
    QString text =
        tr("Spent in the range: %1. Added by fallbacks: %2.").arg(GenerationCost::text(s.totals()), GenerationCost::text(s.totals(true)));
    if (s.unknownAttempts() > 0)
        text +=
            QLatin1Char(' ') + tr("Attempts of unknown cost (no tokens reported, or no price), not counted: %1").arg(s.unknownAttempts());
    return text;
}

void SpendPanel::draw()
{
    QChart *chart = charts::renew(m_chart);
    if (m_slices.isEmpty())
        return;
    // One bar set per provider, in the range's main currency (the first of its totals).
    const auto totals = m_model->spend().totals();
    const QString currency = totals.isEmpty() ? QString() : totals.first().first;
    std::map<QString, QList<qreal>> byProvider;
    for (const SpendRow &r : m_model->spend().rows)
        byProvider[r.provider].resize(m_slices.size());
    QStringList categories;
    const bool days = m_toMs - m_fromMs > 2LL * 24 * 3'600'000;
    double maxSum = 0;
    for (qsizetype i = 0; i < m_slices.size(); ++i) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(m_slices[i].fromMs);
        categories << QLocale().toString(at, days ? QStringLiteral("MM-dd hh:mm") : QStringLiteral("hh:mm"));
        double sum = 0;
        for (const SpendRow &r : m_slices[i].rows) {
            if (r.currency != currency || r.currency.isEmpty())
                continue;
            byProvider[r.provider][i] += r.cost;
            sum += r.cost;
        }
        maxSum = std::max(maxSum, sum);
    }
    auto *bars = new QStackedBarSeries;
    for (const auto &[provider, values] : byProvider) {
        auto *set = new QBarSet(provider);
        set->append(values);
        bars->append(set);
    }
    chart->addSeries(bars);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    x->setLabelsAngle(-90);
    auto *y = new QValueAxis;
    y->setTitleText(currency);
    y->setRange(0, maxSum > 0 ? maxSum * 1.1 : 1.0);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
}

} // namespace bullpen
