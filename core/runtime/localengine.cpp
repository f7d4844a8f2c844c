// SPDX-License-Identifier: MIT
#include "localengine.h"

#include "engine/breakerboard.h"
#include "engine/stageservice.h"
#include "engine/tsanseed.h"
#include "enginestack.h"
#include "enginethreads.h"
#include "store/store.h"

#include <QLoggingCategory>

#include <algorithm>
#include <variant>

Q_LOGGING_CATEGORY(lcLocalEngine, "bullpen.engine")

namespace bullpen {

using Item = std::variant<Event, GenerationResult>;

struct LocalEngine::Lane
{
    std::unique_ptr<EngineStack> stack; // built and destroyed on its thread (m_threads->at(index))
    Relay *relay = nullptr; // lives on its thread
    int index = 0; // its thread's in m_threads; the engine runs on the caller's thread when m_threads is null
    int active = 0; // generations started here and not yet delivered back
};

// On an engine thread: gathers what the thread's pipeline reports and hands it to the engine's own
// thread one batch per turn of the engine thread's event loop (one queued call instead of one per event).
class LocalEngine::Relay final : public QObject
{
public:
    explicit Relay(LocalEngine *engine)
        : m_engine(engine)
    {
    }

    // On its thread: nothing more is handed to the engine, which is being destroyed.
    void detach() { m_engine = nullptr; }

    void add(Item item)
    {
        BULLPEN_TSAN_SEED_READ("stream"); // on an engine thread, racing the service's publishing (tsanseed.h)
        const bool first = m_batch.empty();
        m_batch.push_back(std::move(item));
        if (first)
            QMetaObject::invokeMethod(
                this, [this] { flush(); }, Qt::QueuedConnection);
    }

private:
    void flush()
    {
        auto batch = std::make_shared<std::vector<Item>>(std::move(m_batch));
        m_batch.clear();
        LocalEngine *engine = m_engine;
        if (!engine)
            return;
        QMetaObject::invokeMethod(
            engine, [engine, batch] { engine->deliver(std::move(*batch)); }, Qt::QueuedConnection);
    }

