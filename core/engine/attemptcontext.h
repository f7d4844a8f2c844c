// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"
#include "contract/enums.h"
#include "failure/providerresponse.h"

#include <functional>
#include <optional>
#include <vector>

namespace bullpen {

// The fresh context every attempt gets (docs/contract.md §4.3). The generator registers cancel handlers on it (abort
// the HTTP request, interrupt a worker) and delivers its one response through it. The runner cancels
// it on deadline, operator cancel or shutdown: the handlers run, in the order registered, before the
// attempt is marked failed. A fallback attempt gets a new context and never inherits a cancelled state.
//
// Shared between runner and generator (std::shared_ptr), so a generator that answers after the
// attempt ended still has somewhere to deliver: the runner then refuses and logs the late result.
class AttemptContext final
{
public:
    using CancelHandler = std::function<void()>;
    using DeliveryHandler = std::function<void(ProviderResponse)>;

    // With a clock, the context stamps when the request left and lets adapters read the time.
    AttemptContext(quint64 attemptId, Provider provider, Role role, Clock::time_point deadline, const Clock *clock = nullptr);
    AttemptContext(const AttemptContext &) = delete;
    AttemptContext &operator=(const AttemptContext &) = delete;

    quint64 id() const { return m_id; }
    Provider provider() const { return m_provider; }
    Role role() const { return m_role; }
    Clock::time_point deadline() const { return m_deadline; }

    // --- generator side
    // Runs the handler at once when the context is already cancelled.
    void onCancel(CancelHandler handler);
    bool isCancelled() const { return m_abortReason != AbortReason::None; }
    AbortReason abortReason() const { return m_abortReason; }
    // Hand over the one response of this attempt. A second delivery is a generator bug and is dropped.
    void deliver(ProviderResponse response);
    bool delivered() const { return m_delivered; }
    // Adapters call this from HttpReply::requestSent; more than one is a hidden retry (docs/contract.md §4.4).
    void noteRequestSent()
    {
        if (++m_requestsSent == 1 && m_clock)
            m_firstSentAt = m_clock->now();
    }
    // When the (first) request had been written to the connection.
    std::optional<Clock::time_point> firstSentAt() const { return m_firstSentAt; }
    // The attempt's clock (std::chrono::steady_clock without one).
    Clock::time_point now() const { return m_clock ? m_clock->now() : std::chrono::steady_clock::now(); }
    // The last byte of the answer is here (docs/contract.md §12.3): the attempt is on time if this is before its
    // deadline, however long reading the answer then takes. The deadline no longer aborts it.
    void noteAnswerComplete(Clock::time_point at)
    {
        if (!m_answerCompleteAt)
            m_answerCompleteAt = at;
    }
    std::optional<Clock::time_point> answerCompleteAt() const { return m_answerCompleteAt; }
    int requestsSent() const { return m_requestsSent; }
    // Adapters call this as the provider's answer arrives (its head with 0 bytes, then each read of its
    // body), and for a stream with the events those bytes completed: what a replay plays back
    // (docs/contract.md §14), kept also when our deadline ends the attempt before any answer is delivered.
    void noteReceived(qint64 bodyBytes, int streamEvents = -1)
    {
        if (!m_firstByteAt)
            m_firstByteAt = now();
        m_bytesReceived += bodyBytes;
        if (streamEvents >= 0)
            m_streamEvents = m_streamEvents.value_or(0) + streamEvents;
    }
    std::optional<Clock::time_point> firstByteAt() const { return m_firstByteAt; }
    qint64 bytesReceived() const { return m_bytesReceived; }
    std::optional<int> streamEvents() const { return m_streamEvents; } // none: not a stream

    // --- runner side
    void setDeliveryHandler(DeliveryHandler handler) { m_deliveryHandler = std::move(handler); }
    // Marks the context cancelled and runs every handler once. Returns false if it was already cancelled.
    bool cancel(AbortReason reason);
    int cancelHandlersRun() const { return m_handlersRun; }

private:
    quint64 m_id;
    Provider m_provider;
    Role m_role;
    Clock::time_point m_deadline;
    AbortReason m_abortReason = AbortReason::None;
    std::vector<CancelHandler> m_cancelHandlers;
    DeliveryHandler m_deliveryHandler;
    int m_handlersRun = 0;
    int m_requestsSent = 0;
    const Clock *m_clock;
    std::optional<Clock::time_point> m_firstSentAt;
    std::optional<Clock::time_point> m_answerCompleteAt;
    std::optional<Clock::time_point> m_firstByteAt;
    qint64 m_bytesReceived = 0;
    std::optional<int> m_streamEvents;
    bool m_delivered = false;
};

} // namespace bullpen
