// SPDX-License-Identifier: MIT
#include "prober.h"

#include "engine/stageservice.h"
#include "pipeline/engineclient.h"
#include "store/proberecords.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcProbe, "bullpen.probe")

namespace bullpen {

using namespace std::chrono;

Prober::Prober(EngineClient &engine, BreakerBoard &breakers, const Clock &clock, const PipelineOptions &options,
               std::unique_ptr<ProbeRecords> records, milliseconds every, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_breakers(breakers)
    , m_clock(clock)
    , m_targets(targetsOf(options))
    , m_records(std::move(records))
    , m_every(every)
{
    // Often enough that a target is probed soon after its interval ends, seldom enough to cost nothing.
    m_timer.setInterval(std::clamp<milliseconds>(every / 4, 250ms, 5s));
    connect(&m_timer, &QTimer::timeout, this, &Prober::tick);
    connect(&m_engine, &EngineClient::finished, this, &Prober::onFinished);
}

Prober::~Prober() = default;

QList<ProbeTarget> Prober::targetsOf(const PipelineOptions &options)
{
    QList<ProbeTarget> out;
    const auto add = [&out](const StagePolicy &p) {
        out << ProbeTarget { p.primary, Role::Primary, p.stage };
        if (p.fallback)
            out << ProbeTarget { *p.fallback, Role::Fallback, p.stage };
    };
    add(options.storyboard);
    if (options.captionsEnabled)
        add(options.captions);
    add(options.image);
    return out;
}

void Prober::start()
{
    m_timer.start();
    tick();
}

void Prober::stop()
{
    m_timer.stop();
}

void Prober::tick()
{
    QString why;
    if (m_records && !m_records->lead(&why)) {
        if (!why.isEmpty() && why != m_lastError)
            qCWarning(lcProbe) << "probes: cannot ask the store which engine probes:" << why;
        m_lastError = why;
        m_lead = false;
        return; // another engine probes
    }
    m_lead = true;
    // The store's rows carry wall time: "traffic in the last interval" is asked in it, up to one
    // interval ahead for engines whose clocks run a little ahead of this one's; rows further ahead were
    // written before the wall clock stepped back.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    std::optional<QSet<QString>> recent =
        m_records ? m_records->recentTraffic(now - m_every.count(), now + m_every.count(), &why) : QSet<QString> {};
    if (!recent) {
        if (why != m_lastError)
            qCWarning(lcProbe) << "probes: cannot read recent traffic from the store:" << why << "; no probe until it answers";
        m_lastError = why;
        return;
    }
    m_lastError.clear();
    const Clock::time_point steadyNow = m_clock.now(); // the engine's, as its breakers read time
    for (const ProbeTarget &t : std::as_const(m_targets)) {
        ProbeStatus::Held &held = m_held[t];
        if (std::any_of(m_running.begin(), m_running.end(), [&t](const auto &run) { return run.second == t; })) {
            held = ProbeStatus::Held::Running;
            continue;
        }
        const BreakerGate gate = m_breakers.peek(BreakerKey { t.provider, t.role, t.stage }, steadyNow);
        if (gate.verdict == BreakerGate::Skip) {
            held = ProbeStatus::Held::Breaker;
            continue; // open (its cooldown runs) or drained
        }
        const auto last = m_lastStart.find(t);
        const bool probedLately = last != m_lastStart.end() && steadyNow - last->second < m_every; // its record may still be on the way
        const bool busy = recent->contains(t.toString());
        if (gate.verdict != BreakerGate::Trial && (probedLately || busy)) {
            held = busy ? ProbeStatus::Held::Traffic : ProbeStatus::Held::None;
            continue; // it has traffic: a probe would tell nothing new
        }
        held = ProbeStatus::Held::None;
        GenerationRequest request;
        request.probe = t;
        request.fresh = true;
        // Running before start(): an engine that refuses at once finishes the probe inside start(), and a
        // target marked running after that would never be probed again.
        request.generationId = StageService::newGenerationId();
        m_running.emplace(request.generationId, t);
        const QDateTime startedAt = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC); // shown only
        m_startedAt.emplace(request.generationId, startedAt);
        const QString id = m_engine.start(request);
        if (id != request.generationId) { // an engine that names its generations itself
            m_running.erase(request.generationId);
            m_running.emplace(id, t);
            m_startedAt.emplace(id, startedAt);
            m_startedAt.erase(request.generationId);
        }
        m_lastStart[t] = steadyNow;
        qCInfo(lcProbe) << "probe" << t.toString() << id << (gate.verdict == BreakerGate::Trial ? "(the half-open breaker's trial)" : "");
        Q_EMIT probeStarted(t, id);
    }
}

void Prober::onFinished(const GenerationResult &result)
{
    const auto it = m_running.find(result.generationId);
    if (it == m_running.end())
        return;
    qCInfo(lcProbe) << "probe" << it->second.toString() << (result.state == FinalState::Succeeded ? "ok" : "failed")
                    << (result.failure ? enumName(result.failure->kind) : QString()) << duration_cast<milliseconds>(result.elapsed).count()
                    << "ms";
    ProbeStatus::Last &last = m_last[it->second];
    last.generationId = result.generationId;
    const auto started = m_startedAt.find(result.generationId);
    last.startedAt = started != m_startedAt.end() ? started->second : QDateTime(); // null: not known
    last.ok = result.state == FinalState::Succeeded;
    last.kind = result.failure ? std::optional<FailureKind>(result.failure->kind) : std::nullopt;
    last.duration = duration_cast<milliseconds>(result.elapsed);
    if (started != m_startedAt.end())
        m_startedAt.erase(started);
    m_running.erase(it);
}

QList<ProbeStatus> Prober::status() const
{
    // Due again one interval after this engine's last probe (at once if it never probed), at the first
    // tick from then; traffic or a breaker may hold it longer, as `held` says. Measured on the engine's
    // clock, shown in wall time.
    const auto steadyNow = m_clock.now();
    const QDateTime wallNow = QDateTime::currentDateTimeUtc();
    const auto nextTick = steadyNow + (m_timer.isActive() ? m_timer.remainingTimeAsDuration() : milliseconds(0));
    QList<ProbeStatus> out;
    for (const ProbeTarget &t : m_targets) {
        ProbeStatus s;
        s.target = t;
        s.running = std::any_of(m_running.begin(), m_running.end(), [&t](const auto &run) { return run.second == t; });
        if (const auto l = m_last.find(t); l != m_last.end())
            s.last = l->second;
        if (const auto h = m_held.find(t); h != m_held.end())
            s.held = h->second;
        if (!s.running) {
            const auto started = m_lastStart.find(t);
            const auto due = std::max(started == m_lastStart.end() ? steadyNow : started->second + m_every, nextTick);
            s.nextDue = wallNow.addMSecs(duration_cast<milliseconds>(due - steadyNow).count());
        }
        out << s;
    }
    return out;
}

} // namespace bullpen