    LocalEngine *m_engine;
    std::vector<Item> m_batch;
};

namespace {

// One stack as every thread runs it: the engine's options, recording into the store when there is one.
std::unique_ptr<EngineStack> makeStack(const Settings &settings, const PipelineOptions &options, Store *store, const Masking *masking,
                                       BreakerBoard *breakers, const EngineContext &context)
{
    auto stack = std::make_unique<EngineStack>(settings, *context.clock, context);
    stack->setBreakers(breakers);
    stack->pipeline().setOptions(options);
    if (store)
        stack->pipeline().setStore(store, masking);
    return stack;
}

} // namespace

int LocalEngine::threadsFromEnvironment(const QProcessEnvironment &environment)
{
    bool ok = false;
    const int n = environment.value(QStringLiteral("BULLPEN_ENGINE_THREADS")).toInt(&ok);
    if (ok && n >= 1 && n <= 64)
        return n;
    if (environment.contains(QStringLiteral("BULLPEN_ENGINE_THREADS")))
        qCWarning(lcLocalEngine) << "BULLPEN_ENGINE_THREADS must be a whole number from 1 to 64; using the number of cores";
    return std::max(1, QThread::idealThreadCount());
}

LocalEngine::LocalEngine(const Settings &settings, const PipelineOptions &options, Store *store, const Masking *masking, int threads,
                         const EngineContext &context, QObject *parent)
    : LocalEngine(settings, options, store, masking, threads > 0 ? std::make_shared<EngineThreads>(threads) : nullptr, context, parent)
{
}

LocalEngine::LocalEngine(const Settings &settings, const PipelineOptions &options, Store *store, const Masking *masking,
                         std::shared_ptr<EngineThreads> engineThreads, const EngineContext &context, QObject *parent)
    : EngineClient(parent)
    , m_store(store)
    , m_threads(std::move(engineThreads))
    , m_breakers(std::make_unique<BreakerBoard>(settings.breaker))
{
    if (!m_threads) {
        auto lane = std::make_unique<Lane>();
        lane->stack = makeStack(settings, options, store, masking, m_breakers.get(), context);
        GenerationPipeline &pipeline = lane->stack->pipeline();
        connect(&pipeline, &GenerationPipeline::eventRecorded, this, &EngineClient::eventRecorded);
        connect(&pipeline, &GenerationPipeline::finished, this, [this](const GenerationResult &r) {
            onFinished(r);
            Q_EMIT finished(r);
        });
        m_lanes.push_back(std::move(lane));
        return;
    }

    // The limits hold for the whole engine: each thread gets its share.
    const int threads = m_threads->count();
    Settings share = settings;
    share.pipeline.maxInFlightPerProvider = (settings.pipeline.maxInFlightPerProvider + threads - 1) / threads;
    share.pipeline.maxQueuedPerProvider = (settings.pipeline.maxQueuedPerProvider + threads - 1) / threads;
    for (int i = 0; i < threads; ++i) {
        auto lane = std::make_unique<Lane>();
        Lane *l = lane.get();
        l->index = i;
        l->relay = new Relay(this);
        l->relay->moveToThread(m_threads->at(i));
        // Built on its own thread: the network managers, sockets and timers belong to it.
        QMetaObject::invokeMethod(
            l->relay,
            [l, &share, &options, &context, store, masking, breakers = m_breakers.get()] {
                l->stack = makeStack(share, options, store, masking, breakers, context);
                GenerationPipeline &pipeline = l->stack->pipeline();
                Relay *relay = l->relay;
                connect(&pipeline, &GenerationPipeline::eventRecorded, relay, [relay](const Event &e) { relay->add(e); });
                connect(&pipeline, &GenerationPipeline::finished, relay, [relay](const GenerationResult &r) { relay->add(r); });
            },
            Qt::BlockingQueuedConnection);
        m_lanes.push_back(std::move(lane));
    }
}

LocalEngine::~LocalEngine()
{
    for (auto &lane : m_lanes) {
        if (!m_threads) {
            lane->stack.reset();
            continue;
        }
        Lane *l = lane.get();
        Store *store = m_store;
        // Shut down on its own thread: every running attempt is cancelled and recorded there. What that
        // reports is not handed on: this engine is going, and its threads may go on for other engines.
        QMetaObject::invokeMethod(
            l->relay,
            [l, store] {
                l->stack.reset();
                if (store)
                    store->releaseThreadConnection(); // another engine's stack there opens its own again
                l->relay->detach();
                l->relay->deleteLater(); // deleted on the thread's next turn, or as it ends
            },
            Qt::BlockingQueuedConnection);
        m_threads->add(l->index, -l->active); // cancelled there, and not handed back
        l->active = 0;
    }
    m_threads.reset(); // quit and waited for here unless another engine still runs on them
}

EngineStack *LocalEngine::inlineStack() const
{
    Q_ASSERT(!m_threads);
    return m_threads ? nullptr : m_lanes.front()->stack.get();
}

std::vector<int> LocalEngine::activePerThread() const
{
    std::vector<int> out;
    for (const auto &lane : m_lanes)
        out.push_back(lane->active);
    return out;
}

LocalEngine::Lane &LocalEngine::pickLane()
{
    // The thread with the fewest generations running, counting every engine on it (shared threads).
    const auto load = [this](const std::unique_ptr<Lane> &l) {
        return std::pair { m_threads ? m_threads->running(l->index) : 0, l->active };
    };
    return **std::min_element(m_lanes.begin(), m_lanes.end(), [&](const auto &a, const auto &b) { return load(a) < load(b); });
}

QString LocalEngine::start(const GenerationRequest &request)
{
    GenerationRequest r = request;
    if (r.generationId.isEmpty())
        r.generationId = StageService::newGenerationId();
    Lane &lane = pickLane();
    ++lane.active;
    if (m_threads)
        m_threads->add(lane.index, 1);
    m_owner[r.generationId] = &lane;
    const QString id = r.generationId;
    if (!m_threads) {
        lane.stack->pipeline().start(r);
    } else {
        Lane *l = &lane;
        QMetaObject::invokeMethod(
            l->relay,
            [l, r] {
                BULLPEN_TSAN_SEED_READ("engine"); // on an engine thread (tsanseed.h)
                l->stack->pipeline().start(r);
            },
            Qt::QueuedConnection);
        // On the caller's thread, racing the engine thread's read in the call just posted (tsanseed.h).
        // After the post, not before: the post orders what precedes it before everything the engine
        // thread runs after it, so a write before it is never a race with that read. Awaited: the tests
        // start several in a row, and the next post would order this write before the read.
        BULLPEN_TSAN_SEED_AWAITED("engine");
    }
    return id;
}

bool LocalEngine::cancel(const QString &generationId, AbortReason reason)
{
    const auto it = m_owner.find(generationId);
    if (it == m_owner.end())
        return false;
    Lane *l = it->second;
    if (!m_threads)
        return l->stack->pipeline().cancel(generationId, reason);
    QMetaObject::invokeMethod(
        l->relay, [l, generationId, reason] { l->stack->pipeline().cancel(generationId, reason); }, Qt::QueuedConnection);
    return true;
}

void LocalEngine::onFinished(const GenerationResult &result)
{
    const auto it = m_owner.find(result.generationId);
    if (it == m_owner.end())
        return;
    --it->second->active;
    if (m_threads)
        m_threads->add(it->second->index, -1);
    m_owner.erase(it);
}

void LocalEngine::deliver(std::vector<Item> batch)
{
    for (Item &item : batch) {
        if (auto *e = std::get_if<Event>(&item)) {
            Q_EMIT eventRecorded(*e);
        } else {
            const GenerationResult &r = std::get<GenerationResult>(item);
            onFinished(r);
            Q_EMIT finished(r);
        }
    }
}

} // namespace bullpen
