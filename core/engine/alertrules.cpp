// SPDX-License-Identifier: MIT
#include "alertrules.h"

namespace bullpen {

using namespace std::chrono_literals;

namespace {

// A breaker not closed, as bullpen_breaker_state > 0 (1 half-open, 2 open); a closed one is its series'
// latest sample, 0, which ends its alert.
std::vector<AlertSample> breakersNotClosed(const AlertFacts &f)
{
    std::vector<AlertSample> out;
    for (const BreakerView &b : f.breakers) {
        const double state = b.state == BreakerState::Open ? 2.0 : b.state == BreakerState::HalfOpen ? 1.0 : 0.0;
        out.push_back({ b.key.toString(), state, state > 0 });
    }
    return out;
}

std::vector<AlertSample> drainedProviders(const AlertFacts &f)
{
    std::vector<AlertSample> out;
    for (const Drain &d : f.drains) {
        const QString p = toId(d.provider);
        if (std::none_of(out.begin(), out.end(), [&](const AlertSample &s) { return s.labels == p; }))
            out.push_back({ p, 1.0 });
    }
    return out;
}

} // namespace

QString AlertRule::runbookUrl() const
{
    return QStringLiteral("docs/operations.md#") + QString::fromLatin1(name).toLower();
}

const std::vector<AlertRule> &alertRules()
{
    static const std::vector<AlertRule> rules {
        // The breaker half of the rule; its ratio half (5 minutes of attempts) is Prometheus's.
        { "BullpenProviderFailingNow", "critical", 1min, 2min, breakersNotClosed },
        { "BullpenBreakerOpen", "warning", 10min, 2min, breakersNotClosed },
        { "BullpenProviderDrainedLong", "info", 2h, 0s, drainedProviders },
        { "BullpenProbeFailing", "warning", 5min, 0s, {}, "Prometheus: probe counters over 15 minutes" },
        { "BullpenFallbackRateHigh", "warning", 15min, 0s, {}, "Prometheus: the rate over every engine" },
        { "BullpenStoreUnreachable", "critical", 2min, 0s,
          [](const AlertFacts &f) {
              return f.storeReachable ? std::vector<AlertSample> {} : std::vector<AlertSample> { { QString(), 1.0 } };
          } },
        { "BullpenWriteBacklogGrowing", "warning", 10min, 0s, {}, "Prometheus: the backlog's slope over 10 minutes" },
        { "BullpenEngineDown", "critical", 2min, 0s, {}, "Prometheus: an engine cannot report itself down" },
        { "BullpenEngineAbsent", "critical", 5min, 0s, {}, "Prometheus: an engine cannot report itself absent" },
        { "BullpenDailySpendOverBudget", "warning", 5min, 0s, {}, "Prometheus: spend over 24 hours across every engine" },
    };
    return rules;
}

} // namespace bullpen
