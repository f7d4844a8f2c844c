// SPDX-License-Identifier: MIT
#include "historyqueue.h"

#include "engine/backgroundthread.h"
#include "history/historyreader.h"

namespace bullpen {

HistoryQueue::HistoryQueue(HistoryReader *history, QObject *parent)
    : QObject(parent)
    , m_history(history)
    , m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("bullpen-history-reader"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    startInBackground(m_thread);
}

HistoryQueue::~HistoryQueue()
{
    if (m_history) {
        HistoryReader *history = m_history;
        // Runs after the jobs already queued (events are handled in order), so nothing reads after it.
        QMetaObject::invokeMethod(
            m_worker, [history] { history->releaseThreadConnection(); }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

void HistoryQueue::post(std::function<void(HistoryReader &)> job)
{
    if (!m_history)
        return;
    HistoryReader *history = m_history;
    QMetaObject::invokeMethod(
        m_worker, [history, job = std::move(job)] { job(*history); }, Qt::QueuedConnection);
}

} // namespace bullpen
