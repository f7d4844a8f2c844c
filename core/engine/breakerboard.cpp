// SPDX-License-Identifier: MIT
#include "breakerboard.h"

#include "contract/recordtext.h"

#include <QLoggingCategory>
#include <QRandomGenerator>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcBreaker, "bullpen.breaker")

namespace bullpen {

using namespace std::chrono;

QString toId(BreakerState state)
{
    switch (state) {
    case BreakerState::Closed:
        return QStringLiteral("closed");
    case BreakerState::Open:
        return QStringLiteral("open");
    case BreakerState::HalfOpen:
        return QStringLiteral("half_open");
    }
    return {};
}

BreakerCount breakerCount(std::optional<FailureKind> kind)
{
    if (!kind)
        return BreakerCount::Success;
    switch (*kind) {
    case FailureKind::TRANSIENT_SERVER:
    case FailureKind::RATE_LIMITED:
    case FailureKind::QUOTA_EXHAUSTED:
    case FailureKind::TIMEOUT:
    case FailureKind::NETWORK:
    case FailureKind::OUTPUT_INVALID:
    case FailureKind::OUTPUT_TRUNCATED:
    case FailureKind::AUTH_CONFIG:
    case FailureKind::UNKNOWN:
        return BreakerCount::Blamed;
    case FailureKind::REQUEST_REJECTED:
    case FailureKind::REFUSED:
    case FailureKind::TLS:
        return BreakerCount::Neutral; // the provider answered (or its certificate did): not its outage
    case FailureKind::CANCELLED:
    case FailureKind::NOT_SENT:
    case FailureKind::INTERNAL:
        return BreakerCount::Ignored; // says nothing about the provider
    }
    return BreakerCount::Ignored;
}

BreakerCount breakerCount(const AttemptRecord &record)
{
    if (record.success)
        return BreakerCount::Success;
    return breakerCount(record.kind().value_or(FailureKind::UNKNOWN));
}

bool Drain::covers(const BreakerKey &key) const
{
    return provider == key.provider && (!role || *role == key.role) && (!stage || *stage == key.stage);
}

BreakerBoard::BreakerBoard(BreakerSettings settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_wallNow([] { return QDateTime::currentDateTimeUtc(); })
    , m_random([] { return QRandomGenerator::global()->generateDouble(); })
{
    qRegisterMetaType<BreakerChange>();
}

BreakerBoard::~BreakerBoard() = default;

milliseconds BreakerBoard::bucketWidth() const
{
    // 60 buckets per window: the window's edge is exact to 1/60 of it (1 s of the default 60 s).
    return std::max(milliseconds(1), m_settings.window / 60);
}

void BreakerBoard::prune(Breaker &b, Clock::time_point now) const
{
    while (!b.buckets.empty() && b.buckets.front().start + bucketWidth() <= now - m_settings.window)
        b.buckets.pop_front();
}

const Drain *BreakerBoard::drainFor(const BreakerKey &key, const QDateTime &now) const
{
    for (const Drain &d : m_drains)
        if (d.covers(key) && (!d.until || *d.until > now))
            return &d;
    return nullptr;
}

void BreakerBoard::expireDrains(const QDateTime &now, std::vector<BreakerChange> *changes)
{
    const auto expired =
        std::stable_partition(m_drains.begin(), m_drains.end(), [&](const Drain &d) { return !d.until || *d.until > now; });
    for (auto it = expired; it != m_drains.end(); ++it)
        changes->push_back({ QStringLiteral("provider_restored"),
                             BreakerKey { it->provider, it->role.value_or(Role::Primary), it->stage.value_or(Stage::Storyboard) }, *it,
                             recordText(RecordText::DrainRanUntil, { it->until->toString(Qt::ISODate) }), now });
    m_drains.erase(expired, m_drains.end());
}

BreakerChange BreakerBoard::open(const BreakerKey &key, Breaker &b, Clock::time_point now, milliseconds cooldown, QString reason)
{
    b.state = BreakerState::Open;
    b.changedAt = now;
    b.since = m_wallNow();
    b.cooldown = std::min(cooldown, m_settings.maxCooldown);
    // Up to cooldown_jitter shorter, never longer: OPEN lasts at most the cooldown (docs/contract.md §13, at most 5 min).
    b.wait = b.cooldown - milliseconds(std::llround(double(b.cooldown.count()) * m_settings.cooldownJitter * m_random()));
    b.trialOut = false;
    b.trialSentAt.reset();
    b.buckets.clear();
    ++b.opened;
    b.reason = std::move(reason);
    if (m_logged)
        qCInfo(lcBreaker).noquote() << "breaker" << key.toString() << "opened for" << b.wait.count() << "ms:" << b.reason;
    return BreakerChange { QStringLiteral("breaker_opened"), key, std::nullopt, b.reason, b.since };
}

BreakerGate BreakerBoard::gateLocked(const BreakerKey &key, Clock::time_point now, std::vector<BreakerChange> *changes, bool take)
{
    const QDateTime wall = m_wallNow();
    if (changes)
        expireDrains(wall, changes);
    if (const Drain *d = drainFor(key, wall)) {
        const QString until = d->until ? d->until->toString(Qt::ISODate) : QString();
        const QString why = d->reason.isEmpty()
            ? (d->until ? recordText(RecordText::DrainedByUntil, { d->by, until }) : recordText(RecordText::DrainedBy, { d->by }))
            : (d->until ? recordText(RecordText::DrainedByBecauseUntil, { d->by, d->reason, until })
                        : recordText(RecordText::DrainedByBecause, { d->by, d->reason }));
        return BreakerGate { BreakerGate::Skip, QStringLiteral("drained"), d->since, why };
    }
    if (!m_settings.enabled)
        return {};
    const auto it = m_breakers.find(key);
    if (it == m_breakers.end())
        return {};
    Breaker &b = it->second;
    if (b.state == BreakerState::Closed)
        return {};
    if (b.state == BreakerState::Open && now >= b.changedAt + b.wait) {
        if (!take) // peek: the next request would be the trial
            return BreakerGate { BreakerGate::Trial, {}, {}, {} };
        b.state = BreakerState::HalfOpen;
        b.changedAt = now;
        b.since = wall;
        if (m_logged)
            qCInfo(lcBreaker).noquote() << "breaker" << key.toString() << "half-open: the next request tries the provider";
        if (changes)
            changes->push_back({ QStringLiteral("breaker_half_open"), key, std::nullopt,
                                 recordText(RecordText::CooldownOver, { QString::number(b.cooldown.count()) }), wall });
    }
    if (b.state == BreakerState::HalfOpen && !b.trialOut) {
        if (take) {
            b.trialOut = true;
            b.trialSentAt = now;
        }
        return BreakerGate { BreakerGate::Trial, {}, {}, {} };
    }
    const QString why = b.state == BreakerState::Open
        ? recordText(RecordText::CircuitOpen, { b.reason, QString::number(b.cooldown.count()) })
        : recordText(RecordText::CircuitHalfOpen, { b.reason });
    return BreakerGate { BreakerGate::Skip, toId(b.state), b.since, why };
}

BreakerGate BreakerBoard::admit(const BreakerKey &key, Clock::time_point now)
{
    std::vector<BreakerChange> changes;
    BreakerGate gate;
    {
        std::lock_guard lock(m_mutex);
        gate = gateLocked(key, now, &changes, true);
    }
    announce(changes);
    return gate;
}

BreakerGate BreakerBoard::peek(const BreakerKey &key, Clock::time_point now) const
{
    std::lock_guard lock(m_mutex);
    return const_cast<BreakerBoard *>(this)->gateLocked(key, now, nullptr, false);
}

void BreakerBoard::record(const BreakerKey &key, BreakerCount count, bool trial, Clock::time_point now, std::optional<FailureKind> kind)
{
    if (!m_settings.enabled)
        return;
    std::vector<BreakerChange> changes;
    {
        std::lock_guard lock(m_mutex);
        Breaker &b = m_breakers[key];
        if (b.state == BreakerState::HalfOpen && trial) {
            b.trialOut = false;
            if (count == BreakerCount::Success || count == BreakerCount::Neutral) {
                // The provider answered: a refusal or a rejected request is about the request, not an outage.
                b.state = BreakerState::Closed;
                b.changedAt = now;
                b.since = m_wallNow();
                b.cooldown = milliseconds(0);
                b.wait = milliseconds(0);
                b.buckets.clear();
                b.reason.clear(); // why it opened is no longer why it is in its state
                const QString why = count == BreakerCount::Success
                    ? recordText(RecordText::TrialSucceeded)
                    : recordText(RecordText::TrialReachedProvider, { enumName(kind.value_or(FailureKind::UNKNOWN)) });
                if (m_logged)
                    qCInfo(lcBreaker).noquote() << "breaker" << key.toString() << "closed:" << why;
                changes.push_back({ QStringLiteral("breaker_closed"), key, std::nullopt, why, b.since });
            } else if (count == BreakerCount::Blamed) {
                // The trial failed the provider: open again, for twice as long (at most maxCooldown), counted
                // from when the trial was sent. A trial that hangs until its timeout would otherwise add that
                // timeout to every wait: the provider is tried once per cooldown, so a recovery is seen at most
                // a cooldown after the last failed trial left (docs/operations.md, "Alerts": the critical alert
                // then resolves within 5 minutes of the outage's end).
                const Clock::time_point sent = std::min(b.trialSentAt.value_or(now), now);
                changes.push_back(open(key, b, now, b.cooldown * 2,
                                       recordText(RecordText::TrialFailed, { enumName(kind.value_or(FailureKind::UNKNOWN)) })));
                b.changedAt = sent;
            } // Ignored: the trial said nothing; the next request is the trial.
        } else if (b.state == BreakerState::Closed && count != BreakerCount::Ignored) {
            prune(b, now);
            if (b.buckets.empty() || b.buckets.back().start + bucketWidth() <= now)
                b.buckets.push_back(Bucket { now });
            Bucket &bucket = b.buckets.back();
            ++bucket.attempts;
            if (count == BreakerCount::Blamed) {
                b.inARow.push_back(now);
                while (b.inARow.front() < now - m_settings.window || b.inARow.size() > size_t(m_settings.minAttempts))
                    b.inARow.pop_front();
            } else {
                b.inARow.clear();
            }
            if (count == BreakerCount::Blamed) {
                ++bucket.failures;
                ++bucket.kinds[static_cast<size_t>(kind.value_or(FailureKind::UNKNOWN)) % bucket.kinds.size()];
            }
            int attempts = 0;
            int failures = 0;
            std::array<int, 16> kinds {};
            for (const Bucket &k : b.buckets) {
                attempts += k.attempts;
                failures += k.failures;
                for (size_t i = 0; i < kinds.size(); ++i)
                    kinds[i] += k.kinds[i];
            }
            // The window's ratio, or min_attempts failures in a row: without the second, a busy provider's
            // successes from before an outage would hold it closed for about half the window (its hanging
            // requests count only once they time out).
            const bool byRatio = attempts >= m_settings.minAttempts && failures > 0 && failures >= m_settings.failureRatio * attempts;
            const bool inARow = b.inARow.size() >= size_t(m_settings.minAttempts);
            if (byRatio || inARow) {
                QStringList top;
                for (size_t i = 0; i < kinds.size(); ++i)
                    if (kinds[i] > 0)
                        top << QStringLiteral("%1 ×%2").arg(enumName(static_cast<FailureKind>(i))).arg(kinds[i]);
                const QString seconds = QString::number(duration_cast<duration<double>>(m_settings.window).count());
                QString reason = byRatio
                    ? recordText(RecordText::FailedByRatio,
                                 { QString::number(failures), QString::number(attempts), seconds, top.join(QStringLiteral(", ")) })
                    : recordText(RecordText::FailedInARow,
                                 { QString::number(b.inARow.size()), QString::number(failures), QString::number(attempts), seconds,
                                   top.join(QStringLiteral(", ")) });
                b.inARow.clear();
                changes.push_back(open(key, b, now, m_settings.cooldown, std::move(reason)));
            }
        } // OPEN, or HALF_OPEN and not the trial: attempts started before the breaker opened say nothing new.
    }
    announce(changes);
}

Drain BreakerBoard::drain(Drain d)
{
    if (!d.since.isValid())
        d.since = m_wallNow();
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_drains, [&](const Drain &o) { return o.provider == d.provider && o.role == d.role && o.stage == d.stage; });
        m_drains.push_back(d);
    }
    qCInfo(lcBreaker).noquote() << "provider" << toId(d.provider) << "drained by" << d.by << ":" << d.reason;
    announce({ { QStringLiteral("provider_drained"),
                 BreakerKey { d.provider, d.role.value_or(Role::Primary), d.stage.value_or(Stage::Storyboard) }, d, d.reason, d.since } });
    return d;
}

