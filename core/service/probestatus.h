// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providerrolestage.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>

#include <chrono>
#include <optional>

namespace bullpen {

// What this engine's prober (docs/contract.md §13) says of one target: its last probe, whether one runs,
// why the last round left it alone and when it is due next. GET /v1/providers carries the list as its
// `probes` (docs/api.md, "Providers"); the Control view shows it.
struct ProbeStatus
{
    // Why the prober's last round sent no probe to this target (none: it was sent one, or is due).
    enum class Held { None, Traffic, Breaker, Running };

    struct Last
    {
        QString generationId;
        QDateTime startedAt; // wall time, UTC: shown, never measured with
        bool ok = false;
        std::optional<FailureKind> kind;
        std::chrono::milliseconds duration { 0 };
    };

    ProbeTarget target;
    std::optional<Last> last; // none: not probed by this engine since it started
    bool running = false;
    Held held = Held::None;
    std::optional<QDateTime> nextDue; // none while one runs

    static QString heldId(Held held); // null JSON for None; "traffic", "breaker", "running"
    QJsonObject toJson() const;
};

// The whole `probes` object: {"every_ms", "lead", "targets": [...]}; `lead` is false while another engine
// on the store holds the probers' lock (it probes, this one waits).
QJsonObject probesJson(std::chrono::milliseconds every, bool lead, const QList<ProbeStatus> &targets);

} // namespace bullpen
