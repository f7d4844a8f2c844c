// SPDX-License-Identifier: MIT
#include "attemptcontext.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAttempt, "bullpen.attempt")

namespace bullpen {

AttemptContext::AttemptContext(quint64 attemptId, Provider provider, Role role, Clock::time_point deadline, const Clock *clock)
    : m_id(attemptId)
    , m_provider(provider)
    , m_role(role)
    , m_deadline(deadline)
    , m_clock(clock)
{
}

void AttemptContext::onCancel(CancelHandler handler)
{
    if (!handler)
        return;
    if (isCancelled()) {
        ++m_handlersRun;
        handler();
        return;
    }
    m_cancelHandlers.push_back(std::move(handler));
}

bool AttemptContext::cancel(AbortReason reason)
{
    if (isCancelled() || reason == AbortReason::None)
        return false;
    m_abortReason = reason;
    // Take the list first: a handler may register another (it then runs at once, see onCancel).
    std::vector<CancelHandler> handlers;
    handlers.swap(m_cancelHandlers);
    for (CancelHandler &h : handlers) {
        ++m_handlersRun;
        h();
    }
    return true;
}

void AttemptContext::deliver(ProviderResponse response)
{
    if (m_delivered) {
        qCWarning(lcAttempt) << "attempt" << m_id << toId(m_provider) << "delivered twice; second response dropped";
        return;
    }
    m_delivered = true;
    if (response.requestsSent == 0)
        response.requestsSent = m_requestsSent;
    if (m_deliveryHandler)
        m_deliveryHandler(std::move(response));
}

} // namespace bullpen