int BreakerBoard::restore(Provider provider, const QString &by, const QString &reason, const DrainScope &scope)
{
    const auto ends = [&](const Drain &d) {
        return d.provider == provider && scope.matches(d);
    };
    std::vector<BreakerChange> changes;
    {
        std::lock_guard lock(m_mutex);
        const QDateTime now = m_wallNow();
        for (const Drain &d : m_drains)
            if (ends(d))
                changes.push_back({ QStringLiteral("provider_restored"),
                                    BreakerKey { d.provider, d.role.value_or(Role::Primary), d.stage.value_or(Stage::Storyboard) }, d,
                                    reason.isEmpty() ? recordText(RecordText::RestoredBy, { by })
                                                     : recordText(RecordText::RestoredByBecause, { by, reason }),
                                    now });
        std::erase_if(m_drains, ends);
    }
    if (!changes.empty())
        qCInfo(lcBreaker).noquote() << "provider" << toId(provider) << "restored by" << by;
    announce(changes);
    return static_cast<int>(changes.size());
}

bool BreakerBoard::reset(const BreakerKey &key, const QString &by, const QString &reason, Clock::time_point now)
{
    std::vector<BreakerChange> changes;
    bool wasOpen = false;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_breakers.find(key);
        if (it == m_breakers.end())
            return false;
        Breaker &b = it->second;
        wasOpen = b.state != BreakerState::Closed;
        b.buckets.clear();
        b.inARow.clear();
        b.trialOut = false;
        if (wasOpen) {
            b.state = BreakerState::Closed;
            b.changedAt = now;
            b.since = m_wallNow();
            b.cooldown = milliseconds(0);
            const QString why =
                reason.isEmpty() ? recordText(RecordText::ResetBy, { by }) : recordText(RecordText::ResetByBecause, { by, reason });
            qCInfo(lcBreaker).noquote() << "breaker" << key.toString() << "closed:" << why;
            changes.push_back({ QStringLiteral("breaker_closed"), key, std::nullopt, why, b.since });
        }
    }
    announce(changes);
    return wasOpen;
}

