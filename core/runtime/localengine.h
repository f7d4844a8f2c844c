// SPDX-License-Identifier: MIT
#pragma once

#include "config/enginecontext.h"
#include "config/settings.h"
#include "pipeline/engineclient.h"
#include "pipeline/generationpipeline.h"

#include <QThread>

#include <map>
#include <memory>
#include <variant>
#include <vector>

namespace bullpen {

class BreakerBoard;
class EngineStack;
class EngineThreads;
class Masking;
class Store;

// The engine in this process (docs/contract.md §12.3). With threads > 0 it runs on that many engine threads (its own,
// or a set shared with other engines in the process), never
// on the caller's: each thread builds its own EngineStack (network managers, clients, admission, its
// own deadline queue) inside the thread, and a generation lives on the thread that had the fewest
// running when it started. Events and results come back to the caller's thread in batches, one queued
// call per batch, in the order they happened. With threads == 0 the stack runs on the calling thread
// (tests and the CLI's one-shot commands that drive the pipeline directly).
//
// The per-provider in-flight and queue limits are shared out evenly between the threads (rounded up).
class LocalEngine final : public EngineClient
{
    Q_OBJECT
public:
    // BULLPEN_ENGINE_THREADS if set (1..64), else the number of cores.
    static int threadsFromEnvironment(const QProcessEnvironment &environment);

    // `context`: what this engine owns (EngineSetup's); for an engine built by hand, one of its own: no proxy.
    LocalEngine(const Settings &settings, const PipelineOptions &options, Store *store, const Masking *masking, int threads,
                const EngineContext &context = EngineContext::standalone(), QObject *parent = nullptr);
    // On threads shared with other engines in this process (enginethreads.h): a stack on each of them;
    // each generation starts on the one with the fewest running over every engine there. Build and
    // destroy it on another thread than those: both wait for a call on each of them.
    LocalEngine(const Settings &settings, const PipelineOptions &options, Store *store, const Masking *masking,
                std::shared_ptr<EngineThreads> threads, const EngineContext &context = EngineContext::standalone(),
                QObject *parent = nullptr);
    ~LocalEngine() override;

    QString start(const GenerationRequest &request) override;
    bool cancel(const QString &generationId) override { return cancel(generationId, AbortReason::Operator); }
    // AbortReason::Shutdown: the engine is shutting down (recorded as such, not as an operator's cancel).
    bool cancel(const QString &generationId, AbortReason reason);
    int activeCount() const override { return static_cast<int>(m_owner.size()); }

    int threadCount() const { return m_threads ? static_cast<int>(m_lanes.size()) : 0; }
    // Generations running on each thread, in thread order (for benchmarks and the status bar).
    std::vector<int> activePerThread() const;
    // Breakers and drains (docs/contract.md §13): one board for every engine thread.
    BreakerBoard &breakers() const { return *m_breakers; }
    // Only with threads == 0: the stack on the calling thread.
    EngineStack *inlineStack() const;

private:
    struct Lane;
    class Relay;
    Lane &pickLane();
    void deliver(std::vector<std::variant<Event, GenerationResult>> batch);
    void onFinished(const GenerationResult &result);

    std::vector<std::unique_ptr<Lane>> m_lanes;
    std::map<QString, Lane *> m_owner;
    Store *m_store;
    std::shared_ptr<EngineThreads> m_threads; // ended, if no other engine holds them, after every lane's stack
    std::unique_ptr<BreakerBoard> m_breakers; // the destructor ends every lane's stack before it goes
};

} // namespace bullpen
