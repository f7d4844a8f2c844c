// SPDX-License-Identifier: MIT
// The storyboard stage's routing rules (docs/contract.md §4.1-4.3) on a ManualClock: no
// sleeping, exact times. Each scenario's event log is compared with the expected log.
#include "engine/admission.h"
#include "engine/attemptrunner.h"
#include "engine/manualclock.h"
#include "engine/stageservice.h"
#include "scriptedgenerator.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(bullpen::test::Step)
Q_DECLARE_METATYPE(std::optional<std::chrono::milliseconds>)

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

// A clock that never fires the timer armed for one exact instant: lets a result land after the
// deadline before the deadline timer has fired, as happens on a busy event loop.
class DeafAtClock final : public Clock
{
public:
    DeafAtClock(ManualClock &inner, time_point deafAt)
        : m_inner(inner)
        , m_deafAt(deafAt)
    {
    }
    time_point now() const override { return m_inner.now(); }

protected:
    std::unique_ptr<Timer> schedule(time_point at, std::function<void()> callback, TimerUrgency urgency) override
    {
        if (at == m_deafAt)
            return std::make_unique<Timer>();
        return urgency == TimerUrgency::Deadline ? m_inner.armDeadline(at, std::move(callback)) : m_inner.arm(at, std::move(callback));
    }

private:
    ManualClock &m_inner;
    time_point m_deafAt;
};

// A clock whose now() is set by hand and whose timers never fire: lets a result land at an exact
// instant ahead of the deadline timer (a ManualClock always fires the earlier-armed deadline first).
class FrozenClock final : public Clock
{
public:
    time_point now() const override { return at; }

protected:
    std::unique_ptr<Timer> schedule(time_point, std::function<void()>, TimerUrgency) override { return std::make_unique<Timer>(); }

public:
    time_point at {};
};

// Keeps the attempt's context so the test can deliver through it when it chooses.
class HeldGenerator final : public StageGenerator
{
public:
    Provider provider() const override { return Provider::Gemini; }
    WireDialect dialect() const override { return WireDialect::Gemini; }
    QString model() const override { return QStringLiteral("gemini-test"); }
    bool isConfigured() const override { return true; }
    void generate(const StageRequest &, std::shared_ptr<AttemptContext> c) override { context = std::move(c); }
    std::shared_ptr<AttemptContext> context;
};

// Sends (notes its request) and never answers; runs `onAbort` from inside its cancel handler, i.e. in
// the instant between a deadline's abort and what the engine does about it.
class AbortHookGenerator final : public StageGenerator
{
public:
    Provider provider() const override { return Provider::Gemini; }
    WireDialect dialect() const override { return WireDialect::Gemini; }
    QString model() const override { return QStringLiteral("gemini-test"); }
    bool isConfigured() const override { return true; }
    void generate(const StageRequest &, std::shared_ptr<AttemptContext> c) override
    {
        c->noteRequestSent();
        c->onCancel([this] {
            if (onAbort)
                onAbort();
        });
    }
    std::function<void()> onAbort;
};

class tst_GenerationService : public QObject
{
    Q_OBJECT

private:
    struct Harness
    {
        explicit Harness(Clock &c)
            : gemini(c, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), &calls)
            , qwen(c, Provider::Qwen, QStringLiteral("qwen-plus"), &calls)
            , service(c)
            , finishedSpy(&service, &StageService::finished)
        {
            service.addGenerator(&gemini);
            service.addGenerator(&qwen);
            QObject::connect(&service, &StageService::eventRecorded, &service, [this](const Event &e) {
                events << e;
                log << formatEvent(e);
                calls << QStringLiteral("event: ") + e.type();
            });
        }
        StageResult result() const { return finishedSpy.last().first().value<StageResult>(); }

        QStringList calls; // interleaved provider calls, cancel handlers and events, in order
        ScriptedGenerator gemini;
        ScriptedGenerator qwen;
        StageService service;
        QSignalSpy finishedSpy;
        QList<Event> events;
        QStringList log;
    };

    static StagePolicy relief() { return StagePolicy::relief(Provider::Gemini, Provider::Qwen); }
    static StageRequest request()
    {
        return StageRequest::forStory(QStringLiteral("Mina finds a talking cat."), QStringLiteral("haru@example.com"));
    }

    ManualClock m_clock;

