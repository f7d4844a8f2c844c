// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QList>
#include <QString>

#include <functional>
#include <utility>

class QChart;
class QDateTime;
class QChartView;
class QWidget;

namespace bullpen::charts {

// A compact chart for a dashboard tile: title, no animation, small margins, antialiased view.
QChartView *makeView(const QString &title, QWidget *parent = nullptr);
// A fresh, empty chart in the view, with the old one's title and legend; the old chart is deleted.
// (Qt Charts 6.4 leaves stale axis labels drawn when axes are removed and re-added on a live chart.)
QChart *renew(QChartView *view);
// Replaces a view's chart with horizontal bars, one per (label, count), largest first.
// `clicked`, when given, is called with a bar's label when the operator clicks it (the cursor says so).
void setBars(QChartView *view, const QList<std::pair<QString, qint64>> &counts, const QColor &color, const QString &emptyText,
             std::function<void(const QString &label)> clicked = {});
// The chart's colours follow the application palette (a dark theme on a dark palette).
void applyTheme(QChart *chart);
// What an auto-refreshing view says about its last read: "updated 14:02:07", "paused · updated …",
// "not read yet" (Failures, Latency, the health strip).
QString updatedText(const QDateTime &at, bool paused);

} // namespace bullpen::charts
