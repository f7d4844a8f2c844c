// SPDX-License-Identifier: MIT
#include "admission.h"

#include <algorithm>

namespace bullpen {

Admission::Admission(Clock &clock, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
{
}

void Admission::setLimits(const Limits &limits)
{
    m_limits.inFlight = std::max(1, limits.inFlight);
    m_limits.queued = std::max(0, limits.queued);
    // A raised limit frees slots for whoever waits.
    std::vector<Provider> providers;
    for (const auto &entry : m_lanes)
        providers.push_back(entry.first);
    for (Provider p : providers)
        grantFromQueue(p);
}

bool Admission::tryAcquire(Provider provider)
{
    Lane &lane = m_lanes[provider];
    if (!lane.queue.empty() || lane.inFlight >= m_limits.inFlight)
        return false;
    ++lane.inFlight;
    Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
    return true;
}

bool Admission::tryAcquireNow(Provider provider)
{
    Lane &lane = m_lanes[provider];
    if (lane.inFlight >= m_limits.inFlight)
        return false;
    ++lane.inFlight;
    Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
    return true;
}

quint64 Admission::enqueue(Provider provider, std::function<void()> admitted)
{
    Lane &lane = m_lanes[provider];
    if (static_cast<int>(lane.queue.size()) >= m_limits.queued)
        return 0;
    const quint64 ticket = ++m_nextTicket;
    lane.queue.push_back(Waiter { ticket, std::move(admitted) });
    Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
    // A slot may be free already (the queue was joined by a caller that did not try first).
    grantFromQueue(provider);
    return ticket;
}

void Admission::withdraw(quint64 ticket)
{
    if (const auto granted = m_granted.find(ticket); granted != m_granted.end()) {
        const Provider p = granted->second.provider;
        m_granted.erase(granted);
        release(p);
        return;
    }
    for (auto &[provider, lane] : m_lanes) {
        const auto it = std::find_if(lane.queue.begin(), lane.queue.end(), [ticket](const Waiter &w) { return w.ticket == ticket; });
        if (it != lane.queue.end()) {
            lane.queue.erase(it);
            Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
            return;
        }
    }
}

void Admission::release(Provider provider)
{
    Lane &lane = m_lanes[provider];
    if (lane.inFlight <= 0)
        return;
    --lane.inFlight;
    Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
    grantFromQueue(provider);
}

void Admission::grantFromQueue(Provider provider)
{
    Lane &lane = m_lanes[provider];
    while (!lane.queue.empty() && lane.inFlight < m_limits.inFlight) {
        Waiter w = std::move(lane.queue.front());
        lane.queue.pop_front();
        ++lane.inFlight;
        // From the event loop: the releaser may be deep inside another generation's end.
        const quint64 ticket = w.ticket;
        auto call = m_clock.arm(m_clock.now(), [this, ticket, admitted = std::move(w.admitted)] {
            const auto it = m_granted.find(ticket);
            if (it == m_granted.end())
                return;
            const std::unique_ptr<Timer> self = std::move(it->second.call); // this callback's own timer, freed after it
            m_granted.erase(it);
            admitted();
        });
        m_granted.emplace(ticket, Grant { provider, std::move(call) });
        Q_EMIT changed(provider, lane.inFlight, static_cast<int>(lane.queue.size()));
    }
}

int Admission::inFlight(Provider provider) const
{
    const auto it = m_lanes.find(provider);
    return it == m_lanes.end() ? 0 : it->second.inFlight;
}

int Admission::waiting(Provider provider) const
{
    const auto it = m_lanes.find(provider);
    return it == m_lanes.end() ? 0 : static_cast<int>(it->second.queue.size());
}

} // namespace bullpen
