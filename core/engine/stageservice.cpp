// SPDX-License-Identifier: MIT
#include "stageservice.h"

#include "contract/recordtext.h"
#include "runholds.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QUuid>

#include <atomic>
#include <cmath>
#include <variant>

Q_LOGGING_CATEGORY(lcService, "bullpen.service")

namespace bullpen {

using namespace std::chrono;

namespace {

// The steps of a stage run. Each holds what only it needs, and lets go of it when the run leaves it:
// a step is replaced, never undone by hand. What outlives a step is in RunHolds (engine/runholds.h):
// the admission slot, kept across rounds and handed on to the fallback, and the breakers' trials, each
// taken at its gate and spent by its attempt's record.
struct Starting // begin() runs from the event loop, never inside start(): disarmed when left
{
    std::unique_ptr<Timer> timer;
};
struct Deciding // inside one of the service's own calls: choosing the next step, holding nothing of its own
{
};
struct Queued // waiting for an admission slot: the place in the queue is withdrawn when left, unless spent
{
    HeldTicket ticket;
    Clock::time_point since;
};
struct Attempting // an attempt in flight: a cancel goes to its runner (the runner itself is kept in Run::runners)
{
    AttemptRunner *runner = nullptr;
};
struct Pausing // between two rounds on the same provider: disarmed when left, so no round starts after the end
{
    std::unique_ptr<Timer> timer;
};
struct Done // finished: the result is written, nothing is held, nothing starts
{
};
using Step = std::variant<Starting, Deciding, Queued, Attempting, Pausing, Done>;

} // namespace

struct StageService::Run
{
    Run(const Clock &clock, QString id, StageRequest req, StagePolicy pol)
        : generationId(std::move(id))
        , request(std::move(req))
        , policy(std::move(pol))
        , requestedAt(clock.now())
        , budget(clock, policy.effectiveBudget())
    {
    }

