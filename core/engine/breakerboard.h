// SPDX-License-Identifier: MIT
#pragma once

#include "breakersettings.h"
#include "clock.h"
#include "contract/enums.h"
#include "contract/providerrolestage.h"
#include "engine/stageresult.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace bullpen {

// One breaker: a provider in one role of one stage ("gemini/primary/storyboard").
using BreakerKey = ProviderRoleStage;

enum class BreakerState { Closed, Open, HalfOpen };
QString toId(BreakerState state); // closed, open, half_open

// How one finished attempt counts (docs/contract.md §13): the kinds that blame the provider count as
// failures; a refusal or a rejected request reached the provider and counts as an attempt that did not
// fail it; cancelled, not sent and our own faults are not counted at all.
enum class BreakerCount { Success, Blamed, Neutral, Ignored };
BreakerCount breakerCount(const AttemptRecord &record);
BreakerCount breakerCount(std::optional<FailureKind> kind);

// A drain: an operator's decision that a provider (or one role or stage of it) gets no traffic that a
// fallback can take, until restored or until `until`.
struct Drain
{
    Provider provider = Provider::Gemini;
    std::optional<Role> role; // none: every role
    std::optional<Stage> stage; // none: every stage
    QString reason;
    QString by; // the token's name, or "console"
    QDateTime since;
    std::optional<QDateTime> until;
    bool covers(const BreakerKey &key) const;
    friend bool operator==(const Drain &, const Drain &) = default;
};

// Which drains of a provider a restore ends (docs/api.md, "Providers"): a role or stage given ends only
// the drains made for exactly that role or stage; one left out, the drains of any.
struct DrainScope
{
    std::optional<Role> role;
    std::optional<Stage> stage;
    bool matches(const Drain &drain) const { return (!role || drain.role == role) && (!stage || drain.stage == stage); }
};

// What the gate says about sending a request to a provider now.
struct BreakerGate
{
    enum Verdict { Pass, Trial, Skip };
    Verdict verdict = Pass;
    // For a skip: "open", "half_open" or "drained", since when, and why, in words.
    QString state;
    QDateTime since;
    QString why;
};

// A breaker or drain as the console, the API and the metrics show it.
struct BreakerView
{
    BreakerKey key;
    BreakerState state = BreakerState::Closed;
    QDateTime since; // of the current state
    std::chrono::milliseconds cooldown { 0 }; // the current one, while OPEN or HALF_OPEN
    std::optional<QDateTime> retryAt; // OPEN: when the next request becomes the trial
    // An OPEN breaker whose wait is over is shown HALF_OPEN (the next request is its trial), as the
    // engine will treat it, even before a request arrives to make it so.
    int attempts = 0; // counted in the window (CLOSED)
    int failures = 0;
    int opened = 0; // times this breaker opened since the engine started
    QString reason; // why it opened
};

struct BreakerChange
{
    QString type; // breaker_opened, breaker_half_open, breaker_closed, provider_drained, provider_restored
    BreakerKey key;
    std::optional<Drain> drain; // provider_drained / provider_restored
    QString reason;
    QDateTime at;
};

// Every breaker and drain of one engine, shared by all its stages and engine threads (so it locks).
// Times come from the callers' Clock (the same steady clock for every thread in production, a
// ManualClock in tests); drains' `until` is wall time, from `wallNow`.
class BreakerBoard final : public QObject
{
    Q_OBJECT
public:
    explicit BreakerBoard(BreakerSettings settings, QObject *parent = nullptr);
    ~BreakerBoard() override;

    const BreakerSettings &settings() const { return m_settings; }
    void setWallClock(std::function<QDateTime()> wallNow) { m_wallNow = std::move(wallNow); }
    // Where the cooldown's jitter is drawn from: a number in [0, 1). QRandomGenerator::global() unless a
    // test injects a seeded or fixed source.
    void setRandom(std::function<double()> random) { m_random = std::move(random); }
    // Whether state changes are logged (bullpen.breaker). Off for a board that only replays history
    // (the tuner's, core/tuning/tunebreaker.cpp): its openings are predictions, not events of this engine.
    void setLogged(bool logged) { m_logged = logged; }

    // May a request go to `key` now? A Trial is the one request a HALF_OPEN breaker lets through: pass
    // `trial = true` to record() with its outcome. Drains are obeyed even with breakers off.
    BreakerGate admit(const BreakerKey &key, Clock::time_point now);
    // The gate as admit() would say it, taking nothing (no trial is handed out).
    BreakerGate peek(const BreakerKey &key, Clock::time_point now) const;
    void record(const BreakerKey &key, BreakerCount count, bool trial, Clock::time_point now, std::optional<FailureKind> kind = {});

    // Replaces any drain with the same provider, role and stage. Returns the drain as stored.
    Drain drain(Drain drain);
    // Removes the drains of `provider` that `scope` matches (all of them by default); returns how many.
    int restore(Provider provider, const QString &by, const QString &reason = {}, const DrainScope &scope = {});
    std::vector<Drain> drains() const;
    // An operator's reset of one breaker (docs/api.md, "Providers"): an OPEN or HALF_OPEN breaker is
    // CLOSED at once with an empty window and its first cooldown again (breaker_closed is announced);
    // a CLOSED one only forgets its window. Returns whether the breaker was open or half-open.
    bool reset(const BreakerKey &key, const QString &by, const QString &reason, Clock::time_point now);
    // Makes the drains exactly `drains` (those a shared store holds), announcing each one that begins
    // and each one that ends.
    void replaceDrains(std::vector<Drain> drains);
    // Every breaker that has seen an attempt, in key order.
    std::vector<BreakerView> breakers(Clock::time_point now) const;

Q_SIGNALS:
    // From whichever thread caused it; connect with the receiver's thread in mind (AutoConnection queues).
    void changed(const bullpen::BreakerChange &change);

private:
    struct Bucket
    {
        Clock::time_point start;
        int attempts = 0;
        int failures = 0;
        std::array<int, 16> kinds {};
    };
    struct Breaker
    {
        BreakerState state = BreakerState::Closed;
        std::deque<Bucket> buckets;
        Clock::time_point changedAt;
        QDateTime since;
        std::chrono::milliseconds cooldown { 0 }; // nominal: what doubles
        std::chrono::milliseconds wait { 0 }; // the cooldown with its jitter: OPEN until changedAt + wait
        bool trialOut = false;
        std::optional<Clock::time_point> trialSentAt; // the trial out, when it was let through
        std::deque<Clock::time_point> inARow; // the current row of blamed failures within the window (at most min_attempts)
        int opened = 0;
        QString reason;
    };
    std::chrono::milliseconds bucketWidth() const;
    void prune(Breaker &b, Clock::time_point now) const;
    BreakerChange open(const BreakerKey &key, Breaker &b, Clock::time_point now, std::chrono::milliseconds cooldown, QString reason);
    BreakerGate gateLocked(const BreakerKey &key, Clock::time_point now, std::vector<BreakerChange> *changes, bool take);
    const Drain *drainFor(const BreakerKey &key, const QDateTime &now) const;
    void expireDrains(const QDateTime &now, std::vector<BreakerChange> *changes);
    void announce(const std::vector<BreakerChange> &changes);

    const BreakerSettings m_settings;
    std::function<QDateTime()> m_wallNow;
    std::function<double()> m_random;
    bool m_logged = true;
    mutable std::mutex m_mutex;
    std::map<BreakerKey, Breaker> m_breakers;
    std::vector<Drain> m_drains;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::BreakerChange)
