// SPDX-License-Identifier: MIT
#pragma once

#include "admission.h"
#include "attemptrunner.h"
#include "breakerboard.h"
#include "clock.h"
#include "engine/event.h"
#include "stagebudget.h"
#include "stagegenerator.h"
#include "stagepolicy.h"
#include "stageresult.h"

#include <QObject>
#include <QRandomGenerator>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace bullpen {

// Runs one stage (storyboard, captions or image) under a StagePolicy: calls the primary, classifies, and
// decides whether the fallback provider gets its one chance, or the same provider another round, inside
// one StageBudget (docs/contract.md §4.1-4.3). Every step is an Event; the final state is written once. Generators
// are not owned and must outlive the service.
class StageService final : public QObject
{
    Q_OBJECT
public:
    explicit StageService(Clock &clock, QObject *parent = nullptr);
    ~StageService() override;

    void addGenerator(StageGenerator *generator);
    // Shared by every stage of one engine; not owned. Without it, attempts are never limited.
    void setAdmission(Admission *admission) { m_admission = admission; }
    // The engine's breakers and drains (docs/contract.md §13), shared by every stage and engine thread;
    // not owned. Without it, every stage calls its primary first, as with `breaker = off`.
    void setBreakers(BreakerBoard *breakers) { m_breakers = breakers; }
    StageGenerator *generator(Provider provider) const;

    // Starts a generation and returns its id ("gen_" + 32 hex digits). Events and the result arrive
    // through the signals, never from inside this call.
    QString start(const StageRequest &request, const StagePolicy &policy);
    // Operator cancel (or, with AbortReason::Shutdown, an engine that is shutting down): the running
    // attempt's cancel handlers run, no fallback follows. False if unknown.
    bool cancel(const QString &generationId, AbortReason reason = AbortReason::Operator);
    // Cancels everything with AbortReason::Shutdown.
    void shutdown();
    int activeCount() const { return static_cast<int>(m_runs.size()); }
    // Who stamps this service's events. Alone (no sink), the service is the generation: it emits
    // generation_started/finished too, stamps every event (sequence, offset, wall time) and sends it
    // through eventRecorded. Inside a pipeline, the pipeline owns the generation: the service hands each
    // stage event's body to the sink, which stamps it once in the generation's own sequence, and
    // eventRecorded stays silent.
    using EventSink = std::function<void(const QString &generationId, EventBody body)>;
    void setEventSink(EventSink sink) { m_sink = std::move(sink); }
    // Seeds the backoff jitter (tests).
    void setRandomSeed(quint32 seed) { m_random.seed(seed); }

    static QString newGenerationId();

Q_SIGNALS:
    void eventRecorded(const bullpen::Event &event);
    void finished(const bullpen::StageResult &result);

private:
    struct Run;
    void begin(Run &run);
    bool probeMaySend(Run &run);
    void route(Run &run);
    bool takeGate(Run &run);
    Role chooseFirst(Run &run);
    void recordForBreaker(Run &run, const AttemptRecord &record);
    void admitted(Run &run);
    // Does policy `p` hand the primary's failure `f` to its fallback provider? If not, *why says why.
    bool fallbackTakes(const StagePolicy &p, const Failure &f, QString *why) const;
    bool takeFallbackSlot(Run &run);
    void startAttempt(Run &run, Role role, int round);
    void onAttemptFinished(Run &run, const AttemptOutcome &outcome);
    void finishRun(Run &run, FinalState state, std::optional<Failure> failure, StageOutput output);
    std::chrono::milliseconds pauseBefore(const StagePolicy &policy, int round, const Failure &failure);
    void emitEvent(Run &run, EventBody body);

    Clock &m_clock;
    Admission *m_admission = nullptr;
    BreakerBoard *m_breakers = nullptr;
    std::map<Provider, StageGenerator *> m_generators;
    std::map<QString, std::unique_ptr<Run>> m_runs;
    std::vector<std::unique_ptr<Run>> m_finishedRuns; // destroyed from the event loop, never inside their own signals
    EventSink m_sink;
    QRandomGenerator m_random { 20261014u };
};

} // namespace bullpen
