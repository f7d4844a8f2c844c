// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace bullpen {

// One completed attempt as the health summary reads it (a row of the store's attempts).
struct CompletedAttempt
{
    QString generationId;
    Stage stage = Stage::Storyboard;
    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    bool success = false;
    std::optional<FailureKind> kind; // a failure's kind
    double durationMs = 0;
};

// How one provider in one role of one stage has been doing over a window (docs/contract.md §9.8): what
// the console's health strip shows per provider, role and stage for the last 5 and 15 minutes. Per stage
// because a provider's stages fail apart: a storyboard primary failing every request must not read as
// degraded because the same provider's images succeed.
//
// Attempts that never reached the provider (NOT_SENT) or that an operator or the engine cancelled
// (CANCELLED) are counted apart: they say nothing about the provider.
struct ProviderHealth
{
    enum class State { TooFew, Healthy, Degraded, Failing };

    // The "failing now" rule, stated once for the tooltip, the README and the tests: over the window,
    // at least kMinAttempts attempts reached the provider and kFailingPercent % or more of them failed.
    // Degraded: the same minimum and kDegradedPercent % or more. Below the minimum: TooFew (grey), never
    // healthy on one or two attempts.
    static constexpr qint64 kMinAttempts = 5;
    static constexpr double kFailingPercent = 50.0;
    static constexpr double kDegradedPercent = 10.0;

    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    Stage stage = Stage::Storyboard;
    qint64 attempts = 0; // reached the provider
    qint64 failures = 0;
    qint64 notProviders = 0; // NOT_SENT and CANCELLED, not in `attempts`
    std::optional<FailureKind> topKind; // the most frequent failure kind (ties: the first in the enum)
    qint64 topKindCount = 0;
    qint64 primaryFailures = 0; // role Primary: failed attempts
    qint64 handedToFallback = 0; // of those, the ones whose stage then gave a fallback provider its attempt
    double p50Ms = 0; // over `attempts`, successes and failures alike; 0 when there are none
    double p90Ms = 0;
    // The latest probe of this provider, role and stage (docs/contract.md §13). Probes are synthetic: they
    // are in none of the figures above, which are users' attempts only.
    struct Probe
    {
        qint64 atMs = 0;
        bool ok = false;
        std::optional<FailureKind> kind; // a failed probe's kind
        double durationMs = 0;
        friend bool operator==(const Probe &, const Probe &) = default;
    };
    std::optional<Probe> lastProbe;

    double errorPercent() const { return attempts ? 100.0 * double(failures) / double(attempts) : 0.0; }
    // Role Primary: of its failed attempts, the share handed to the fallback; nothing without failures.
    std::optional<double> fallbackPercent() const
    {
        return primaryFailures ? std::optional(100.0 * double(handedToFallback) / double(primaryFailures)) : std::nullopt;
    }
    State state() const;

    // One entry per provider, role and stage that has any attempt: providers in enum order, primary
    // first, stages in enum order.
    static QList<ProviderHealth> summarise(const QList<CompletedAttempt> &attempts);
    // Puts each probe on its provider, role and stage's entry (the latest one wins), adding an entry
    // with no users' attempts for a probe of an idle one; keeps summarise()'s order.
    static void addProbes(QList<ProviderHealth> &health, const QList<CompletedAttempt> &probes, const QList<qint64> &probeTimesMs);
};

// Linear interpolation between the closest ranks (what the /v1/stats/providers summary and the health
// strip both use); 0 for no values.
double interpolatedPercentile(std::vector<double> values, double p);

} // namespace bullpen
