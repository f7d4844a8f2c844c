// SPDX-License-Identifier: MIT
#include "storequeue.h"

#include "store/store.h"

namespace bullpen {

StoreQueue::StoreQueue(Store *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("bullpen-store-reader"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

StoreQueue::~StoreQueue()
{
    if (m_store) {
        Store *store = m_store;
        // Runs after the jobs already queued (events are handled in order), so nothing reads after it.
        QMetaObject::invokeMethod(m_worker, [store] { store->releaseThreadConnection(); }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

void StoreQueue::post(std::function<void(Store &)> job)
{
    if (!m_store)
        return;
    Store *store = m_store;
    QMetaObject::invokeMethod(m_worker, [store, job = std::move(job)] { job(*store); }, Qt::QueuedConnection);
}

} // namespace bullpen
