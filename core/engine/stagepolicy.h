// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QMetaType>
#include <QString>

#include <chrono>
#include <initializer_list>
#include <optional>

namespace bullpen {

// A small set of failure kinds.
class KindSet
{
public:
    constexpr KindSet() = default;
    KindSet(std::initializer_list<FailureKind> kinds)
    {
        for (FailureKind k : kinds)
            insert(k);
    }
    void insert(FailureKind k) { m_bits |= bit(k); }
    bool contains(FailureKind k) const { return (m_bits & bit(k)) != 0; }
    bool isEmpty() const { return m_bits == 0; }
    QStringList names() const;
    friend bool operator==(const KindSet &, const KindSet &) = default;

private:
    static quint32 bit(FailureKind k) { return 1u << static_cast<unsigned>(k); }
    quint32 m_bits = 0;
};

// The routing policy of one stage (docs/contract.md §4): which provider goes first, who may take over from it, on which
// kinds, how long each may take, and how many same-provider rounds there are. The three presets are
// data fed to one flow (StageService), not three copies of it.
struct StagePolicy
{
    Stage stage = Stage::Storyboard;
    QString preset = QStringLiteral("relief");
    Provider primary = Provider::Gemini;
    std::optional<Provider> fallback; // none by default: no automatic fallback
    std::chrono::milliseconds primaryTimeout { 60'000 };
    std::chrono::milliseconds fallbackTimeout { 60'000 };
    std::optional<std::chrono::milliseconds> totalBudget; // unset: derived, see effectiveBudget()

    KindSet fallbackOn;
    bool fallbackNeedsCapacityMarker = false; // `capacity`: only capacity-marked TRANSIENT_SERVER
    bool fallbackNeedsDistinctModel = false; // `capacity`: fallback must have a key and differ in provider+model

    int rounds = 1; // calls of the same provider per role; 1 = no same-provider retry
    std::chrono::milliseconds roundPause { 0 };
    KindSet retryOn;
    // Pause between rounds grows as base * 2^(round-1), randomised by ±jitter, capped, and never shorter
    // than the provider's Retry-After (the image stage). Off: roundPause as is.
    bool exponentialBackoff = false;
    std::chrono::milliseconds backoffMax { 8'000 };
    double backoffJitter = 0.25;

    // docs/contract.md §4.2: primary + fallback when a fallback is set, else the primary timeout alone. With rounds,
    // each round and pause (the longest backoff, when exponential) is included so that a later round is
    // not starved by construction.
    std::chrono::milliseconds effectiveBudget() const;

    static StagePolicy relief(Provider primary, std::optional<Provider> fallback);
    static StagePolicy capacity(Provider primary, std::optional<Provider> fallback);
    static StagePolicy sameProviderRounds(Provider primary);
    // docs/contract.md §2: the image stage's own settings: primary only, 90 s per try, up to 2 inner retries with
    // exponential backoff on 429/5xx honouring Retry-After.
    static StagePolicy imageStage(Provider provider, std::chrono::milliseconds timeout = std::chrono::seconds(90), int innerRetries = 2);
    // docs/contract.md §2: captions are nice to have: one try, a short deadline (25 s), no fallback.
    static StagePolicy captionsStage(Provider provider);
    // "relief", "capacity" or "rounds"; nothing for an unknown name.
    static std::optional<StagePolicy> fromPreset(QStringView name, Provider primary, std::optional<Provider> fallback);
    static QStringList presetNames();
    // This policy's preset, providers, timeouts and budget with the preset's routing re-applied (after
    // the preset or a provider changed); nothing for an unknown preset.
    std::optional<StagePolicy> routed() const;
    // This policy with `other`'s timeouts and total budget.
    StagePolicy withLimitsOf(const StagePolicy &other) const;

    friend bool operator==(const StagePolicy &, const StagePolicy &) = default;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::StagePolicy)