    QString generationId;
    StageRequest request;
    StagePolicy policy;
    Clock::time_point requestedAt; // offsets in events and records are measured from here
    StageBudget budget; // restarted at admission when the stage had to wait for a slot
    // The admission slot of the current (or paused) attempt and the breakers' trials: each let go of by
    // its holder (engine/runholds.h).
    RunHolds holds;
    // The step the run is in (above). Declared after `holds`, so that a run destroyed without ending
    // leaves its step (withdrawing its place in the queue) before its slot goes back, as finishRun does.
    Step step;
    std::optional<AbortReason> stopping; // operator cancel or shutdown asked for: nothing new starts
    Clock::duration queued { 0 };
    quint64 nextSequence = 0;
    std::vector<std::unique_ptr<AttemptRunner>> runners; // kept to the end, so late results are still logged
    QList<AttemptRecord> attempts;
    std::optional<Failure> primaryFailure;
    Role first = Role::Primary; // Fallback when the primary's breaker is open or it is drained
    std::optional<PrimarySkipped> skipped; // why the primary was not called
    bool rerouted = false; // routed again once at admission because its breaker's gate had closed meanwhile
    QString decision;
    bool fallbackApplied = false;
};

StageService::StageService(Clock &clock, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
{
}

StageService::~StageService()
{
    shutdown();
}

void StageService::addGenerator(StageGenerator *generator)
{
    Q_ASSERT(generator);
    m_generators[generator->provider()] = generator;
}

StageGenerator *StageService::generator(Provider provider) const
{
    const auto it = m_generators.find(provider);
    return it == m_generators.end() ? nullptr : it->second;
}

QString StageService::newGenerationId()
{
    return QStringLiteral("gen_") + QUuid::createUuid().toString(QUuid::Id128);
}

QString StageService::start(const StageRequest &request, const StagePolicy &policy)
{
    // The budget starts now, when the stage is requested (docs/contract.md §4.2), unless the stage must wait for
    // admission: then it starts again when the slot is granted, before any attempt.
    const QString id = request.generationId.isEmpty() ? newGenerationId() : request.generationId;
    auto run = std::make_unique<Run>(m_clock, id, request, policy);
    Run &r = *run;
    m_runs.emplace(id, std::move(run));
    r.step.emplace<Starting>().timer = m_clock.arm(m_clock.now(), [this, &r] {
        r.step.emplace<Deciding>();
        begin(r);
    });
    return id;
}

void StageService::begin(Run &run)
{
    const StagePolicy &p = run.policy;
    if (!m_sink)
        emitEvent(run, GenerationStarted::of(p, run.request.userId));

    QString missing;
    if (!generator(p.primary))
        missing = toId(p.primary);
    else if (p.fallback && !generator(*p.fallback))
        missing = toId(*p.fallback);
    if (!missing.isEmpty()) {
        run.decision = recordText(RecordText::NoProviderStarted);
        finishRun(run, FinalState::Failed, Failure { FailureKind::AUTH_CONFIG, recordText(RecordText::NoAdapter, { missing }), false, {} },
                  StageOutput {});
        return;
    }
    if (run.request.probeRole && !probeMaySend(run))
        return;
    route(run);
}

// Chooses the first role by the breakers (asking, taking no trial) and takes its provider's admission slot,
// or waits in line for it. The trial is taken once the slot is held (takeGate), so that a request waiting
// in the queue does not hold a HALF_OPEN breaker's one trial away from everyone else for its whole wait.
void StageService::route(Run &run)
{
    const StagePolicy &p = run.policy;
    run.first = chooseFirst(run);
    const Provider first = run.first == Role::Primary ? p.primary : *p.fallback;
    if (!m_admission || m_admission->tryAcquire(first)) {
        run.holds.slot.hold(m_admission, first);
        if (takeGate(run))
            startAttempt(run, run.first, 1);
        return;
    }

    // Every slot is taken: wait in line, before the budget starts.
    const int ahead = m_admission->waiting(first);
    const int inFlight = m_admission->inFlight(first);
    const QString id = run.generationId;
    Queued &queued = run.step.emplace<Queued>();
    queued.ticket.hold(m_admission, m_admission->enqueue(first, [this, id, provider = first] {
        const auto it = m_runs.find(id);
        if (it != m_runs.end())
            admitted(*it->second);
        else // cannot happen (an ending run withdraws its ticket), but a slot must never leak
            m_admission->release(provider);
    }));
    if (!queued.ticket.waiting()) {
        run.decision = recordText(RecordText::QueueFull, { toId(first) });
        finishRun(run, FinalState::Failed,
                  Failure { FailureKind::NOT_SENT,
                            recordText(RecordText::QueueFullDetail, { toId(first), QString::number(inFlight), QString::number(ahead) }),
                            false,
                            {} },
                  StageOutput {});
        return;
    }
    queued.since = m_clock.now();
    emitEvent(run, StageQueued { p.stage, first, ahead, inFlight, m_admission->limits().inFlight });
}

// With the slot held, just before the first attempt: takes the breaker's trial if it is one. If the gate
// closed meanwhile (another request took the trial, or the breaker opened), a probe sends nothing and a
// user's request is routed once more (to the fallback, when it is usable). False when the attempt is not
// to start now.
bool StageService::takeGate(Run &run)
{
    if (!m_breakers)
        return true;
    const StagePolicy &p = run.policy;
    const Provider provider = run.first == Role::Primary ? p.primary : *p.fallback;
    const BreakerKey key { provider, run.first, p.stage };
    const BreakerGate gate = m_breakers->admit(key, m_clock.now());
    if (gate.verdict != BreakerGate::Skip || (!run.request.probeRole && run.rerouted)) {
        run.holds.trialOf(run.first).take(m_breakers, m_clock, key, gate.verdict == BreakerGate::Trial);
        return true;
    }
    if (run.request.probeRole) {
        run.decision = recordText(RecordText::ProbeNotSent, { key.toString(), gate.state, gate.why });
        finishRun(run, FinalState::Failed, Failure { FailureKind::NOT_SENT, run.decision, false, {} }, StageOutput {});
        return false;
    }
    run.rerouted = true; // once: a breaker never makes a possible success a certain failure
    run.holds.slot.release();
    route(run);
    return false;
}

bool StageService::probeMaySend(Run &run)
{
    const StagePolicy &p = run.policy;
    const Role role = *run.request.probeRole;
    if (role == Role::Fallback && !p.fallback) {
        run.decision = recordText(RecordText::ProbeNoFallback, { toId(p.stage) });
        finishRun(run, FinalState::Failed, Failure { FailureKind::NOT_SENT, run.decision, false, {} }, StageOutput {});
        return false;
    }
    const Provider provider = role == Role::Primary ? p.primary : *p.fallback;
    // Asked, not taken: the trial is taken at admission (takeGate).
    const BreakerGate gate = m_breakers ? m_breakers->peek(BreakerKey { provider, role, p.stage }, m_clock.now()) : BreakerGate {};
    if (gate.verdict == BreakerGate::Skip) {
        // An open breaker waits out its cooldown and a drain is an operator's word: a probe sends nothing.
        run.decision = recordText(RecordText::ProbeNotSent, { BreakerKey { provider, role, p.stage }.toString(), gate.state, gate.why });
        finishRun(run, FinalState::Failed, Failure { FailureKind::NOT_SENT, run.decision, false, {} }, StageOutput {});
        return false;
    }
    run.first = role;
    return true;
}

Role StageService::chooseFirst(Run &run)
{
    if (run.request.probeRole)
        return *run.request.probeRole; // probeMaySend() asked its breaker
    run.skipped.reset();
    run.fallbackApplied = false;
    if (!m_breakers)
        return Role::Primary;
    const StagePolicy &p = run.policy;
    const auto now = m_clock.now();
    const BreakerKey primary { p.primary, Role::Primary, p.stage };
    StageGenerator *fb = p.fallback ? generator(*p.fallback) : nullptr;
    // A skip needs a fallback this policy could hand the stage to at all.
    const bool fallbackUsable = fb && !p.fallbackOn.isEmpty() && (!p.fallbackNeedsDistinctModel || fb->isConfigured());
    // Asked, not taken: the trial is taken once the admission slot is held (takeGate).
    const BreakerGate gate = m_breakers->peek(primary, now);
    if (gate.verdict != BreakerGate::Skip || !fallbackUsable)
        return Role::Primary; // no fallback to go to: the primary is tried as usual
    const BreakerGate fallbackGate = m_breakers->peek(BreakerKey { *p.fallback, Role::Fallback, p.stage }, now);
    if (fallbackGate.verdict == BreakerGate::Skip)
        return Role::Primary; // the fallback is open or drained too: a breaker never makes a possible success a certain failure
    const QString reason = skipReason(p.primary, gate.state == u"drained");
    run.skipped = PrimarySkipped { p.stage,    p.primary, *p.fallback, gate.state,
                                   gate.since, gate.why,  reason,      duration_cast<milliseconds>(run.budget.remaining()) };
    run.fallbackApplied = true;
    emitEvent(run, *run.skipped);
    return Role::Fallback;
}

void StageService::recordForBreaker(Run &run, const AttemptRecord &rec)
{
    if (!m_breakers)
        return;
    const bool trial = run.holds.trialOf(rec.role).spend();
    m_breakers->record(BreakerKey { rec.provider, rec.role, run.policy.stage }, breakerCount(rec), trial, m_clock.now(), rec.kind());
}

void StageService::admitted(Run &run)
{
    Queued &queued = std::get<Queued>(run.step);
    queued.ticket.spend(); // granted: the queue has handed the slot over
    run.queued = m_clock.now() - queued.since;
    run.step.emplace<Deciding>();
    const Provider first = run.first == Role::Primary ? run.policy.primary : *run.policy.fallback;
    run.holds.slot.hold(m_admission, first);
    run.budget.restart();
    emitEvent(run, StageAdmitted { run.policy.stage, first, duration_cast<microseconds>(run.queued) });
    if (takeGate(run))
        startAttempt(run, run.first, 1);
}

void StageService::startAttempt(Run &run, Role role, int round)
{
    const StagePolicy &p = run.policy;
    const Provider provider = role == Role::Primary ? p.primary : *p.fallback;
    StageGenerator *gen = generator(provider);
    const milliseconds timeout = role == Role::Primary ? p.primaryTimeout : p.fallbackTimeout;

    AttemptSpec spec;
    static std::atomic<quint64> nextAttemptId { 0 }; // unique across every stage's service in the process
    spec.attemptId = ++nextAttemptId;
    spec.stage = p.stage;
    spec.role = role;
    spec.round = round;
    spec.startedAt = m_clock.now();
    spec.deadline = run.budget.attemptDeadline(timeout, *spec.startedAt);
    spec.stageStart = run.requestedAt;

    emitEvent(run,
              AttemptStarted { p.stage, spec.attemptId, provider, gen->model(), role, round, timeout,
                               duration_cast<microseconds>(spec.deadline - spec.stageStart),
                               duration_cast<milliseconds>(run.budget.remaining()) });

    auto runner = std::make_unique<AttemptRunner>(m_clock, *gen, spec);
    AttemptRunner *raw = runner.get();
    run.runners.push_back(std::move(runner));
    run.step.emplace<Attempting>().runner = raw;
    const QString id = run.generationId;
    connect(raw, &AttemptRunner::finished, this, [this, id](const AttemptOutcome &outcome) {
        const auto it = m_runs.find(id);
        if (it != m_runs.end())
            onAttemptFinished(*it->second, outcome);
    });
    connect(raw, &AttemptRunner::lateResultDiscarded, this, [this, id](const LateResultDiscarded &late) {
        const auto it = m_runs.find(id);
        if (it != m_runs.end())
            emitEvent(*it->second, late);
    });
    raw->start(run.request);
}

void StageService::onAttemptFinished(Run &run, const AttemptOutcome &outcome)
{
    const AttemptRecord &rec = outcome.record;
    const StagePolicy &p = run.policy;
    run.step.emplace<Deciding>();
    run.attempts.append(rec);
    recordForBreaker(run, rec);

    // Would the policy hand this failure to the fallback provider? (Shown on the attempt, decided below.)
    QString notEligibleWhy;
    const bool fallbackEligible =
        !rec.success && rec.role == Role::Primary && p.fallback && fallbackTakes(p, *rec.failure, &notEligibleWhy);

    AttemptCompleted done;
    static_cast<AttemptRecord &>(done) = rec;
    done.fallbackEligible = fallbackEligible;
    emitEvent(run, done);

    if (rec.success) {
        if (run.request.probeRole)
            run.decision = recordText(RecordText::ProbeSucceeded);
        else if (rec.role == Role::Primary)
            run.decision = rec.round == 1 ? recordText(RecordText::PrimarySucceeded)
                                          : recordText(RecordText::PrimarySucceededInRound, { QString::number(rec.round) });
        else if (run.skipped)
            run.decision =
                recordText(RecordText::SkippedPrimaryFallbackSucceeded, { toId(p.primary), run.skipped->why, toId(rec.provider) });
        else
            run.decision = recordText(RecordText::FallbackSucceeded, { enumName(run.primaryFailure->kind), toId(rec.provider) });
        finishRun(run, FinalState::Succeeded, std::nullopt, outcome.output);
        return;
    }

    const Failure &failure = *rec.failure;
    if (run.request.probeRole) {
        run.decision = recordText(RecordText::ProbeFailed, { enumName(failure.kind) });
        finishRun(run, failure.kind == FailureKind::CANCELLED ? FinalState::Cancelled : FinalState::Failed, failure, StageOutput {});
        return;
    }
    if (rec.role == Role::Primary)
        run.primaryFailure = failure;
    if (run.stopping && failure.kind != FailureKind::CANCELLED) {
        // The attempt had already ended (its deadline) when the cancel came; no fallback, no next round.
        run.decision = recordText(RecordText::CancelledAfterAttemptEnded, { enumName(failure.kind) });
        finishRun(run, FinalState::Cancelled,
                  Failure { FailureKind::CANCELLED,
                            recordText(*run.stopping == AbortReason::Shutdown ? RecordText::CancelledShuttingDown
                                                                              : RecordText::CancelledByOperator),
                            false,
                            {} },
                  StageOutput {});
        return;
    }
    if (failure.kind == FailureKind::CANCELLED) {
        run.decision = recordText(RecordText::CancelledNoFallback);
        finishRun(run, FinalState::Cancelled, failure, StageOutput {});
        return;
    }

    // Same provider, another round (the `rounds` preset).
    if (p.retryOn.contains(failure.kind) && rec.round < p.rounds) {
        const milliseconds pause = pauseBefore(p, rec.round + 1, failure);
        if (run.budget.remaining() > pause) {
            emitEvent(run, RetryScheduled { p.stage, rec.provider, rec.role, rec.round + 1, failure.kind, pause });
            const Role role = rec.role;
            const int next = rec.round + 1;
            run.step.emplace<Pausing>().timer = m_clock.arm(m_clock.now() + pause, [this, &run, role, next] {
                run.step.emplace<Deciding>();
                startAttempt(run, role, next);
            });
            return;
        }
        run.decision = recordText(RecordText::NoNextRound, { enumName(failure.kind), QString::number(rec.round + 1) });
        finishRun(run, FinalState::Failed, failure, StageOutput {});
        return;
    }

    if (rec.role == Role::Primary && p.fallback) {
        if (!fallbackEligible) {
            run.decision = recordText(RecordText::NoFallbackBecause, { notEligibleWhy });
        } else if (run.budget.exhausted()) {
            run.decision = recordText(RecordText::NoFallbackBudgetUsed, { QString::number(p.effectiveBudget().count()) });
        } else if (!takeFallbackSlot(run)) {
            run.decision =
                recordText(RecordText::NoFallbackInFlight, { toId(*p.fallback), QString::number(m_admission->inFlight(*p.fallback)) });
        } else {
            // The primary's cancel handlers have already run (inside its runner, before it finished). The
            // fallback is called whatever its breaker says (docs/contract.md §4.1); its gate only tells
            // whether this call is a HALF_OPEN breaker's trial.
            if (m_breakers) {
                const BreakerKey key { *p.fallback, Role::Fallback, p.stage };
                run.holds.trialOf(Role::Fallback)
                    .take(m_breakers, m_clock, key, m_breakers->admit(key, m_clock.now()).verdict == BreakerGate::Trial);
            }
            run.fallbackApplied = true;
            emitEvent(run,
                      FallbackTriggered { p.stage, rec.provider, *p.fallback, failure.kind,
                                          duration_cast<milliseconds>(run.budget.remaining()), fallbackReason(rec.provider, failure) });
            startAttempt(run, Role::Fallback, 1);
            return;
        }
    } else if (rec.role == Role::Fallback && run.skipped) {
        run.decision = recordText(RecordText::SkippedPrimaryFallbackFailed, { toId(p.primary), run.skipped->why, toId(rec.provider) });
    } else if (rec.role == Role::Fallback) {
        run.decision = recordText(RecordText::FallbackFailedToo, { toId(rec.provider) });
    } else if (run.decision.isEmpty()) {
        run.decision = rec.round > 1 ? recordText(RecordText::FailedAfterRounds, { enumName(failure.kind), QString::number(rec.round) })
                                     : recordText(RecordText::NoFallbackConfigured);
    }
    finishRun(run, FinalState::Failed, failure, StageOutput {});
}

bool StageService::fallbackTakes(const StagePolicy &p, const Failure &f, QString *why) const
{
    StageGenerator *fb = generator(*p.fallback);
    if (!p.fallbackOn.contains(f.kind))
        *why = recordText(RecordText::KindNotHandedOn, { enumName(f.kind), p.preset });
    else if (p.fallbackNeedsCapacityMarker && !f.capacity)
        *why = recordText(RecordText::NoCapacityMarker);
    else if (p.fallbackNeedsDistinctModel && !fb->isConfigured())
        *why = recordText(RecordText::FallbackHasNoKey, { toId(*p.fallback) });
    else if (p.fallbackNeedsDistinctModel && fb->provider() == generator(p.primary)->provider()
             && fb->model() == generator(p.primary)->model())
        *why = recordText(RecordText::FallbackIsSameModel);
    else
        return true;
    return false;
}

bool StageService::takeFallbackSlot(Run &run)
{
    if (!m_admission)
        return true;
    run.holds.slot.release();
    // Ahead of anyone waiting for admission: their budgets have not started, this one's has.
    if (!m_admission->tryAcquireNow(*run.policy.fallback))
        return false;
    run.holds.slot.hold(m_admission, *run.policy.fallback);
    return true;
}

void StageService::finishRun(Run &run, FinalState state, std::optional<Failure> failure, StageOutput output)
{
    if (std::holds_alternative<Done>(run.step)) {
        qCWarning(lcService) << "generation" << run.generationId << "finished twice; second final state ignored";
        return;
    }
    // Leaving the step lets go of what it held (a timer, a place in the queue); then the slot, and a
    // trial handed out for an attempt that never ran, which goes back to its breaker (engine/runholds.h).
    run.step.emplace<Done>();
    run.holds.releaseAll();

    StageResult result;
    result.generationId = run.generationId;
    result.state = state;
    result.failure = std::move(failure);
    result.storyboard = std::move(output.storyboard);
    result.captions = std::move(output.captions);
    result.image = std::move(output.image);
    result.imageMime = std::move(output.imageMime);
    result.failedStage = run.policy.stage;
    result.attempts = run.attempts;
    result.decision = run.decision;
    result.elapsed = duration_cast<microseconds>(m_clock.now() - run.requestedAt);
    result.queued = duration_cast<microseconds>(run.queued);
    result.fallback.primaryProvider = run.policy.primary;
    result.fallback.applied = run.fallbackApplied && state == FinalState::Succeeded;
    if (run.skipped)
        result.fallback.reason = run.skipped->reason;
    else if (run.fallbackApplied && run.primaryFailure)
        result.fallback.reason = fallbackReason(run.policy.primary, *run.primaryFailure);
    if (!run.attempts.isEmpty()) {
        const AttemptRecord &last = run.attempts.constLast();
        result.fallback.finalProvider = last.provider;
        result.fallback.finalModelId = last.model;
        if (last.success)
            result.tokens = last.tokens; // the successful provider's usage travels on (docs/contract.md §4.5)
    }

    GenerationFinished fin;
    fin.state = state;
    if (result.failure) {
        fin.publicCode = result.failure->publicCode();
        fin.kind = result.failure->kind;
        fin.stage = result.failedStage;
        fin.detail = result.failure->detail;
    }
    fin.fallbackApplied = result.fallback.applied;
    if (!m_sink)
        emitEvent(run, fin);

    // Retire the run: remove it from the active map now, destroy it from the event loop later, since we
    // may be inside one of its runners' signals.
    const auto it = m_runs.find(run.generationId);
    if (it != m_runs.end()) {
        m_finishedRuns.push_back(std::move(it->second));
        m_runs.erase(it);
        QMetaObject::invokeMethod(
            this, [this] { m_finishedRuns.clear(); }, Qt::QueuedConnection);
    }
    Q_EMIT finished(result);
}

bool StageService::cancel(const QString &generationId, AbortReason reason)
{
    const auto it = m_runs.find(generationId);
    if (it == m_runs.end())
        return false;
    Run &run = *it->second;
    run.stopping = reason;
    if (const Attempting *attempt = std::get_if<Attempting>(&run.step)) {
        attempt->runner->cancel(reason);
        return true;
    }
    // Between rounds, or not begun yet.
    const bool shutdown = reason == AbortReason::Shutdown;
    run.decision = recordText(shutdown ? RecordText::ShutDownBeforeNextAttempt : RecordText::CancelledBeforeNextAttempt);
    if (std::holds_alternative<Starting>(run.step) && !m_sink)
        emitEvent(run, GenerationStarted::of(run.policy, run.request.userId));
    finishRun(
        run, FinalState::Cancelled,
        Failure {
            FailureKind::CANCELLED, recordText(shutdown ? RecordText::CancelledShuttingDown : RecordText::CancelledByOperator), false, {} },
        StageOutput {});
    return true;
}

void StageService::shutdown()
{
    std::vector<QString> ids;
    for (const auto &entry : m_runs)
        ids.push_back(entry.first);
    for (const QString &id : ids) {
        const auto it = m_runs.find(id);
        if (it == m_runs.end())
            continue;
        Run &run = *it->second;
        run.stopping = AbortReason::Shutdown;
        if (const Attempting *attempt = std::get_if<Attempting>(&run.step)) {
            attempt->runner->cancel(AbortReason::Shutdown);
        } else {
            run.decision = recordText(RecordText::ShutDownBeforeNextAttempt);
            finishRun(run, FinalState::Cancelled,
                      Failure { FailureKind::CANCELLED, recordText(RecordText::CancelledShuttingDown), false, {} }, StageOutput {});
        }
    }
    m_finishedRuns.clear();
}

milliseconds StageService::pauseBefore(const StagePolicy &p, int round, const Failure &failure)
{
    if (!p.exponentialBackoff)
        return p.roundPause;
    // base · 2^(round-2) for the pause before `round`, randomised by ±jitter, capped; never shorter than
    // what the provider asked for (Retry-After), even beyond the cap.
    const double base = static_cast<double>(p.roundPause.count()) * std::pow(2.0, std::max(0, round - 2));
    const double jitter = 1.0 + p.backoffJitter * (2.0 * m_random.generateDouble() - 1.0);
    auto pause = milliseconds(std::llround(std::min(base * jitter, static_cast<double>(p.backoffMax.count()))));
    if (failure.retryAfter && *failure.retryAfter > pause)
        pause = *failure.retryAfter;
    return pause;
}

void StageService::emitEvent(Run &run, EventBody body)
{
    if (m_sink) {
        m_sink(run.generationId, std::move(body));
        return;
    }
    Event e;
    e.generationId = run.generationId;
    e.sequence = run.nextSequence++;
    e.at = duration_cast<microseconds>(m_clock.now() - run.requestedAt);
    e.wallTime = QDateTime::currentDateTimeUtc();
    e.body = std::move(body);
    Q_EMIT eventRecorded(e);
}

} // namespace bullpen