void BreakerBoard::replaceDrains(std::vector<Drain> next)
{
    const auto sameScope = [](const Drain &a, const Drain &b) {
        return a.provider == b.provider && a.role == b.role && a.stage == b.stage;
    };
    const auto keyOf = [](const Drain &d) {
        return BreakerKey { d.provider, d.role.value_or(Role::Primary), d.stage.value_or(Stage::Storyboard) };
    };
    std::vector<BreakerChange> changes;
    {
        std::lock_guard lock(m_mutex);
        const QDateTime now = m_wallNow();
        for (const Drain &d : next) {
            const auto old = std::find_if(m_drains.begin(), m_drains.end(), [&](const Drain &o) { return sameScope(o, d); });
            if (old == m_drains.end() || !(*old == d))
                changes.push_back({ QStringLiteral("provider_drained"), keyOf(d), d, d.reason, now });
        }
        for (const Drain &o : m_drains) {
            if (std::none_of(next.begin(), next.end(), [&](const Drain &d) { return sameScope(o, d); }))
                changes.push_back({ QStringLiteral("provider_restored"), keyOf(o), o, recordText(RecordText::DrainNoLongerStored), now });
        }
        m_drains = std::move(next);
    }
    announce(changes);
}

std::vector<Drain> BreakerBoard::drains() const
{
    std::lock_guard lock(m_mutex);
    const QDateTime now = m_wallNow();
    std::vector<Drain> out;
    std::copy_if(m_drains.begin(), m_drains.end(), std::back_inserter(out), [&](const Drain &d) { return !d.until || *d.until > now; });
    return out;
}

