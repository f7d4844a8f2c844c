// SPDX-License-Identifier: MIT
#pragma once

#include "engine/stageresult.h"
#include "events/event.h"
#include "finishedextras.h"
#include "storelocation.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <variant>

namespace bullpen {

// The store's one writer: a thread with its own connection that takes whatever has been queued
// and commits it in one transaction (batches grow with load, up to kMaxBatch rows). enqueue() never
// touches the disk. A batch that fails is rolled back and counted, and writing goes on.
class StoreWriter final
{
public:
    struct Finished
    {
        StageResult result;
        QString userKey;
        QString userMask;
        FinishedExtras extras;
    };
    struct Comparison
    {
        QString id;
        qint64 createdAtMs = 0;
        QString primaryProvider;
        QString fallbackProvider;
        QString primaryGenerationId;
        QString fallbackGenerationId;
        QByteArray body; // compact JSON
    };
    using Item = std::variant<Event, Finished, Comparison>;

    struct Counters
    {
        quint64 queued = 0;
        quint64 written = 0;
        quint64 failed = 0;
        quint64 finalStateConflicts = 0;
        QString lastError;
        QString firstError; // the first failure since the writer started: usually the cause
    };

    static constexpr std::size_t kMaxBatch = 512;

    StoreWriter(StoreLocation location, std::function<void(const QString &)> onFailure,
                std::function<void(const QStringList &)> onFinalCommitted = {});
    ~StoreWriter(); // writes what is queued, then stops

    bool start(QString *error);
    void enqueue(Item item);
    bool flush(std::chrono::milliseconds timeout);
    Counters counters() const;

private:
    void run();

    StoreLocation m_location;
    std::function<void(const QString &)> m_onFailure;
    std::function<void(const QStringList &)> m_onFinalCommitted;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::deque<Item> m_queue;
    Counters m_counters;
    bool m_stop = false;
    bool m_ready = false;
    QString m_startError;
    std::thread m_thread;
};

} // namespace bullpen
