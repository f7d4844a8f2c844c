// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>

namespace bullpen {

class HistoryReader;

// The console's reader thread (docs/contract.md §9: long work never runs on the GUI thread). History pages,
// details, aggregates, charts and exports run here in order, on the thread's own read connection
// (attached: requests to the engine); their results come back on the GUI thread, to a receiver that
// may be gone by then (then they are dropped).
class HistoryQueue final : public QObject
{
    Q_OBJECT
public:
    explicit HistoryQueue(HistoryReader *history, QObject *parent = nullptr);
    ~HistoryQueue() override; // waits for the jobs already queued

    HistoryReader *history() const { return m_history; }

    template<class Result> void run(QObject *receiver, std::function<Result(HistoryReader &)> job, std::function<void(Result)> done)
    {
        auto shared = std::make_shared<std::function<Result(HistoryReader &)>>(std::move(job));
        post([this, receiver = QPointer<QObject>(receiver), shared, done = std::move(done)](HistoryReader &history) mutable {
            auto result = std::make_shared<Result>((*shared)(history));
            QMetaObject::invokeMethod(
                this,
                [receiver, result, done] {
                    if (receiver)
                        done(std::move(*result));
                },
                Qt::QueuedConnection);
        });
    }

private:
    void post(std::function<void(HistoryReader &)> job);

    HistoryReader *m_history;
    QThread m_thread;
    QObject *m_worker;
};

} // namespace bullpen