std::vector<BreakerView> BreakerBoard::breakers(Clock::time_point now) const
{
    std::lock_guard lock(m_mutex);
    std::vector<BreakerView> out;
    for (const auto &[key, b] : m_breakers) {
        BreakerView v;
        v.key = key;
        v.state = b.state;
        v.since = b.since;
        v.opened = b.opened;
        v.reason = b.reason;
        if (b.state != BreakerState::Closed)
            v.cooldown = b.cooldown;
        if (b.state == BreakerState::Open && now >= b.changedAt + b.wait) {
            // Due for its trial: the next request (or probe) is let through, so say HALF_OPEN since then.
            v.state = BreakerState::HalfOpen;
            v.since = m_wallNow().addMSecs(-duration_cast<milliseconds>(now - (b.changedAt + b.wait)).count());
        } else if (b.state == BreakerState::Open) {
            v.retryAt = m_wallNow().addMSecs(duration_cast<milliseconds>(b.changedAt + b.wait - now).count());
        }
        for (const Bucket &k : b.buckets) {
            if (k.start + bucketWidth() <= now - m_settings.window)
                continue;
            v.attempts += k.attempts;
            v.failures += k.failures;
        }
        out.push_back(v);
    }
    return out;
}

void BreakerBoard::announce(const std::vector<BreakerChange> &changes)
{
    for (const BreakerChange &c : changes)
        Q_EMIT changed(c);
}

} // namespace bullpen
