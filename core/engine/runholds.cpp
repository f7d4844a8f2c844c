// SPDX-License-Identifier: MIT
#include "runholds.h"

#include "admission.h"

namespace bullpen {

void HeldSlot::hold(Admission *admission, Provider provider)
{
    release();
    m_admission = admission;
    m_provider = provider;
}

void HeldSlot::release()
{
    if (m_admission && m_provider)
        m_admission->release(*m_provider);
    m_provider.reset();
}

void HeldTicket::hold(Admission *admission, quint64 ticket)
{
    withdraw();
    m_admission = admission;
    m_ticket = ticket;
}

void HeldTicket::withdraw()
{
    if (m_admission && m_ticket)
        m_admission->withdraw(m_ticket);
    m_ticket = 0;
}

void HeldTrial::take(BreakerBoard *breakers, const Clock &clock, const BreakerKey &key, bool isTrial)
{
    giveBack();
    m_breakers = breakers;
    m_clock = &clock;
    if (isTrial)
        m_key = key;
}

bool HeldTrial::spend()
{
    const bool was = m_key.has_value();
    m_key.reset();
    return was;
}

void HeldTrial::giveBack()
{
    if (m_breakers && m_key)
        m_breakers->record(*m_key, BreakerCount::Ignored, true, m_clock->now());
    m_key.reset();
}

void RunHolds::releaseAll()
{
    slot.release();
    for (HeldTrial &t : trial)
        t.giveBack();
}

} // namespace bullpen
