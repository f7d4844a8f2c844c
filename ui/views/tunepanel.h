// SPDX-License-Identifier: MIT
#pragma once

#include "tuning/tuner.h"

#include <QStringList>
#include <QWidget>

#include <chrono>
#include <optional>

class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace bullpen {

class HistoryQueue;

// docs/contract.md §17: the Tune panel of the Latency view. The tuner replays the range's recorded
// storyboard attempts under each candidate primary timeout (the history's reader thread; attached: the
// engine's /v1/stats/tune) and draws the curve of timeout → predicted p95, fallback rate and cost, with
// today's setting marked. Embedded, Apply writes the chosen timeout through the Settings view's path;
// attached, the panel shows the settings line to put in the engine's file.
class TunePanel final : public QWidget
{
    Q_OBJECT
public:
    explicit TunePanel(HistoryQueue *queue, QWidget *parent = nullptr);

    // The primary timeouts tried, one table; today's is added when it is not among them.
    static QList<std::chrono::milliseconds> candidateTimeouts();
    // Today's timeouts, preset and breaker: the curve's mark, and what the alternatives start from.
    void setToday(std::chrono::milliseconds primary, std::chrono::milliseconds fallback, const QString &preset = QStringLiteral("relief"),
                  const BreakerSettings &breaker = {});
    // One line per alternative of a report (today's timeouts with the breaker on, off, the other preset).
    static QString alternativeText(const TunePrediction &p);
    void setRange(qint64 fromMs, qint64 toMs); // read again now if shown, else when next shown
    void setEmbedded(bool embedded); // embedded: Apply; attached: the settings line
    void reload();
    // The settings-file line and the environment line that set a primary timeout.
    static QString settingsLine(std::chrono::milliseconds primary);
    // The cost axis's title and the chart's tooltip, naming the currencies of the recorded costs (the
    // stage's priced attempts in the range); several are said to be added up unconverted.
    static QString costAxisTitle(const QStringList &currencies);
    static QString costToolTip(const QStringList &currencies);
    void showApplied(bool ok, const QString &status); // what the settings path answered

    const std::optional<TuneReport> &report() const { return m_report; }
    std::optional<std::chrono::milliseconds> chosen() const; // the candidate picked
    void choose(std::chrono::milliseconds primary);
    QChartView *chart() const { return m_chart; }

Q_SIGNALS:
    void loaded();
    void applyRequested(std::chrono::milliseconds primaryTimeout);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void draw();
    void drawAlternatives();
    void describeChoice();

    HistoryQueue *m_queue;
    QChartView *m_chart;
    QLabel *m_status;
    QComboBox *m_candidate;
    QPushButton *m_apply;
    QLineEdit *m_line;
    QLabel *m_lineHint;
    QLabel *m_alternatives;
    std::chrono::milliseconds m_primary { 60'000 };
    std::chrono::milliseconds m_fallback { 60'000 };
    QString m_preset = QStringLiteral("relief");
    BreakerSettings m_breaker;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
    bool m_embedded = true;
    bool m_stale = true;
    bool m_loading = false;
    std::optional<TuneReport> m_report;
    QStringList m_currencies; // of the report's known costs
};

} // namespace bullpen
