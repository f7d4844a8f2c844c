// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerrolestage.h"
#include "engine/breakerboard.h"
#include "pipeline/generationpipeline.h"
#include "probestatus.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <map>
#include <memory>

namespace bullpen {

class EngineClient;
class ProbeRecords;
struct GenerationResult;

// Probes (docs/contract.md §13, `bullpen-engine --probe-every`): every provider in every role of every
// stage the engine's policies name gets one minimal synthetic generation when it has had no traffic
// (users' or probes', from any engine on the store) for the whole interval, and at once when its
// breaker is HALF_OPEN and no request has taken the trial. Never one while its breaker is open or it is
// drained, never two at once for one target, and on PostgreSQL only on the engine holding the probers'
// lock. Probes are recorded as synthetic and kept out of every user-facing figure.
class Prober final : public QObject
{
    Q_OBJECT
public:
    // `clock`: the engine's (EngineContext::clock), which its breakers' times are read on.
    Prober(EngineClient &engine, BreakerBoard &breakers, const Clock &clock, const PipelineOptions &options,
           std::unique_ptr<ProbeRecords> records, std::chrono::milliseconds every, QObject *parent = nullptr);
    ~Prober() override;

    // Every target of these policies: primary and fallback of the storyboard, captions (when on) and image.
    static QList<ProbeTarget> targetsOf(const PipelineOptions &options);
    void start();
    void stop();
    // Starts what is due now (the timer calls it; tests may too).
    void tick();
    // What the prober knows of each target now (GET /v1/providers' `probes`), in targetsOf's order.
    QList<ProbeStatus> status() const;
    // False while another engine on the store holds the probers' lock.
    bool leads() const { return m_lead; }
    std::chrono::milliseconds every() const { return m_every; }

Q_SIGNALS:
    void probeStarted(const bullpen::ProbeTarget &target, const QString &generationId);

private:
    void onFinished(const GenerationResult &result);

    EngineClient &m_engine;
    BreakerBoard &m_breakers;
    const Clock &m_clock;
    QList<ProbeTarget> m_targets;
    std::unique_ptr<ProbeRecords> m_records;
    std::chrono::milliseconds m_every;
    QTimer m_timer;
    std::map<QString, ProbeTarget> m_running; // generation id → target
    std::map<QString, QDateTime> m_startedAt; // generation id → wall time it started (shown only)
    std::map<ProbeTarget, ProbeStatus::Last> m_last; // each target's last finished probe
    std::map<ProbeTarget, ProbeStatus::Held> m_held; // why the last round left it alone
    bool m_lead = true;
    // This engine's last probe of each target, on the steady clock (a wall-clock step must not make a
    // target look probed for hours, or never).
    std::map<ProbeTarget, std::chrono::steady_clock::time_point> m_lastStart;
    QString m_lastError; // said once
};

} // namespace bullpen
