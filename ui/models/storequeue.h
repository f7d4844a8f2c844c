// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>

namespace bullpen {

class Store;

// The console's reader thread (SPEC 9: long work never runs on the GUI thread). Aggregates, charts and
// exports run here in order, on the thread's own read connection; their results come back on the GUI
// thread, to a receiver that may be gone by then (then they are dropped).
class StoreQueue final : public QObject
{
    Q_OBJECT
public:
    explicit StoreQueue(Store *store, QObject *parent = nullptr);
    ~StoreQueue() override; // waits for the jobs already queued

    Store *store() const { return m_store; }

    template <class Result>
    void run(QObject *receiver, std::function<Result(Store &)> job, std::function<void(Result)> done)
    {
        auto shared = std::make_shared<std::function<Result(Store &)>>(std::move(job));
        post([this, receiver = QPointer<QObject>(receiver), shared, done = std::move(done)](Store &store) mutable {
            auto result = std::make_shared<Result>((*shared)(store));
            QMetaObject::invokeMethod(this, [receiver, result, done] {
                if (receiver)
                    done(std::move(*result));
            }, Qt::QueuedConnection);
        });
    }

private:
    void post(std::function<void(Store &)> job);

    Store *m_store;
    QThread m_thread;
    QObject *m_worker;
};

} // namespace bullpen
