// SPDX-License-Identifier: MIT
#include "providerhealth.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace bullpen {

double interpolatedPercentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = std::clamp(p, 0.0, 1.0) * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = static_cast<std::size_t>(std::ceil(rank));
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

ProviderHealth::State ProviderHealth::state() const
{
    if (attempts < kMinAttempts)
        return State::TooFew;
    const double e = errorPercent();
    return e >= kFailingPercent ? State::Failing : e >= kDegradedPercent ? State::Degraded : State::Healthy;
}

QList<ProviderHealth> ProviderHealth::summarise(const QList<CompletedAttempt> &attempts)
{
    // Stages that gave a fallback provider its attempt: a failed primary of that stage was handed to the fallback.
    QSet<QString> fallbackStages;
    for (const CompletedAttempt &a : attempts) {
        if (a.role == Role::Fallback)
            fallbackStages.insert(a.generationId + QLatin1Char('/') + toId(a.stage));
    }
    struct Sums
    {
        ProviderHealth health;
        std::map<FailureKind, qint64> kinds;
        std::vector<double> durations;
    };
    std::map<std::tuple<Provider, Role, Stage>, Sums> by;
    for (const CompletedAttempt &a : attempts) {
        Sums &s = by[{ a.provider, a.role, a.stage }];
        s.health.provider = a.provider;
        s.health.role = a.role;
        s.health.stage = a.stage;
        if (!a.success && a.kind && (*a.kind == FailureKind::NOT_SENT || *a.kind == FailureKind::CANCELLED)) {
            ++s.health.notProviders;
            continue;
        }
        ++s.health.attempts;
        s.durations.push_back(a.durationMs);
        if (a.success)
            continue;
        ++s.health.failures;
        ++s.kinds[a.kind.value_or(FailureKind::UNKNOWN)];
        if (a.role == Role::Primary) {
            ++s.health.primaryFailures;
            if (fallbackStages.contains(a.generationId + QLatin1Char('/') + toId(a.stage)))
                ++s.health.handedToFallback;
        }
    }
    QList<ProviderHealth> out;
    for (auto &[key, s] : by) {
        for (const auto &[kind, n] : s.kinds) {
            if (n > s.health.topKindCount) {
                s.health.topKind = kind;
                s.health.topKindCount = n;
            }
        }
        s.health.p50Ms = interpolatedPercentile(s.durations, 0.5);
        s.health.p90Ms = interpolatedPercentile(s.durations, 0.9);
        out << s.health;
    }
    return out;
}

void ProviderHealth::addProbes(QList<ProviderHealth> &health, const QList<CompletedAttempt> &probes, const QList<qint64> &probeTimesMs)
{
    const auto keyOf = [](const ProviderHealth &h) {
        return std::tuple(h.provider, h.role, h.stage);
    };
    for (qsizetype i = 0; i < probes.size() && i < probeTimesMs.size(); ++i) {
        const CompletedAttempt &a = probes.at(i);
        const Probe probe { probeTimesMs.at(i), a.success, a.kind, a.durationMs };
        auto it = std::find_if(health.begin(), health.end(),
                               [&](const ProviderHealth &h) { return keyOf(h) == std::tuple(a.provider, a.role, a.stage); });
        if (it == health.end()) {
            ProviderHealth idle;
            idle.provider = a.provider;
            idle.role = a.role;
            idle.stage = a.stage;
            health << idle;
            it = health.end() - 1;
        }
        if (!it->lastProbe || it->lastProbe->atMs <= probe.atMs)
            it->lastProbe = probe;
    }
    std::stable_sort(health.begin(), health.end(), [&](const ProviderHealth &a, const ProviderHealth &b) { return keyOf(a) < keyOf(b); });
}

} // namespace bullpen
