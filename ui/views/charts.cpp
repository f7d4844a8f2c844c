// SPDX-License-Identifier: MIT
#include "charts.h"

#include "tones.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QHorizontalBarSeries>
#include <QLocale>
#include <QValueAxis>

#include <cmath>

namespace bullpen::charts {

QChartView *makeView(const QString &title, QWidget *parent)
{
    auto *chart = new QChart;
    applyTheme(chart);
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    chart->legend()->setVisible(false);
    QFont f = chart->titleFont();
    f.setBold(true);
    chart->setTitleFont(f);
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(120);
    view->setProperty("bullpen.title", title); // renew() keeps it
    return view;
}

QChart *renew(QChartView *view)
{
    QChart *old = view->chart();
    auto *chart = new QChart;
    applyTheme(chart);
    // Its own title (makeView's), not the last one shown: an empty chart's title says why it is empty.
    const QVariant own = view->property("bullpen.title");
    chart->setTitle(own.isValid() ? own.toString() : old->title());
    chart->setTitleFont(old->titleFont());
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(old->margins());
    chart->setBackgroundRoundness(0);
    chart->legend()->setVisible(old->legend()->isVisible());
    chart->legend()->setAlignment(old->legend()->alignment());
    view->setChart(chart); // the view no longer owns the old chart
    // Not deleted here: a refresh may come while the old chart is in use (its bar emitting clicked(),
    // its hover or tooltip on the way); it goes once the event loop is back.
    old->deleteLater();
    return chart;
}

void applyTheme(QChart *chart)
{
    const QFont title = chart->titleFont();
    chart->setTheme(tones::isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitleFont(title); // a theme resets fonts
    chart->setBackgroundRoundness(0);
}

void setBars(QChartView *view, const QList<std::pair<QString, qint64>> &counts, const QColor &color, const QString &emptyText,
             std::function<void(const QString &label)> clicked)
{
    QChart *chart = renew(view);
    chart->setToolTip(counts.isEmpty() ? emptyText : QString());
    if (counts.isEmpty()) { // said in the chart, not only in a tooltip
        chart->setTitle(emptyText);
        return;
    }
    auto *set = new QBarSet(QString());
    set->setColor(color);
    set->setBorderColor(color.darker(120));
    set->setLabelColor(tones::textOn(color));
    QStringList labels;
    qint64 max = 0;
    // Horizontal bars draw the first category at the bottom: reverse so the largest is on top.
    for (qsizetype i = counts.size() - 1; i >= 0; --i) {
        labels << (counts[i].first.isEmpty() ? QCoreApplication::translate("bullpen::charts", "(none)") : counts[i].first);
        *set << double(counts[i].second);
        max = std::max(max, counts[i].second);
    }
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    if (clicked) {
        QStringList keys; // as counted (an empty key is "(none)" on screen)
        for (qsizetype i = counts.size() - 1; i >= 0; --i)
            keys << counts[i].first;
        QObject::connect(set, &QBarSet::clicked, view, [keys, clicked](int index) {
            if (index >= 0 && index < keys.size())
                clicked(keys.at(index));
        });
        view->setCursor(Qt::PointingHandCursor);
        view->setToolTip(QCoreApplication::translate("bullpen::charts", "Click a bar to filter the table by it"));
    }
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
    series->setBarWidth(0.7);
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis;
    y->append(labels);
    QFont small = y->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    y->setLabelsFont(small);
    y->setTruncateLabels(false);
    // Whole-number ticks (with max 1 the old 4 ticks over 0…2.08 read "0 0 1 2"), room for the label.
    const qint64 want = qint64(std::ceil(double(max) * 1.08)) + 1;
    const int ticks = int(std::min<qint64>(want, 4)) + 1;
    const qint64 step = (want + ticks - 2) / (ticks - 1);
    auto *x = new QValueAxis;
    x->setRange(0, double(step * (ticks - 1)));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTickCount(ticks);
    x->setLabelsFont(small);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    series->attachAxis(y);
}

QString updatedText(const QDateTime &at, bool paused)
{
    if (!at.isValid())
        return QCoreApplication::translate("bullpen::charts", "not read yet");
    const QString time = at.toString(QStringLiteral("HH:mm:ss"));
    return paused ? QCoreApplication::translate("bullpen::charts", "paused · updated %1").arg(time)
                  : QCoreApplication::translate("bullpen::charts", "updated %1").arg(time);
}

} // namespace bullpen::charts