private Q_SLOTS:
    void primarySucceeds_fallbackNeverCalled()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::ok(2s, QStringLiteral("By Gemini"), { 100, 200 }) });
        h.service.start(request(), relief());
        m_clock.advance(10min);

        QCOMPARE(h.finishedSpy.count(), 1);
        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Succeeded);
        QCOMPARE(h.gemini.calls(), 1);
        QCOMPARE(h.qwen.calls(), 0);
        QCOMPARE(r.storyboard->title, QStringLiteral("By Gemini"));
        QCOMPARE(r.fallback.applied, false);
        QCOMPARE(r.fallback.finalProvider, Provider::Gemini);
        QCOMPARE(r.tokens.output, 200);
        QCOMPARE(r.attempts.size(), 1);
        QCOMPARE(h.gemini.stories(), QStringList { request().story });
    }

    void kindDecidesFallback_data()
    {
        QTest::addColumn<FailureKind>("kind");
        QTest::addColumn<bool>("fallback");
        // docs/contract.md §4 `relief`: these may fall back …
        for (FailureKind k : { FailureKind::TIMEOUT, FailureKind::RATE_LIMITED, FailureKind::QUOTA_EXHAUSTED, FailureKind::OUTPUT_TRUNCATED,
                               FailureKind::OUTPUT_INVALID, FailureKind::NETWORK, FailureKind::TRANSIENT_SERVER })
            QTest::addRow("%s falls back", qPrintable(enumName(k))) << k << true;
        // … and these end the stage (CANCELLED has its own test: it comes from us, not the provider).
        for (FailureKind k : { FailureKind::AUTH_CONFIG, FailureKind::TLS, FailureKind::REQUEST_REJECTED, FailureKind::REFUSED,
                               FailureKind::INTERNAL, FailureKind::UNKNOWN })
            QTest::addRow("%s ends the stage", qPrintable(enumName(k))) << k << false;
    }

    void kindDecidesFallback()
    {
        QFETCH(FailureKind, kind);
        QFETCH(bool, fallback);
        Harness h(m_clock);
        h.gemini.script({ Step::failWith(kind, 3s) });
        h.qwen.script({ Step::ok(4s, QStringLiteral("By Qwen"), { 50, 60 }) });
        h.service.start(request(), relief());
        m_clock.advance(10min);

        QCOMPARE(h.finishedSpy.count(), 1);
        const StageResult r = h.result();
        QCOMPARE(h.gemini.calls(), 1);
        QCOMPARE(r.attempts.first().failure->kind, kind);
        if (fallback) {
            QCOMPARE(h.qwen.calls(), 1);
            QCOMPARE(r.state, FinalState::Succeeded);
            QVERIFY(r.fallback.applied);
            QCOMPARE(r.fallback.primaryProvider, Provider::Gemini);
            QCOMPARE(r.fallback.finalProvider, Provider::Qwen);
            QCOMPARE(r.fallback.finalModelId, QStringLiteral("qwen-plus"));
            QVERIFY(r.fallback.reason.startsWith(QStringLiteral("gemini_")));
            QCOMPARE(r.tokens.output, 60); // the rescuing provider's usage travels on
            QCOMPARE(r.storyboard->title, QStringLiteral("By Qwen"));
        } else {
            QCOMPARE(h.qwen.calls(), 0);
            QCOMPARE(r.state, FinalState::Failed);
            QCOMPARE(r.failure->kind, kind);
            QVERIFY(!r.fallback.applied);
            QVERIFY2(r.decision.contains(enumName(kind)), qPrintable(r.decision));
        }
    }

    void fallbackFails_stageFailsWithoutThirdCall()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s), Step::ok(1s) });
        h.qwen.script({ Step::failWith(FailureKind::RATE_LIMITED, 2s), Step::ok(1s) });
        h.service.start(request(), relief());
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(h.gemini.calls(), 1); // never back to the primary
        QCOMPARE(h.qwen.calls(), 1);
        QCOMPARE(r.attempts.size(), 2);
        QCOMPARE(r.failure->kind, FailureKind::RATE_LIMITED); // the final failure is the fallback provider's
        QCOMPARE(r.fallback.applied, false);
        QCOMPARE(r.fallback.reason, QStringLiteral("gemini_provider_unavailable"));
        QCOMPARE(m_clock.pendingTimers(), std::size_t(0));
    }

    void primaryTimeout_cancelHandlersRunBeforeFallbackStarts()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::hang() });
        h.qwen.script({ Step::ok(5s) });
        h.service.start(request(), relief());
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Succeeded);
        const qsizetype cancelAt = h.calls.indexOf(QStringLiteral("gemini: cancel handler ran (deadline)"));
        const qsizetype fallbackAt = h.calls.indexOf(QStringLiteral("qwen: request sent"));
        QVERIFY2(cancelAt >= 0, qPrintable(h.calls.join(u'\n')));
        QVERIFY2(cancelAt < fallbackAt, qPrintable(h.calls.join(u'\n')));
        QCOMPARE(h.gemini.cancelHandlerRuns(), 1);
        const AttemptRecord &primary = r.attempts.at(0);
        QCOMPARE(primary.failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(primary.abortedBy, AbortReason::Deadline);
        QCOMPARE(primary.cancelHandlersRun, 1);
        QCOMPARE(primary.duration, std::chrono::microseconds(60s));
        QVERIFY(primary.cancelledAt.has_value());
        QVERIFY(*primary.cancelledAt <= r.attempts.at(1).startedAt);
        // The fallback got a fresh context: not cancelled when its request went out.
        QCOMPARE(h.qwen.contextCancelledAtStart(), QList<bool> { false });
    }

    void budget_data()
    {
        QTest::addColumn<Step>("primary");
        QTest::addColumn<std::optional<std::chrono::milliseconds>>("budget");
        QTest::addColumn<bool>("fallbackStarts");
        QTest::addColumn<qint64>("fallbackDeadlineMs"); // offset from the stage start

        QTest::addRow("primary fails at 5 s: fallback gets its full 60 s")
            << Step::failWith(FailureKind::TRANSIENT_SERVER, 5s) << std::optional<std::chrono::milliseconds>() << true << qint64(65'000);
        QTest::addRow("primary uses 60 s of a 100 s budget: fallback gets 40 s")
            << Step::hang() << std::optional<std::chrono::milliseconds>(100s) << true << qint64(100'000);
        QTest::addRow("primary fails at 59 s of 120 s: fallback capped by its own 60 s")
            << Step::failWith(FailureKind::NETWORK, 59s) << std::optional<std::chrono::milliseconds>() << true << qint64(119'000);
        QTest::addRow("budget used up by the primary: no fallback")
            << Step::hang() << std::optional<std::chrono::milliseconds>(60s) << false << qint64(0);
        QTest::addRow("budget shorter than the primary timeout: primary cut at 30 s, no fallback")
            << Step::hang() << std::optional<std::chrono::milliseconds>(30s) << false << qint64(0);
    }

    void budget()
    {
        QFETCH(Step, primary);
        QFETCH(std::optional<std::chrono::milliseconds>, budget);
        QFETCH(bool, fallbackStarts);
        QFETCH(qint64, fallbackDeadlineMs);

        Harness h(m_clock);
        h.gemini.script({ primary });
        h.qwen.script({ Step::hang() });
        StagePolicy p = relief();
        p.totalBudget = budget;
        const Clock::time_point stageStart = m_clock.now();
        h.service.start(request(), p);
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(h.qwen.calls(), fallbackStarts ? 1 : 0);
        QCOMPARE(r.state, FinalState::Failed);
        const auto budgetMs = p.effectiveBudget();
        QVERIFY2(r.elapsed <= std::chrono::microseconds(budgetMs), "the stage outlived its budget");
        if (fallbackStarts) {
            QCOMPARE(std::chrono::duration_cast<std::chrono::milliseconds>(h.qwen.deadlines().first() - stageStart).count(),
                     fallbackDeadlineMs);
            QCOMPARE(r.failure->kind, FailureKind::TIMEOUT);
        } else {
            QVERIFY2(r.decision.contains(QStringLiteral("budget")), qPrintable(r.decision));
            QCOMPARE(r.attempts.first().deadline, std::chrono::microseconds(std::min(budgetMs, std::chrono::milliseconds(60s))));
        }
    }

    void lateResultAfterDeadline_isRefusedAndLogged()
    {
        Harness h(m_clock);
        Step late = Step::ok(70s, QStringLiteral("Too late"), { 10, 999 });
        late.ignoreCancel = true; // the provider keeps computing after we hang up
        h.gemini.script({ late });
        h.qwen.script({ Step::ok(20s, QStringLiteral("On time")) });
        h.service.start(request(), relief());
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Succeeded);
        QCOMPARE(r.storyboard->title, QStringLiteral("On time"));
        QCOMPARE(r.attempts.at(0).failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(h.log.filter(QStringLiteral("late_result_discarded")),
                 QStringList { QStringLiteral("70000 late_result_discarded gemini primary late=10000 tokens_out=999") });
        const auto lateEvent = std::find_if(h.events.cbegin(), h.events.cend(),
                                            [](const Event &e) { return std::holds_alternative<LateResultDiscarded>(e.body); });
        QVERIFY(std::get<LateResultDiscarded>(lateEvent->body).wouldHaveSucceeded);
    }

    void resultLandingAfterDeadlineBeforeTimer_isRefused()
    {
        // The deadline timer is "late" (never fires here); the result lands 1 s after the deadline.
        DeafAtClock deaf(m_clock, m_clock.now() + 60s);
        Harness h(deaf);
        h.gemini.script({ Step::ok(61s, QStringLiteral("Valid but late")) });
        h.qwen.script({ Step::ok(1s, QStringLiteral("Relief")) });
        StagePolicy p = relief();
        h.service.start(request(), p);
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(r.attempts.at(0).failure->kind, FailureKind::TIMEOUT);
        QVERIFY2(r.attempts.at(0).failure->detail.contains(QStringLiteral("after the attempt deadline")),
                 qPrintable(r.attempts.at(0).failure->detail));
        QCOMPARE(h.log.filter(QStringLiteral("late_result_discarded")).size(), 1);
        QCOMPARE(r.storyboard->title, QStringLiteral("Relief"));
    }

    void operatorCancelDuringPrimary_cancelsWithoutFallback()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::hang() });
        h.qwen.script({ Step::ok(1s) });
        const QString id = h.service.start(request(), relief());
        m_clock.advance(10s);
        QVERIFY(h.service.cancel(id));
        m_clock.advance(10min);

        QCOMPARE(h.finishedSpy.count(), 1);
        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Cancelled);
        QCOMPARE(r.failure->kind, FailureKind::CANCELLED);
        QCOMPARE(r.failure->publicCode(), PublicCode::GENERATION_CANCELLED);
        QCOMPARE(h.qwen.calls(), 0);
        QCOMPARE(h.gemini.cancelHandlerRuns(), 1);
        QCOMPARE(r.attempts.first().abortedBy, AbortReason::Operator);
        QVERIFY(!h.service.cancel(id)); // finished: nothing left to cancel
    }

    void shutdown_cancelsRunningAttempts()
    {
        auto h = std::make_unique<Harness>(m_clock);
        h->gemini.script({ Step::hang() });
        h->service.start(request(), relief());
        m_clock.advance(1s);
        h->service.shutdown();
        QCOMPARE(h->finishedSpy.count(), 1);
        const StageResult r = h->result();
        QCOMPARE(r.state, FinalState::Cancelled);
        QCOMPARE(r.attempts.first().abortedBy, AbortReason::Shutdown);
        QCOMPARE(h->gemini.cancelHandlerRuns(), 1);
        QCOMPARE(h->qwen.calls(), 0);
    }

    void capacityPreset_data()
    {
        QTest::addColumn<Step>("primary");
        QTest::addColumn<bool>("qwenHasKey");
        QTest::addColumn<bool>("fallback");
        QTest::addRow("503 UNAVAILABLE high demand") << Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) << true << true;
        QTest::addRow("529 overloaded_error text")
            << Step::http(1s, 500, R"({"error":{"code":500,"message":"The model is overloaded.","status":"INTERNAL"}})") << true << true;
        QTest::addRow("500 INTERNAL without marker")
            << Step::http(1s, 500, R"({"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}})") << true
            << false;
        QTest::addRow("429 rate limited") << Step::failWith(FailureKind::RATE_LIMITED, 1s) << true << false;
        QTest::addRow("timeout") << Step::hang() << true << false;
        QTest::addRow("auth") << Step::failWith(FailureKind::AUTH_CONFIG, 1s) << true << false;
        QTest::addRow("capacity failure but relief has no key") << Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) << false << false;
    }

    void capacityPreset()
    {
        QFETCH(Step, primary);
        QFETCH(bool, qwenHasKey);
        QFETCH(bool, fallback);
        Harness h(m_clock);
        h.gemini.script({ primary });
        h.qwen.script({ Step::ok(1s) });
        h.qwen.setConfigured(qwenHasKey);
        h.service.start(request(), StagePolicy::capacity(Provider::Gemini, Provider::Qwen));
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(h.qwen.calls(), fallback ? 1 : 0);
        QCOMPARE(r.state, fallback ? FinalState::Succeeded : FinalState::Failed);
        if (fallback)
            QCOMPARE(r.fallback.reason, QStringLiteral("gemini_provider_unavailable"));
    }

    void roundsPreset_data()
    {
        QTest::addColumn<QList<Step>>("steps");
        QTest::addColumn<int>("geminiCalls");
        QTest::addColumn<FinalState>("state");
        QTest::addColumn<qint64>("secondStartMs");
        QTest::addRow("503 then success after the 4 s pause")
            << QList<Step> { Step::failWith(FailureKind::TRANSIENT_SERVER, 2s), Step::ok(3s) } << 2 << FinalState::Succeeded
            << qint64(6000);
        QTest::addRow("invalid output twice") << QList<Step> { Step::failWith(FailureKind::OUTPUT_INVALID, 1s),
                                                               Step::failWith(FailureKind::OUTPUT_INVALID, 1s) }
                                              << 2 << FinalState::Failed << qint64(5000);
        QTest::addRow("auth is never retried") << QList<Step> { Step::failWith(FailureKind::AUTH_CONFIG, 1s), Step::ok(1s) } << 1
                                               << FinalState::Failed << qint64(-1);
        QTest::addRow("refusal is never retried")
            << QList<Step> { Step::failWith(FailureKind::REFUSED, 1s), Step::ok(1s) } << 1 << FinalState::Failed << qint64(-1);
    }

    void roundsPreset()
    {
        QFETCH(QList<Step>, steps);
        QFETCH(int, geminiCalls);
        QFETCH(FinalState, state);
        QFETCH(qint64, secondStartMs);
        Harness h(m_clock);
        h.gemini.script({ steps.value(0), steps.value(1) });
        h.qwen.script({ Step::ok(1s) });
        StagePolicy p = StagePolicy::sameProviderRounds(Provider::Gemini);
        h.service.start(request(), p);
        m_clock.advance(10min);

        const StageResult r = h.result();
        QCOMPARE(h.gemini.calls(), geminiCalls);
        QCOMPARE(h.qwen.calls(), 0); // never switches provider
        QCOMPARE(r.state, state);
        if (secondStartMs >= 0)
            QCOMPARE(std::chrono::duration_cast<std::chrono::milliseconds>(r.attempts.at(1).startedAt).count(), secondStartMs);
    }

    void cancelDuringRoundPause()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::failWith(FailureKind::NETWORK, 1s), Step::ok(1s) });
        const QString id = h.service.start(request(), StagePolicy::sameProviderRounds(Provider::Gemini));
        m_clock.advance(2s); // inside the 4 s pause
        QVERIFY(h.service.cancel(id));
        m_clock.advance(10min);
        QCOMPARE(h.result().state, FinalState::Cancelled);
        QCOMPARE(h.gemini.calls(), 1);
    }

    void missingAdapter_failsAsConfiguration()
    {
        Harness h(m_clock);
        h.service.start(request(), StagePolicy::relief(Provider::Gemini, Provider::Anthropic));
        m_clock.advance(1s);
        const StageResult r = h.result();
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(r.failure->kind, FailureKind::AUTH_CONFIG);
        QCOMPARE(h.gemini.calls(), 0);
    }

    void eventLog_data()
    {
        QTest::addColumn<QList<Step>>("geminiSteps");
        QTest::addColumn<QList<Step>>("qwenSteps");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("withFallback");
        QTest::addColumn<QStringList>("expected");

        const QList<Step> none;
        QTest::addRow("healthy") << QList<Step> { Step::ok(1500ms) } << none << QStringLiteral("relief") << true
                                 << QStringList {
                                        QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                                        QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                                        QStringLiteral("1500 storyboard_attempt_completed gemini primary r1 ok"),
                                        QStringLiteral("1500 generation_finished succeeded"),
                                    };
        QTest::addRow("overloaded primary, relief succeeds")
            << QList<Step> { Step::failWith(FailureKind::TRANSIENT_SERVER, 800ms) } << QList<Step> { Step::ok(2s) }
            << QStringLiteral("relief") << true
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("800 storyboard_attempt_completed gemini primary r1 TRANSIENT_SERVER eligible"),
                   QStringLiteral(
                       "800 storyboard_fallback_triggered gemini->qwen TRANSIENT_SERVER remaining=119200 gemini_provider_unavailable"),
                   QStringLiteral("800 storyboard_attempt_started qwen fallback r1 deadline=60800"),
                   QStringLiteral("2800 storyboard_attempt_completed qwen fallback r1 ok"),
                   QStringLiteral("2800 generation_finished succeeded fallback_applied"),
               };
        QTest::addRow("primary hangs, relief succeeds")
            << QList<Step> { Step::hang() } << QList<Step> { Step::ok(3s) } << QStringLiteral("relief") << true
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("60000 storyboard_attempt_completed gemini primary r1 TIMEOUT eligible aborted=deadline"),
                   QStringLiteral("60000 storyboard_fallback_triggered gemini->qwen TIMEOUT remaining=60000 gemini_timeout"),
                   QStringLiteral("60000 storyboard_attempt_started qwen fallback r1 deadline=120000"),
                   QStringLiteral("63000 storyboard_attempt_completed qwen fallback r1 ok"),
                   QStringLiteral("63000 generation_finished succeeded fallback_applied"),
               };
        QTest::addRow("auth failure ends the stage")
            << QList<Step> { Step::failWith(FailureKind::AUTH_CONFIG, 300ms) } << none << QStringLiteral("relief") << true
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("300 storyboard_attempt_completed gemini primary r1 AUTH_CONFIG"),
                   QStringLiteral("300 generation_finished failed AI_PROVIDER_CONFIG/AUTH_CONFIG"),
               };
        QTest::addRow("both down")
            << QList<Step> { Step::failWith(FailureKind::NETWORK, 100ms) }
            << QList<Step> { Step::failWith(FailureKind::TRANSIENT_SERVER, 200ms) } << QStringLiteral("relief") << true
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("100 storyboard_attempt_completed gemini primary r1 NETWORK eligible"),
                   QStringLiteral("100 storyboard_fallback_triggered gemini->qwen NETWORK remaining=119900 gemini_network_error"),
                   QStringLiteral("100 storyboard_attempt_started qwen fallback r1 deadline=60100"),
                   QStringLiteral("300 storyboard_attempt_completed qwen fallback r1 TRANSIENT_SERVER"),
                   QStringLiteral("300 generation_finished failed AI_PROVIDER_ERROR/TRANSIENT_SERVER"),
               };
        QTest::addRow("relief hangs too")
            << QList<Step> { Step::failWith(FailureKind::RATE_LIMITED, 1s) } << QList<Step> { Step::hang() } << QStringLiteral("relief")
            << true
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("1000 storyboard_attempt_completed gemini primary r1 RATE_LIMITED eligible"),
                   QStringLiteral("1000 storyboard_fallback_triggered gemini->qwen RATE_LIMITED remaining=119000 gemini_rate_limited"),
                   QStringLiteral("1000 storyboard_attempt_started qwen fallback r1 deadline=61000"),
                   QStringLiteral("61000 storyboard_attempt_completed qwen fallback r1 TIMEOUT aborted=deadline"),
                   QStringLiteral("61000 generation_finished failed AI_PROVIDER_TIMEOUT/TIMEOUT"),
               };
        QTest::addRow("no fallback configured")
            << QList<Step> { Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) } << none << QStringLiteral("relief") << false
            << QStringList {
                   QStringLiteral("0 generation_started relief gemini->none budget=60000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("1000 storyboard_attempt_completed gemini primary r1 TRANSIENT_SERVER"),
                   QStringLiteral("1000 generation_finished failed AI_PROVIDER_ERROR/TRANSIENT_SERVER"),
               };
        QTest::addRow("rounds: retry after pause")
            << QList<Step> { Step::failWith(FailureKind::RATE_LIMITED, 1s), Step::ok(2s) } << none << QStringLiteral("rounds") << false
            << QStringList {
                   QStringLiteral("0 generation_started rounds gemini->none budget=124000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("1000 storyboard_attempt_completed gemini primary r1 RATE_LIMITED"),
                   QStringLiteral("1000 storyboard_retry_scheduled gemini RATE_LIMITED next=r2 pause=4000"),
                   QStringLiteral("5000 storyboard_attempt_started gemini primary r2 deadline=65000"),
                   QStringLiteral("7000 storyboard_attempt_completed gemini primary r2 ok"),
                   QStringLiteral("7000 generation_finished succeeded"),
               };
        QTest::addRow("capacity: plain 500 is not relieved")
            << QList<Step> { Step::http(1s, 500,
                                        R"({"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}})") }
            << QList<Step> { Step::ok(1s) } << QStringLiteral("capacity") << true
            << QStringList {
                   QStringLiteral("0 generation_started capacity gemini->qwen budget=120000"),
                   QStringLiteral("0 storyboard_attempt_started gemini primary r1 deadline=60000"),
                   QStringLiteral("1000 storyboard_attempt_completed gemini primary r1 TRANSIENT_SERVER"),
                   QStringLiteral("1000 generation_finished failed AI_PROVIDER_ERROR/TRANSIENT_SERVER"),
               };
    }

    void eventLog()
    {
        QFETCH(QList<Step>, geminiSteps);
        QFETCH(QList<Step>, qwenSteps);
        QFETCH(QString, preset);
        QFETCH(bool, withFallback);
        QFETCH(QStringList, expected);
        Harness h(m_clock);
        h.gemini.script({ geminiSteps.value(0, Step::hang()), geminiSteps.value(1, Step::hang()) });
        h.qwen.script({ qwenSteps.value(0, Step::hang()) });
        const auto policy = StagePolicy::fromPreset(preset, Provider::Gemini, withFallback ? std::optional(Provider::Qwen) : std::nullopt);
        QVERIFY(policy);
        h.service.start(request(), *policy);
        m_clock.advance(10min);
        QCOMPARE(h.log, expected);

        // docs/contract.md §11 invariants 6-8 over the same log.
        const auto count = [&](const QString &type) {
            return std::count_if(h.events.cbegin(), h.events.cend(), [&](const Event &e) { return e.type() == type; });
        };
        QCOMPARE(count(QStringLiteral("generation_finished")), 1);
        QCOMPARE(count(QStringLiteral("storyboard_attempt_started")), count(QStringLiteral("storyboard_attempt_completed")));
        const bool fallbackRan = std::any_of(h.events.cbegin(), h.events.cend(), [](const Event &e) {
            const auto *s = std::get_if<AttemptStarted>(&e.body);
            return s && s->role == Role::Fallback;
        });
        QCOMPARE(count(QStringLiteral("storyboard_fallback_triggered")) == 1, fallbackRan);
        for (qsizetype i = 0; i < h.events.size(); ++i)
            QCOMPARE(h.events.at(i).sequence, quint64(i));
    }

    void rawUserIdNeverInEvents()
    {
        Harness h(m_clock);
        h.gemini.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
        h.qwen.script({ Step::ok(1s) });
        h.service.start(request(), relief());
        m_clock.advance(10min);
        for (const Event &e : std::as_const(h.events)) {
            const QByteArray json = QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
            QVERIFY2(!json.contains("haru@example.com"), json.constData());
        }
        const QByteArray result = QJsonDocument(h.result().toJson()).toJson();
        QVERIFY(!result.contains("haru@example.com"));
    }

    // docs/contract.md §4.3: "at or after the deadline" is refused; a valid result at exactly the deadline instant,
    // delivered before the deadline timer runs, is a TIMEOUT with a late_result_discarded (late by 0).
    // --- Admission: a stage that cannot start its attempt waits before its budget starts.

    void admissionWaitsBeforeTheBudgetStarts()
    {
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 8 });
        h.service.setAdmission(&admission);
        h.gemini.script({ Step::ok(3s, QStringLiteral("First")), Step::ok(2s, QStringLiteral("Second")) });
        StagePolicy p = relief();
        p.primaryTimeout = 4s;
        p.totalBudget = 4s; // the second generation would be out of budget if its wait counted
        const QString first = h.service.start(request(), p);
        const QString second = h.service.start(request(), p);
        m_clock.advance(1s);
        QCOMPARE(h.gemini.calls(), 1); // the second waits: nothing of it is on the wire
        QCOMPARE(admission.inFlight(Provider::Gemini), 1);
        QCOMPARE(admission.waiting(Provider::Gemini), 1);
        const auto queuedAt = std::find_if(h.events.cbegin(), h.events.cend(), [&](const Event &e) { return e.generationId == second; });
        QVERIFY(queuedAt != h.events.cend());
        const auto *q = std::get_if<StageQueued>(&std::next(queuedAt)->body); // after its generation_started
        QVERIFY2(q, qPrintable(std::next(queuedAt)->type()));
        QCOMPARE(q->ahead, 0);
        QCOMPARE(q->inFlight, 1);
        QCOMPARE(q->limit, 1);

        m_clock.advance(10min);
        QCOMPARE(h.finishedSpy.count(), 2);
        const StageResult a = h.finishedSpy.at(0).first().value<StageResult>();
        const StageResult b = h.finishedSpy.at(1).first().value<StageResult>();
        QCOMPARE(a.generationId, first);
        QCOMPARE(b.generationId, second);
        QCOMPARE(b.state, FinalState::Succeeded); // 3 s waiting + 2 s answer: fits only because the wait is not budget
        QCOMPARE(b.storyboard->title, QStringLiteral("Second"));
        QCOMPARE(b.queued, std::chrono::microseconds(3s));
        QCOMPARE(b.elapsed, std::chrono::microseconds(5s));
        QCOMPARE(h.qwen.calls(), 0);
        // Its attempt started when the first ended, with its whole own timeout ahead.
        QCOMPARE(b.attempts.first().startedAt, std::chrono::microseconds(3s));
        QCOMPARE(b.attempts.first().deadline, std::chrono::microseconds(3s + 4s));
        QVERIFY2(h.log.contains(QStringLiteral("3000 storyboard_admitted gemini waited=3000")), qPrintable(h.log.join(u'\n')));
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
        QCOMPARE(admission.waiting(Provider::Gemini), 0);
    }

    void admissionIsFirstComeFirstServed()
    {
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 2, 8 });
        h.service.setAdmission(&admission);
        h.gemini.script({ Step::ok(1s), Step::ok(1s), Step::ok(1s), Step::ok(1s), Step::ok(1s), Step::ok(1s) });
        QStringList ids;
        for (int i = 0; i < 6; ++i)
            ids << h.service.start(request(), relief());
        m_clock.advance(10min);
        QCOMPARE(h.finishedSpy.count(), 6);
        QStringList order;
        for (const auto &args : h.finishedSpy)
            order << args.first().value<StageResult>().generationId;
        QCOMPARE(order, ids);
        // Two at a time: the generation n waits n/2 rounds of 1 s.
        for (int i = 0; i < 6; ++i)
            QCOMPARE(h.finishedSpy.at(i).first().value<StageResult>().queued, std::chrono::microseconds(std::chrono::seconds(i / 2)));
    }

    void fullQueueIsRefusedAtOnce()
    {
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 0 });
        h.service.setAdmission(&admission);
        h.gemini.script({ Step::ok(3s), Step::ok(1s) });
        h.service.start(request(), relief());
        const QString refused = h.service.start(request(), relief());
        m_clock.advance(1ms);
        QCOMPARE(h.finishedSpy.count(), 1);
        const StageResult r = h.result();
        QCOMPARE(r.generationId, refused);
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(r.failure->kind, FailureKind::NOT_SENT);
        QCOMPARE(r.failure->publicCode(), PublicCode::INTERNAL_ERROR);
        QVERIFY2(r.failure->detail.contains(QStringLiteral("BULLPEN_MAX_IN_FLIGHT")), qPrintable(r.failure->detail));
        QVERIFY(r.attempts.isEmpty());
        QVERIFY(!r.fallback.applied);
        QCOMPARE(h.gemini.calls(), 1);
        QCOMPARE(h.qwen.calls(), 0);
        m_clock.advance(10min);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
    }

    void cancelWhileQueuedNeverStarts()
    {
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 8 });
        h.service.setAdmission(&admission);
        h.gemini.script({ Step::ok(3s), Step::ok(1s) });
        h.service.start(request(), relief());
        const QString waiting = h.service.start(request(), relief());
        m_clock.advance(1s);
        QVERIFY(h.service.cancel(waiting));
        QCOMPARE(admission.waiting(Provider::Gemini), 0);
        m_clock.advance(10min);
        QCOMPARE(h.finishedSpy.count(), 2);
        const StageResult r = h.finishedSpy.at(0).first().value<StageResult>();
        QCOMPARE(r.generationId, waiting);
        QCOMPARE(r.state, FinalState::Cancelled);
        QVERIFY(r.attempts.isEmpty());
        QCOMPARE(h.gemini.calls(), 1);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
    }

    void cancelAfterTheGrantGivesTheSlotBack()
    {
        // The slot is taken for the waiter when the first ends; the waiter is cancelled before its
        // admission runs: the slot goes to the next in line, not lost.
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 8 });
        h.service.setAdmission(&admission);
        h.gemini.script({ Step::ok(1s, QStringLiteral("a")), Step::ok(1s, QStringLiteral("c")) });
        h.service.start(request(), relief());
        const QString b = h.service.start(request(), relief());
        const QString c = h.service.start(request(), relief());
        QObject::connect(&h.service, &StageService::finished, &h.service, [&](const StageResult &r) {
            if (r.storyboard && r.storyboard->title == u"a")
                h.service.cancel(b); // granted to b a moment ago, not yet run
        });
        m_clock.advance(10min);
        QCOMPARE(h.finishedSpy.count(), 3);
        const StageResult last = h.finishedSpy.at(2).first().value<StageResult>();
        QCOMPARE(last.generationId, c);
        QCOMPARE(last.state, FinalState::Succeeded);
        QCOMPARE(h.gemini.calls(), 2);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
    }

    void fallbackNeverWaitsForASlot()
    {
        Harness h(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 8 });
        h.service.setAdmission(&admission);
        // Generation A holds the one qwen slot (qwen as its primary); B's gemini fails over to qwen.
        h.qwen.script({ Step::ok(5s, QStringLiteral("A by qwen")), Step::ok(1s) });
        h.gemini.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
        h.service.start(request(), StagePolicy::relief(Provider::Qwen, Provider::Gemini));
        const QString b = h.service.start(request(), relief());
        m_clock.advance(10min);
        QCOMPARE(h.finishedSpy.count(), 2);
        const StageResult r = h.finishedSpy.at(0).first().value<StageResult>();
        QCOMPARE(r.generationId, b);
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(r.attempts.size(), 1);
        QVERIFY(!r.fallback.applied);
        QVERIFY2(r.decision.contains(QStringLiteral("in-flight limit")), qPrintable(r.decision));
        QCOMPARE(h.qwen.calls(), 1);
        QCOMPARE(admission.inFlight(Provider::Qwen), 0);
        QCOMPARE(admission.inFlight(Provider::Gemini), 0);
    }

    void deadlineBeforeTheRequestLeftIsOurs()
    {
        // The generator never sends (HeldGenerator notes no request): the time went inside Bullpen.
        HeldGenerator held;
        StageService service(m_clock);
        ScriptedGenerator qwen(m_clock, Provider::Qwen, QStringLiteral("qwen-plus"), nullptr);
        qwen.script({ Step::ok(1s) });
        service.addGenerator(&held);
        service.addGenerator(&qwen);
        QSignalSpy finished(&service, &StageService::finished);
        StagePolicy p = relief();
        p.primaryTimeout = 2s;
        service.start(request(), p);
        m_clock.advance(10min);
        QCOMPARE(finished.count(), 1);
        const StageResult r = finished.first().first().value<StageResult>();
        QCOMPARE(r.attempts.first().failure->kind, FailureKind::NOT_SENT);
        QCOMPARE(r.attempts.first().requestsSent, 0);
        QVERIFY2(r.attempts.first().failure->detail.contains(QStringLiteral("never received")),
                 qPrintable(r.attempts.first().failure->detail));
        QCOMPARE(qwen.calls(), 0); // the provider is not blamed, and fallback is not its to trigger
        QCOMPARE(r.state, FinalState::Failed);
        QCOMPARE(r.failure->kind, FailureKind::NOT_SENT);
        QVERIFY(r.fallback.reason.isEmpty());
    }

    void cancelBetweenTheDeadlineAndItsFollowUpStartsNothing()
    {
        // A deadline's abort happens at once; the fallback decision follows from the event loop. An operator
        // cancel that lands in between must win: no fallback request, the generation CANCELLED.
        AbortHookGenerator primary;
        StageService service(m_clock);
        ScriptedGenerator qwen(m_clock, Provider::Qwen, QStringLiteral("qwen-plus"), nullptr);
        qwen.script({ Step::ok(1s) });
        service.addGenerator(&primary);
        service.addGenerator(&qwen);
        QSignalSpy finished(&service, &StageService::finished);
        StagePolicy p = relief();
        p.primaryTimeout = 2s;
        const QString id = service.start(request(), p);
        primary.onAbort = [&] {
            QVERIFY(service.cancel(id));
        };
        m_clock.advance(10min);
        QCOMPARE(finished.count(), 1);
        const StageResult r = finished.first().first().value<StageResult>();
        QCOMPARE(r.state, FinalState::Cancelled);
        QCOMPARE(r.attempts.size(), 1);
        QCOMPARE(r.attempts.first().failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(qwen.calls(), 0);
        QVERIFY2(r.decision.contains(QStringLiteral("cancelled right after")), qPrintable(r.decision));
    }

    void resultExactlyAtTheDeadline_isRefused()
    {
        FrozenClock clock;
        clock.at = Clock::time_point(std::chrono::seconds(1000));
        HeldGenerator generator;
        AttemptSpec spec;
        spec.attemptId = 1;
        spec.stageStart = clock.at;
        spec.deadline = clock.at + 5s;
        AttemptRunner runner(clock, generator, spec);
        QSignalSpy finished(&runner, &AttemptRunner::finished);
        QSignalSpy late(&runner, &AttemptRunner::lateResultDiscarded);
        runner.start(StageRequest::forStory(QStringLiteral("A story."), QStringLiteral("u")));
        QVERIFY(generator.context);
        clock.at = spec.deadline; // exactly the deadline, not one tick after
        generator.context->deliver(Step::ok(0ms).response.value());
        QCOMPARE(finished.size(), 1);
        const auto outcome = finished.first().first().value<AttemptOutcome>();
        QVERIFY(!outcome.record.success);
        QCOMPARE(outcome.record.failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(late.size(), 1);
        const auto discarded = late.first().first().value<LateResultDiscarded>();
        QCOMPARE(discarded.lateBy, std::chrono::microseconds(0));
        QVERIFY(discarded.wouldHaveSucceeded);
    }

    // The duration of an attempt ended by its deadline is its whole timeout: both are measured from the
    // instant the deadline was computed (the service computes it a moment before the runner starts).
    void durationIsMeasuredFromTheDeadlinesOwnStart()
    {
        FrozenClock clock;
        clock.at = Clock::time_point(std::chrono::seconds(1000));
        HeldGenerator generator;
        AttemptSpec spec;
        spec.attemptId = 1;
        spec.stageStart = clock.at - 100ms;
        spec.startedAt = clock.at - 30us; // the service computed the deadline 30 µs before start() ran
        spec.deadline = *spec.startedAt + 2s;
        AttemptRunner runner(clock, generator, spec);
        QSignalSpy finished(&runner, &AttemptRunner::finished);
        runner.start(StageRequest::forStory(QStringLiteral("A story."), QStringLiteral("u")));
        clock.at = spec.deadline + 1ms; // a late answer ends it as a timeout
        generator.context->deliver(Step::ok(0ms).response.value());
        QCOMPARE(finished.size(), 1);
        const auto outcome = finished.first().first().value<AttemptOutcome>();
        QCOMPARE(outcome.record.startedAt, std::chrono::microseconds(100ms - 30us));
        QCOMPARE(outcome.record.deadline - outcome.record.startedAt, std::chrono::microseconds(2s));
        QCOMPARE(outcome.record.duration, std::chrono::microseconds(2001ms));
    }

private:
    // One attempt starting now with a 5 s deadline.
    static AttemptSpec fiveSecondAttempt(const Clock &clock)
    {
        AttemptSpec spec;
        spec.attemptId = 1;
        spec.stageStart = clock.now();
        spec.deadline = clock.now() + 5s;
        return spec;
    }

private Q_SLOTS:
    // docs/contract.md §12.3: the whole answer arrived 10 ms before the deadline; reading it (a 6 MB body on a pool
    // thread) ends 200 ms after. The deadline does not abort it meanwhile, and it is accepted.
    void answerWhoseLastByteCameInTime_isAcceptedAfterALongRead()
    {
        ManualClock clock;
        HeldGenerator generator;
        const AttemptSpec spec = fiveSecondAttempt(clock);
        AttemptRunner runner(clock, generator, spec);
        QSignalSpy finished(&runner, &AttemptRunner::finished);
        runner.start(StageRequest::forStory(QStringLiteral("A story."), QStringLiteral("u")));
        QVERIFY(generator.context);
        clock.advance(3ms);
        generator.context->noteRequestSent(); // on the wire 3 ms after the attempt started
        clock.advance(4987ms);
        generator.context->noteAnswerComplete(clock.now()); // the adapter: last byte in, parsing starts
        clock.advance(200ms); // the deadline passes while it parses
        QCOMPARE(finished.size(), 0); // not aborted
        QCOMPARE(generator.context->cancelHandlersRun(), 0);
        generator.context->deliver(Step::ok(0ms).response.value());
        QCOMPARE(finished.size(), 1);
        const auto outcome = finished.first().first().value<AttemptOutcome>();
        QVERIFY2(outcome.record.success, qPrintable(outcome.record.failure ? outcome.record.failure->detail : QString()));
        QCOMPARE(outcome.record.abortedBy, AbortReason::None);
        QCOMPARE(outcome.record.sentAt, std::optional<std::chrono::microseconds>(3ms));
        // The record says what it was judged by: the last byte at 4,990 ms, before the 5,000 ms deadline,
        // though the attempt ended at 5,190 ms (a soak's ledger judges acceptance by the same figure).
        QCOMPARE(outcome.record.answerCompleteAt, std::optional<std::chrono::microseconds>(4990ms));
        QCOMPARE(outcome.record.startedAt + outcome.record.duration, std::chrono::microseconds(5190ms));
        QCOMPARE(AttemptRecord::fromJson(outcome.record.toJson())->answerCompleteAt, outcome.record.answerCompleteAt);
    }

    // The same answer whose last byte came 1 ms after the deadline is refused, even if read at once.
    void answerWhoseLastByteCameLate_isRefused()
    {
        ManualClock clock;
        HeldGenerator generator;
        const AttemptSpec spec = fiveSecondAttempt(clock);
        DeafAtClock deaf(clock, spec.deadline); // the deadline timer is late: the answer gets in first
        AttemptRunner runner(deaf, generator, spec);
        QSignalSpy finished(&runner, &AttemptRunner::finished);
        runner.start(StageRequest::forStory(QStringLiteral("A story."), QStringLiteral("u")));
        generator.context->noteRequestSent();
        clock.advance(5001ms);
        generator.context->noteAnswerComplete(clock.now());
        generator.context->deliver(Step::ok(0ms).response.value());
        QCOMPARE(finished.size(), 1);
        const auto outcome = finished.first().first().value<AttemptOutcome>();
        QVERIFY(!outcome.record.success);
        QCOMPARE(outcome.record.failure->kind, FailureKind::TIMEOUT);
        QVERIFY2(outcome.record.failure->detail.contains(QStringLiteral("1 ms after")), qPrintable(outcome.record.failure->detail));
    }
};

QTEST_GUILESS_MAIN(tst_GenerationService)
#include "tst_generationservice.moc"
