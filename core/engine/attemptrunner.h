// SPDX-License-Identifier: MIT
#pragma once

#include "attemptcontext.h"
#include "clock.h"
#include "contract/storyboard.h"
#include "engine/event.h"
#include "stagegenerator.h"
#include "stageoutput.h"
#include "stageresult.h"

#include <QObject>

#include <memory>
#include <optional>

namespace bullpen {

struct AttemptSpec
{
    quint64 attemptId = 0;
    Stage stage = Stage::Storyboard;
    Role role = Role::Primary;
    int round = 1;
    Clock::time_point deadline; // min(start + timeout, end of the stage budget)
    Clock::time_point stageStart; // offsets in records are measured from here
    // The instant the deadline was computed from; the attempt's duration is measured from it too, so a
    // deadline that fires on time never reads as shorter than the timeout. Unset: when start() runs.
    std::optional<Clock::time_point> startedAt;
};

struct AttemptOutcome
{
    AttemptRecord record;
    StageOutput output; // filled exactly when record.success
};

// Runs one attempt: one call to one generator under one deadline
// and one fresh AttemptContext. It classifies what comes back, parses and validates the storyboard,
// and refuses anything that lands at or after the deadline, even if valid (docs/contract.md §4.3). On deadline or
// cancel the context's handlers run before the attempt is marked failed. It never retries.
class AttemptRunner final : public QObject
{
    Q_OBJECT
public:
    AttemptRunner(Clock &clock, StageGenerator &generator, const AttemptSpec &spec, QObject *parent = nullptr);
    ~AttemptRunner() override;

    void start(const StageRequest &request);
    // Operator cancel or shutdown. Does nothing once the attempt has ended.
    void cancel(AbortReason reason);

    bool isRunning() const { return m_running || m_pending.has_value(); }
    const AttemptSpec &spec() const { return m_spec; }

Q_SIGNALS:
    void finished(const bullpen::AttemptOutcome &outcome);
    void lateResultDiscarded(const bullpen::LateResultDiscarded &late);

private:
    void onDelivered(ProviderResponse response);
    void abortWith(AbortReason reason, const QString &detailOverride = {});
    void composeAbort(AbortReason reason, const QString &detailOverride, Clock::time_point endedAt);
    void finish(std::optional<Failure> failure, StageOutput output, const ProviderResponse *response, Clock::time_point now);
    void flushPending();
    bool wouldSucceed(const ProviderResponse &response) const;
    void reportLate(const ProviderResponse &response, bool wouldHaveSucceeded);
    std::chrono::microseconds offset(Clock::time_point t) const;

    Clock &m_clock;
    StageGenerator &m_generator;
    AttemptSpec m_spec;
    std::shared_ptr<AttemptContext> m_context;
    std::unique_ptr<Timer> m_deadlineTimer;
    Clock::time_point m_startedAt;
    std::optional<Clock::time_point> m_cancelledAt;
    bool m_running = false;
    bool m_answered = false; // a response (or a transport error) came back
    bool m_deferFinish = false; // ended by the deadline timer: its record and `finished` follow from the event loop
    struct PendingAbort
    {
        AbortReason reason = AbortReason::None;
        QString detailOverride;
    };
    std::optional<PendingAbort> m_pending; // aborted at m_cancelledAt; its record not yet made

    std::unique_ptr<Timer> m_pendingTimer;
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::AttemptOutcome)
