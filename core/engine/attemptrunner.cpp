// SPDX-License-Identifier: MIT
#include "attemptrunner.h"

#include "failure/failureclassifier.h"
#include "failure/secretscrubber.h"

#include <QLoggingCategory>
#include <QPointer>

Q_LOGGING_CATEGORY(lcRunner, "bullpen.runner")

namespace bullpen {

using namespace std::chrono;

AttemptRunner::AttemptRunner(Clock &clock, StageGenerator &generator, const AttemptSpec &spec, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
    , m_generator(generator)
    , m_spec(spec)
{
}

AttemptRunner::~AttemptRunner()
{
    if (m_context) {
        m_context->setDeliveryHandler({});
        if (m_running)
            m_context->cancel(AbortReason::Shutdown); // never leave a request running without an owner
    }
}

microseconds AttemptRunner::offset(Clock::time_point t) const
{
    return duration_cast<microseconds>(t - m_spec.stageStart);
}

void AttemptRunner::start(const StageRequest &request)
{
    Q_ASSERT(!m_context);
    m_startedAt = m_spec.startedAt.value_or(m_clock.now());
    m_running = true;
    m_context = std::make_shared<AttemptContext>(m_spec.attemptId, m_generator.provider(), m_spec.role, m_spec.deadline, &m_clock);
    m_context->setDeliveryHandler([self = QPointer<AttemptRunner>(this)](ProviderResponse response) {
        if (self)
            self->onDelivered(std::move(response));
    });
    m_deadlineTimer = m_clock.armDeadline(m_spec.deadline, [this] {
        if (!m_running)
            return;
        if (const auto complete = m_context->answerCompleteAt(); complete && *complete < m_spec.deadline)
            return; // the whole answer arrived in time and is being read: on time (docs/contract.md §12.3)
        // Deadlines first: the abort happens now; what follows from it (a fallback attempt, the end of
        // the generation, its records) is handed on from the event loop, so that every other deadline
        // due in this same instant is aborted before any of that work runs.
        m_deferFinish = true;
        abortWith(AbortReason::Deadline);
    });
    m_generator.generate(request, m_context);
}

void AttemptRunner::cancel(AbortReason reason)
{
    if (m_pending) { // already ended by its deadline; its outcome is on its way: deliver it now
        flushPending();
        return;
    }
    if (m_running && reason != AbortReason::None)
        abortWith(reason);
}

void AttemptRunner::abortWith(AbortReason reason, const QString &detailOverride)
{
    m_deadlineTimer.reset();
    m_context->cancel(reason); // cancel handlers run here, before the attempt is marked failed
    m_cancelledAt = m_clock.now();
    if (m_deferFinish) {
        // Ended by its deadline: the request is dropped and the end stamped. Its record (classifying,
        // scrubbing, filling it) is work like any other, done from the event loop after every other due
        // deadline's abort (docs/contract.md 4.8).
        m_running = false;
        m_pending = PendingAbort { reason, detailOverride };
        m_pendingTimer = m_clock.arm(*m_cancelledAt, [this] { flushPending(); });
        return;
    }
    composeAbort(reason, detailOverride, *m_cancelledAt);
}

void AttemptRunner::composeAbort(AbortReason reason, const QString &detailOverride, Clock::time_point endedAt)
{
    std::optional<Failure> failure = FailureClassifier::classify(m_generator.dialect(), ProviderResponse {}, reason);
    if (!detailOverride.isEmpty())
        failure->detail = detailOverride;
    if (reason == AbortReason::Deadline && !m_answered && m_context->requestsSent() == 0) {
        // The provider never saw this request: the time went inside Bullpen. Ours, never its TIMEOUT.
        failure = Failure { FailureKind::NOT_SENT,
                            QStringLiteral("the attempt deadline passed before the request left Bullpen (%1 ms after the attempt "
                                           "started); the provider never received it")
                                .arg(duration_cast<milliseconds>(endedAt - m_startedAt).count()),
                            false,
                            {} };
    }
    finish(std::move(failure), StageOutput {}, nullptr, endedAt);
}

void AttemptRunner::reportLate(const ProviderResponse &response, bool wouldHaveSucceeded)
{
    LateResultDiscarded late;
    late.stage = m_spec.stage;
    late.attemptId = m_spec.attemptId;
    late.provider = m_generator.provider();
    late.role = m_spec.role;
    late.lateBy = duration_cast<microseconds>(m_clock.now() - m_spec.deadline);
    late.wouldHaveSucceeded = wouldHaveSucceeded;
    late.tokens = response.usage;
    Q_EMIT lateResultDiscarded(late);
}

void AttemptRunner::onDelivered(ProviderResponse response)
{
    if (!m_running || m_context->isCancelled()) {
        // The attempt already ended (deadline or cancel). An OperationCanceledError is only the echo of
        // our own abort; anything else is a real answer that came too late.
        if (m_context->abortReason() == AbortReason::Deadline && response.networkError != QNetworkReply::OperationCanceledError) {
            reportLate(response, wouldSucceed(response));
        }
        return;
    }

    m_answered = true; // whatever it says, the request was sent
    // On time is decided by when the last byte arrived, not by when reading it ended (docs/contract.md §12.3).
    const Clock::time_point arrived = m_context->answerCompleteAt().value_or(m_clock.now());
    if (arrived >= m_spec.deadline) {
        // Arrived after the deadline but before our timer fired: refused all the same.
        reportLate(response, wouldSucceed(response));
        abortWith(AbortReason::Deadline,
                  QStringLiteral("a result arrived %1 ms after the attempt deadline and was refused")
                      .arg(duration_cast<milliseconds>(arrived - m_spec.deadline).count()));
        return;
    }

    std::optional<Failure> failure = FailureClassifier::classify(m_generator.dialect(), response);
    StageOutput output;
    if (!failure) {
        auto checked = validateStageOutput(m_spec.stage, response);
        if (auto *f = std::get_if<Failure>(&checked))
            failure = std::move(*f);
        else
            output = std::get<StageOutput>(std::move(checked));
    }
    finish(std::move(failure), std::move(output), &response, m_clock.now());
}

bool AttemptRunner::wouldSucceed(const ProviderResponse &response) const
{
    return !FailureClassifier::classify(m_generator.dialect(), response)
        && std::holds_alternative<StageOutput>(validateStageOutput(m_spec.stage, response));
}

void AttemptRunner::finish(std::optional<Failure> failure, StageOutput output, const ProviderResponse *response, Clock::time_point now)
{
    m_running = false;
    m_deadlineTimer.reset();

    AttemptOutcome outcome;
    AttemptRecord &r = outcome.record;
    r.attemptId = m_spec.attemptId;
    r.stage = m_spec.stage;
    r.provider = m_generator.provider();
    r.model = m_generator.model();
    r.role = m_spec.role;
    r.round = m_spec.round;
    r.success = !failure.has_value();
    if (failure) // provider text: never recorded, printed or shown with a credential in it
        failure->detail = SecretScrubber::scrub(failure->detail, m_generator.secrets());
    r.failure = std::move(failure);
    r.startedAt = offset(m_startedAt);
    r.duration = duration_cast<microseconds>(now - m_startedAt);
    r.deadline = offset(m_spec.deadline);
    r.abortedBy = m_context->abortReason();
    r.cancelHandlersRun = m_context->cancelHandlersRun();
    if (m_cancelledAt)
        r.cancelledAt = offset(*m_cancelledAt);
    r.requestsSent = m_context->requestsSent();
    if (const auto sent = m_context->firstSentAt())
        r.sentAt = offset(*sent);
    if (const auto first = m_context->firstByteAt())
        r.firstByteAt = offset(*first);
    if (const auto complete = m_context->answerCompleteAt())
        r.answerCompleteAt = offset(*complete);
    r.bytesReceived = m_context->bytesReceived();
    r.streamEvents = m_context->streamEvents();
    if (response) {
        r.httpStatus = response->httpStatus;
        r.tokens = response->usage;
        r.requestsSent = std::max(r.requestsSent, response->requestsSent);
        if (response->notSent)
            r.requestsSent = 0; // the egress guard never reached the provider (a connect that failed)
    }
    const Price price = m_generator.price();
    r.cost = attemptCost(price, AttemptBill { r.tokens, r.httpStatus, r.success && r.stage == Stage::Image });
    if (r.cost)
        r.currency = price.currency;
    if (r.requestsSent > 1)
        qCWarning(lcRunner) << "hidden retry: attempt" << r.attemptId << toId(r.provider) << "sent" << r.requestsSent
                            << "requests (docs/contract.md §4.4 allows one)";
    outcome.output = std::move(output);
    Q_EMIT finished(outcome);
}

void AttemptRunner::flushPending()
{
    if (!m_pending)
        return;
    const PendingAbort pending = std::move(*m_pending);
    m_pending.reset();
    m_pendingTimer.reset();
    composeAbort(pending.reason, pending.detailOverride, *m_cancelledAt);
}

} // namespace bullpen
