// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QWidget>

#include <functional>

class QHBoxLayout;
class QLabel;
class QTimer;
class QToolButton;

namespace bullpen {

class HistoryQueue;
class ProviderHealthModel;

// "Is anything wrong right now" (docs/contract.md §9.8): one card per provider and role with the last 5
// and 15 minutes' attempts, error %, top failure kind, share handed to the fallback provider and
// p50/p90, and its state (failing now, degraded, healthy; the rule is in the tooltip). Read from the
// store on the console's reader thread, so it counts every engine writing there, not only this
// console's; refreshed every interval (5 s by default) with "updated hh:mm:ss" and a pause.
class HealthStrip final : public QWidget
{
    Q_OBJECT
public:
    explicit HealthStrip(HistoryQueue *queue, QWidget *parent = nullptr);

    ProviderHealthModel *model() const { return m_model; }
    // Reads both windows now (unless a read is already on its way); updated() follows.
    void refresh();
    void setInterval(int ms);
    int interval() const;
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    QDateTime lastUpdated() const { return m_updated; }
    QString lastError() const { return m_error; }
    // The windows end at clock() (ms since the epoch; the wall clock unless set): a test pins them.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    qint64 lastReadAtMs() const { return m_readAtMs; }

Q_SIGNALS:
    void updated();

private:
    void rebuildCards();

    HistoryQueue *m_queue;
    ProviderHealthModel *m_model;
    QTimer *m_timer;
    QHBoxLayout *m_cards;
    QLabel *m_empty;
    QLabel *m_stamp;
    QToolButton *m_pause;
    QDateTime m_updated;
    QString m_error;
    bool m_paused = false;
    bool m_reading = false;
    std::function<qint64()> m_clock;
    qint64 m_readAtMs = 0;
};

} // namespace bullpen
