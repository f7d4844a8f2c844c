// SPDX-License-Identifier: MIT
#include "stagepolicy.h"

#include <QMetaEnum>

namespace bullpen {

using namespace std::chrono_literals;

QStringList KindSet::names() const
{
    QStringList out;
    const QMetaEnum me = QMetaEnum::fromType<FailureKind>();
    for (int i = 0; i < me.keyCount(); ++i) {
        if (contains(static_cast<FailureKind>(me.value(i))))
            out << QString::fromLatin1(me.key(i));
    }
    return out;
}

std::chrono::milliseconds StagePolicy::effectiveBudget() const
{
    if (totalBudget)
        return *totalBudget;
    const int n = std::max(rounds, 1);
    // Every round with its full timeout, plus the longest pause between rounds.
    const std::chrono::milliseconds pause = exponentialBackoff ? std::max(backoffMax, roundPause) : roundPause;
    auto budget = primaryTimeout * n + pause * (n - 1);
    if (fallback)
        budget += fallbackTimeout * n + pause * (n - 1);
    return budget;
}

StagePolicy StagePolicy::relief(Provider primary, std::optional<Provider> fallback)
{
    StagePolicy p;
    p.preset = QStringLiteral("relief");
    p.primary = primary;
    p.fallback = fallback;
    p.fallbackOn = { FailureKind::TIMEOUT,        FailureKind::RATE_LIMITED, FailureKind::QUOTA_EXHAUSTED, FailureKind::OUTPUT_TRUNCATED,
                     FailureKind::OUTPUT_INVALID, FailureKind::NETWORK,      FailureKind::TRANSIENT_SERVER };
    return p;
}

StagePolicy StagePolicy::capacity(Provider primary, std::optional<Provider> fallback)
{
    StagePolicy p;
    p.preset = QStringLiteral("capacity");
    p.primary = primary;
    p.fallback = fallback;
    p.fallbackOn = { FailureKind::TRANSIENT_SERVER };
    p.fallbackNeedsCapacityMarker = true;
    p.fallbackNeedsDistinctModel = true;
    return p;
}

StagePolicy StagePolicy::sameProviderRounds(Provider primary)
{
    StagePolicy p;
    p.preset = QStringLiteral("rounds");
    p.primary = primary;
    p.fallback = std::nullopt; // never switches provider
    p.rounds = 2;
    p.roundPause = 4s;
    // 409/429/5xx, connection errors (timeouts included) and unusable output
    p.retryOn = { FailureKind::RATE_LIMITED, FailureKind::TRANSIENT_SERVER, FailureKind::NETWORK,
                  FailureKind::TIMEOUT,      FailureKind::OUTPUT_TRUNCATED, FailureKind::OUTPUT_INVALID };
    return p;
}

StagePolicy StagePolicy::imageStage(Provider provider, std::chrono::milliseconds timeout, int innerRetries)
{
    StagePolicy p;
    p.stage = Stage::Image;
    p.preset = QStringLiteral("image");
    p.primary = provider;
    p.primaryTimeout = timeout;
    p.rounds = 1 + std::max(innerRetries, 0); // each retry is a recorded round, never a hidden resend
    p.roundPause = 1s;
    p.exponentialBackoff = true;
    p.retryOn = { FailureKind::RATE_LIMITED, FailureKind::TRANSIENT_SERVER };
    return p; // budget: effectiveBudget() counts every try and the longest pauses
}

StagePolicy StagePolicy::captionsStage(Provider provider)
{
    StagePolicy p;
    p.stage = Stage::Captions;
    p.preset = QStringLiteral("captions");
    p.primary = provider;
    p.primaryTimeout = 25s;
    return p;
}

std::optional<StagePolicy> StagePolicy::fromPreset(QStringView name, Provider primary, std::optional<Provider> fallback)
{
    if (name == u"relief")
        return relief(primary, fallback);
    if (name == u"capacity")
        return capacity(primary, fallback);
    if (name == u"rounds")
        return sameProviderRounds(primary);
    return std::nullopt;
}

QStringList StagePolicy::presetNames()
{
    return { QStringLiteral("relief"), QStringLiteral("capacity"), QStringLiteral("rounds") };
}

std::optional<StagePolicy> StagePolicy::routed() const
{
    const std::optional<StagePolicy> p = fromPreset(preset, primary, fallback);
    if (!p)
        return std::nullopt;
    return p->withLimitsOf(*this);
}

StagePolicy StagePolicy::withLimitsOf(const StagePolicy &other) const
{
    StagePolicy p = *this;
    p.primaryTimeout = other.primaryTimeout;
    p.fallbackTimeout = other.fallbackTimeout;
    p.totalBudget = other.totalBudget;
    return p;
}

} // namespace bullpen
