// SPDX-License-Identifier: MIT
// Breakers and drains (docs/contract.md §13) on a ManualClock: the board's rule on its own, then the
// storyboard stage that obeys it (skip to the fallback with the whole budget, half-open trials, the
// fallback also open, breakers off), then the settings that configure it.
#include "config/settings.h"
#include "config/settingstable.h"
#include "engine/admission.h"
#include "engine/breakeraudit.h"
#include "engine/breakerboard.h"
#include "engine/manualclock.h"
#include "engine/stageservice.h"
#include "pipeline/engineclient.h"
#include "scriptedgenerator.h"
#include "service/prober.h"
#include "store/proberecords.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(bullpen::BreakerCount)

namespace {

const BreakerKey kGeminiPrimary { Provider::Gemini, Role::Primary, Stage::Storyboard };
const BreakerKey kQwenFallback { Provider::Qwen, Role::Fallback, Stage::Storyboard };

// The storyboard stage of one engine with gemini → qwen, and a board shared by its generations.
struct Rig
{
    explicit Rig(ManualClock &c, BreakerSettings settings = {}, bool withBoard = true)
        : clock(c)
        , board(settings)
        , gemini(c, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), &calls)
        , qwen(c, Provider::Qwen, QStringLiteral("qwen-plus"), &calls)
        , service(c)
    {
        board.setWallClock([this] { return wall; });
        board.setRandom([] { return 0.0; }); // the cooldowns exactly as configured
        service.addGenerator(&gemini);
        service.addGenerator(&qwen);
        if (withBoard)
            service.setBreakers(&board);
        QObject::connect(&service, &StageService::eventRecorded, &service, [this](const Event &e) {
            events << e;
            log << formatEvent(e);
        });
        QObject::connect(&service, &StageService::finished, &service, [this](const StageResult &r) { results << r; });
        QObject::connect(&board, &BreakerBoard::changed, &board, [this](const BreakerChange &change) { changes << change.type; });
    }

    // One generation from start to end (the clock moves on by `span`).
    StageResult run(const StagePolicy &policy, std::chrono::milliseconds span = 10min)
    {
        service.start(StageRequest::forStory(QStringLiteral("A cat finds a hat."), QStringLiteral("haru@example.com")), policy);
        clock.advance(span);
        return results.last();
    }
    // `n` generations whose primary fails with `kind` after 1 s and whose fallback answers after 1 s.
    void failPrimary(int n, FailureKind kind = FailureKind::TIMEOUT)
    {
        for (int i = 0; i < n; ++i) {
            gemini.script({ Step::failWith(kind, 1s) });
            qwen.script({ Step::ok(1s) });
            run(relief(), 3s);
        }
    }
    static StagePolicy relief() { return StagePolicy::relief(Provider::Gemini, Provider::Qwen); }

    ManualClock &clock;
    QDateTime wall = QDateTime(QDate(2026, 12, 3), QTime(3, 0), Qt::UTC);
    // Before the service: its destructor cancels what still runs, and the handlers above write here.
    QList<Event> events;
    QStringList log;
    QList<StageResult> results;
    QStringList changes;
    BreakerBoard board;
    QStringList calls;
    ScriptedGenerator gemini;
    ScriptedGenerator qwen;
    StageService service;
};

// An engine that refuses every generation at once, inside start() (as a full queue or a stopping engine may).
class RefusingEngine final : public EngineClient
{
public:
    QString start(const GenerationRequest &request) override
    {
        ++starts;
        GenerationResult result;
        result.generationId = request.generationId.isEmpty() ? QStringLiteral("gen_refused_%1").arg(starts) : request.generationId;
        result.state = FinalState::Failed;
        Q_EMIT finished(result);
        return result.generationId;
    }
    bool cancel(const QString &) override { return false; }
    int activeCount() const override { return 0; }
    int starts = 0;
};

template<typename T> QList<T> bodies(const QList<Event> &events)
{
    QList<T> out;
    for (const Event &e : events)
        if (const auto *b = std::get_if<T>(&e.body))
            out << *b;
    return out;
}

} // namespace

class tst_Breakers : public QObject
{
    Q_OBJECT

    ManualClock m_clock;

private Q_SLOTS:
    // --- The rule, on the board alone ---

    void countsEachKind_data()
    {
        QTest::addColumn<int>("kind"); // -1: success
        QTest::addColumn<BreakerCount>("count");
        QTest::addColumn<bool>("opens"); // five of them in a row open the breaker
        QTest::addRow("success") << -1 << BreakerCount::Success << false;
        for (FailureKind k : { FailureKind::TRANSIENT_SERVER, FailureKind::RATE_LIMITED, FailureKind::QUOTA_EXHAUSTED, FailureKind::TIMEOUT,
                               FailureKind::NETWORK, FailureKind::OUTPUT_INVALID, FailureKind::OUTPUT_TRUNCATED, FailureKind::AUTH_CONFIG,
                               FailureKind::UNKNOWN })
            QTest::addRow("%s blames the provider", qPrintable(enumName(k))) << int(k) << BreakerCount::Blamed << true;
        for (FailureKind k : { FailureKind::REQUEST_REJECTED, FailureKind::REFUSED, FailureKind::TLS })
            QTest::addRow("%s reached it, no outage", qPrintable(enumName(k))) << int(k) << BreakerCount::Neutral << false;
        for (FailureKind k : { FailureKind::CANCELLED, FailureKind::NOT_SENT, FailureKind::INTERNAL })
            QTest::addRow("%s is not counted", qPrintable(enumName(k))) << int(k) << BreakerCount::Ignored << false;
    }

    void countsEachKind()
    {
        QFETCH(int, kind);
        QFETCH(BreakerCount, count);
        QFETCH(bool, opens);
        const std::optional<FailureKind> k = kind < 0 ? std::nullopt : std::optional(static_cast<FailureKind>(kind));
        QCOMPARE(breakerCount(k), count);
        BreakerBoard board({});
        const auto t0 = m_clock.now();
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, breakerCount(k), false, t0 + i * 1s, k);
        QCOMPARE(board.admit(kGeminiPrimary, t0 + 5s).verdict == BreakerGate::Skip, opens);
    }

    void opensAtTheMinimumAndTheRatio()
    {
        BreakerBoard board({});
        const auto t0 = m_clock.now();
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + i * 1s, FailureKind::TIMEOUT);
        QCOMPARE(board.admit(kGeminiPrimary, t0 + 4s).verdict, BreakerGate::Pass); // 4 of 4: below the minimum of 5
        board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + 5s, FailureKind::TIMEOUT);
        const BreakerGate gate = board.admit(kGeminiPrimary, t0 + 5s);
        QCOMPARE(gate.verdict, BreakerGate::Skip);
        QCOMPARE(gate.state, QStringLiteral("open"));
        QVERIFY2(gate.why.contains(QStringLiteral("5 of 5 attempts in the last 60 s failed (TIMEOUT ×5)")), qPrintable(gate.why));

        // 2 failures in 5 (40 %) stay closed; the third failure in 6 (50 %) opens.
        BreakerBoard ratio({});
        for (bool fail : { true, false, true, false, false })
            ratio.record(kGeminiPrimary, fail ? BreakerCount::Blamed : BreakerCount::Success, false, t0, FailureKind::RATE_LIMITED);
        QCOMPARE(ratio.admit(kGeminiPrimary, t0).verdict, BreakerGate::Pass);
        ratio.record(kGeminiPrimary, BreakerCount::Blamed, false, t0, FailureKind::RATE_LIMITED);
        QCOMPARE(ratio.admit(kGeminiPrimary, t0).verdict, BreakerGate::Skip);
    }

    // The minimum of attempts is a boundary of state, whatever its reason text says: min − 1 failures
    // leave the breaker CLOSED (counted, passing), the min-th opens it, for several minimums.
    void minimumAttemptsIsAStateBoundary_data()
    {
        QTest::addColumn<int>("minimum");
        for (int m : { 1, 2, 5, 8 })
            QTest::addRow("min_attempts %d", m) << m;
    }
    void minimumAttemptsIsAStateBoundary()
    {
        QFETCH(int, minimum);
        BreakerSettings settings;
        settings.minAttempts = minimum;
        BreakerBoard board(settings);
        const auto t0 = m_clock.now();
        const auto stateOf = [&board](Clock::time_point now) {
            const std::vector<BreakerView> views = board.breakers(now);
            const auto it = std::find_if(views.begin(), views.end(), [](const BreakerView &v) { return v.key == kGeminiPrimary; });
            return it == views.end() ? std::optional<BreakerView>() : std::optional<BreakerView>(*it);
        };
        for (int i = 0; i < minimum - 1; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + i * 1s, FailureKind::TIMEOUT);
        const auto before = t0 + (minimum - 1) * 1s;
        const std::optional<BreakerView> below = stateOf(before);
        QVERIFY(minimum == 1 ? !below || below->state == BreakerState::Closed : below && below->state == BreakerState::Closed);
        QCOMPARE(below ? below->failures : 0, minimum - 1);
        QCOMPARE(board.peek(kGeminiPrimary, before).verdict, BreakerGate::Pass);

        board.record(kGeminiPrimary, BreakerCount::Blamed, false, before, FailureKind::TIMEOUT);
        const std::optional<BreakerView> at = stateOf(before);
        QVERIFY(at);
        QCOMPARE(at->state, BreakerState::Open);
        QCOMPARE(at->opened, 1);
        QCOMPARE(board.peek(kGeminiPrimary, before).verdict, BreakerGate::Skip);
    }

    void opensOnFailuresInARowDespiteEarlierSuccesses()
    {
        // A busy provider: 100 successes, then it starts to fail. By the window's ratio alone it would stay
        // closed for dozens more failures; five in a row open it.
        BreakerBoard board({});
        const auto t0 = m_clock.now();
        for (int i = 0; i < 100; ++i)
            board.record(kGeminiPrimary, BreakerCount::Success, false, t0);
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + 10s, FailureKind::TIMEOUT);
        board.record(kGeminiPrimary, BreakerCount::Neutral, false, t0 + 10s, FailureKind::REFUSED); // an answer breaks the row
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + 10s, FailureKind::TIMEOUT);
        QCOMPARE(board.admit(kGeminiPrimary, t0 + 10s).verdict, BreakerGate::Pass);
        board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + 10s, FailureKind::TIMEOUT);
        const BreakerGate gate = board.admit(kGeminiPrimary, t0 + 10s);
        QCOMPARE(gate.verdict, BreakerGate::Skip);
        QVERIFY2(gate.why.contains(QStringLiteral("the last 5 attempts failed in a row (9 of 110")), qPrintable(gate.why));
    }

    void forgetsWhatLeftTheWindow()
    {
        BreakerBoard board({});
        const auto t0 = m_clock.now();
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0, FailureKind::TIMEOUT);
        board.record(kGeminiPrimary, BreakerCount::Blamed, false, t0 + 62s, FailureKind::TIMEOUT);
        QCOMPARE(board.admit(kGeminiPrimary, t0 + 62s).verdict, BreakerGate::Pass);
        QCOMPARE(board.breakers(t0 + 62s).front().attempts, 1);
    }

    void cooldownDoublesUpToItsCap()
    {
        BreakerBoard board({});
        board.setRandom([] { return 0.0; });
        QSignalSpy changes(&board, &BreakerBoard::changed);
        auto t = m_clock.now();
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TRANSIENT_SERVER);
        QList<qint64> cooldowns;
        for (int round = 0; round < 6; ++round) {
            const BreakerView v = board.breakers(t).front();
            QCOMPARE(v.state, BreakerState::Open);
            cooldowns << v.cooldown.count();
            QCOMPARE(board.admit(kGeminiPrimary, t + v.cooldown - 1ms).verdict, BreakerGate::Skip); // not a moment early
            t += v.cooldown;
            QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
            QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Skip); // exactly one trial
            board.record(kGeminiPrimary, BreakerCount::Blamed, true, t + 1s, FailureKind::TIMEOUT);
            // The next wait counts from the trial's sending (t), not from its failure a second later.
        }
        QCOMPARE(cooldowns, (QList<qint64> { 30'000, 60'000, 120'000, 240'000, 300'000, 300'000 }));
        // A trial that succeeds closes it, and the cooldown starts again from 30 s next time.
        t += 300s;
        QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
        board.record(kGeminiPrimary, BreakerCount::Success, true, t + 1s);
        QCOMPARE(board.breakers(t).front().state, BreakerState::Closed);
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t + 2s, FailureKind::TIMEOUT);
        QCOMPARE(board.breakers(t + 2s).front().cooldown, 30s);
        QStringList types;
        for (const auto &args : changes)
            types << args.first().value<BreakerChange>().type;
        QCOMPARE(types.count(QStringLiteral("breaker_opened")), 8); // the first, six trials failed, and after closing
        QCOMPARE(types.count(QStringLiteral("breaker_half_open")), 7);
        QCOMPARE(types.count(QStringLiteral("breaker_closed")), 1);
    }

    // A trial that hangs until its timeout does not add that timeout to the wait: the next trial goes a
    // cooldown after the failed one was sent, so a provider that came back during the hang is tried at
    // most a cooldown after (docs/operations.md, "Alerts": the outage series' critical alert resolves
    // within 5 minutes of the outage's end).
    void hangingTrialWaitCountsFromItsSending()
    {
        BreakerBoard board({});
        board.setRandom([] { return 0.0; });
        auto t = m_clock.now();
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TIMEOUT);
        for (int round = 0; round < 6; ++round) { // up to the 300 s cap
            t += board.breakers(t).front().cooldown;
            QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
            board.record(kGeminiPrimary, BreakerCount::Blamed, true, t + 60s, FailureKind::TIMEOUT); // hung for 60 s
        }
        const BreakerView v = board.breakers(t + 60s).front();
        QCOMPARE(v.cooldown, 300s);
        // Each transition is one audit line of the engine's: what, on which breaker, and why.
        const auto line = engineAuditLine(BreakerChange { QStringLiteral("breaker_opened"), kGeminiPrimary, std::nullopt, v.reason, {} });
        QVERIFY(line);
        QCOMPARE(line->action, QStringLiteral("breaker_opened"));
        QCOMPARE(line->target, QStringLiteral("gemini/primary/storyboard (%1)").arg(v.reason));
        QCOMPARE(board.admit(kGeminiPrimary, t + 300s - 1ms).verdict, BreakerGate::Skip);
        QCOMPARE(board.admit(kGeminiPrimary, t + 300s).verdict, BreakerGate::Trial); // not t + 360 s
    }

    // docs/api.md "Providers": an operator's reset closes an open breaker at once, says who, and the next
    // opening starts again from the first cooldown; a closed breaker is only emptied.
    void resetClosesAndStartsTheCooldownAgain()
    {
        BreakerBoard board({});
        board.setRandom([] { return 0.0; }); // the cooldowns exactly as configured
        QSignalSpy changes(&board, &BreakerBoard::changed);
        auto t = m_clock.now();
        QVERIFY(!board.reset(kGeminiPrimary, QStringLiteral("ops"), {}, t)); // never seen: nothing to reset
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TIMEOUT);
        t += 30s;
        QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
        board.record(kGeminiPrimary, BreakerCount::Blamed, true, t, FailureKind::TIMEOUT); // open again for 60 s
        QCOMPARE(board.breakers(t).front().cooldown, 60s);
        QVERIFY(board.reset(kGeminiPrimary, QStringLiteral("ops"), QStringLiteral("fixed"), t + 1s));
        QCOMPARE(board.breakers(t + 1s).front().state, BreakerState::Closed);
        QCOMPARE(board.admit(kGeminiPrimary, t + 1s).verdict, BreakerGate::Pass);
        const BreakerChange last = changes.last().first().value<BreakerChange>();
        QCOMPARE(last.type, QStringLiteral("breaker_closed"));
        QCOMPARE(last.reason, QStringLiteral("reset by ops: fixed"));
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t + 2s, FailureKind::TIMEOUT);
        QVERIFY(!board.reset(kGeminiPrimary, QStringLiteral("ops"), {}, t + 2s)); // closed: the 4 failures are forgotten
        board.record(kGeminiPrimary, BreakerCount::Blamed, false, t + 2s, FailureKind::TIMEOUT);
        QCOMPARE(board.breakers(t + 2s).front().state, BreakerState::Closed);
        for (int i = 0; i < 4; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t + 3s, FailureKind::TIMEOUT);
        QCOMPARE(board.breakers(t + 3s).front().cooldown, 30s); // the first cooldown again, not 120 s
    }

    void uncountedTrialHandsTheTrialBack()
    {
        BreakerBoard board({});
        board.setRandom([] { return 0.0; });
        auto t = m_clock.now();
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TIMEOUT);
        t += 30s;
        QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
        board.record(kGeminiPrimary, BreakerCount::Ignored, true, t, FailureKind::CANCELLED);
        QCOMPARE(board.breakers(t).front().state, BreakerState::HalfOpen);
        QCOMPARE(board.admit(kGeminiPrimary, t).verdict, BreakerGate::Trial);
    }

    // Engines that share a store see the same outage and open together: each one's wait is its cooldown
    // less up to 10 % of it (never more than the cooldown), drawn from its own random source, so they do
    // not half-open in lockstep.
    void cooldownHasJitterFromItsRandomSource()
    {
        const auto openAt = [this](quint32 seed) -> std::chrono::milliseconds {
            BreakerBoard board({});
            QRandomGenerator random(seed);
            board.setRandom([&random] { return random.generateDouble(); });
            const auto t = m_clock.now();
            for (int i = 0; i < 5; ++i)
                board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TIMEOUT);
            auto wait = 26'000ms;
            while (board.peek(kGeminiPrimary, t + wait).verdict == BreakerGate::Skip)
                wait += 1ms;
            if (board.breakers(t).front().cooldown != 30s) // the nominal cooldown, as configured
                return 0ms;
            return wait;
        };
        QList<std::chrono::milliseconds> waits;
        for (quint32 seed = 1; seed <= 4; ++seed) {
            const auto wait = openAt(seed);
            QVERIFY2(wait >= 27s && wait <= 30s, qPrintable(QString::number(wait.count())));
            waits << wait;
        }
        QCOMPARE(openAt(1), waits.first()); // deterministic under a seeded source
        std::sort(waits.begin(), waits.end());
        QVERIFY2(std::adjacent_find(waits.begin(), waits.end()) == waits.end(), "two engines half-open at the same instant");
    }

    // What /v1/providers shows: an OPEN breaker past its wait is HALF_OPEN (the next request is its trial)
    // without a request having to arrive first; a breaker closed again carries no reason.
    void viewIsHalfOpenByTimeAndClosedHasNoReason()
    {
        BreakerBoard board({});
        board.setRandom([] { return 0.0; });
        const QDateTime wall(QDate(2026, 12, 3), QTime(3, 0), Qt::UTC);
        QDateTime wallNow = wall;
        board.setWallClock([&wallNow] { return wallNow; });
        auto t = m_clock.now();
        for (int i = 0; i < 5; ++i)
            board.record(kGeminiPrimary, BreakerCount::Blamed, false, t, FailureKind::TIMEOUT);
        QCOMPARE(board.breakers(t).front().state, BreakerState::Open);
        QCOMPARE(board.breakers(t).front().retryAt, wall.addSecs(30));
        wallNow = wall.addSecs(31);
        const BreakerView due = board.breakers(t + 31s).front();
        QCOMPARE(due.state, BreakerState::HalfOpen);
        QCOMPARE(due.since, wall.addSecs(30));
        QVERIFY(!due.retryAt);
        QCOMPARE(board.admit(kGeminiPrimary, t + 31s).verdict, BreakerGate::Trial); // as the engine does
        board.record(kGeminiPrimary, BreakerCount::Success, true, t + 32s);
        const BreakerView closed = board.breakers(t + 32s).front();
        QCOMPARE(closed.state, BreakerState::Closed);
        QVERIFY2(closed.reason.isEmpty(), qPrintable(closed.reason));
    }

    // A HALF_OPEN breaker's trial is taken when the request is admitted, not while it waits in line: the
    // wait leaves the trial to whoever can use it now (a probe, another request with a free slot).
    void trialIsTakenAtAdmission()
    {
        Rig r(m_clock);
        Admission admission(m_clock);
        admission.setLimits({ 1, 16 });
        r.service.setAdmission(&admission);
        r.failPrimary(5);
        QCOMPARE(r.board.breakers(m_clock.now()).front().state, BreakerState::Open);
        // No fallback: gemini is tried as usual despite its breaker, and holds gemini's one slot.
        r.gemini.script({ Step::hang() });
        const QString holder =
            r.service.start(StageRequest::forStory(QStringLiteral("holder"), {}), StagePolicy::relief(Provider::Gemini, std::nullopt));
        m_clock.advance(1s);
        QCOMPARE(admission.inFlight(Provider::Gemini), 1);
        m_clock.advance(30s); // the cooldown is over: the next request to reach gemini is its trial
        r.gemini.script({ Step::ok(1s) });
        r.service.start(StageRequest::forStory(QStringLiteral("waits"), {}), Rig::relief());
        m_clock.advance(1s);
        QCOMPARE(admission.waiting(Provider::Gemini), 1);
        // While it waits in line, the trial is not taken: a probe or a request with a slot could still use it.
        QCOMPARE(r.board.peek(kGeminiPrimary, m_clock.now()).verdict, BreakerGate::Trial);
        const int calls = r.gemini.calls();
        QVERIFY(r.service.cancel(holder));
        m_clock.advance(100ms); // admitted: now it takes the trial
        QCOMPARE(r.gemini.calls(), calls + 1);
        QCOMPARE(r.board.peek(kGeminiPrimary, m_clock.now()).verdict, BreakerGate::Skip);
        m_clock.advance(2s);
        QCOMPARE(r.changes.last(), QStringLiteral("breaker_closed"));
    }

    // A probe refused synchronously (finished inside start()) is over: its target is probed again at the
    // next tick, not left "running" for ever.
    void probeRefusedAtOnceIsProbedAgain()
    {
        RefusingEngine engine;
        BreakerBoard board({});
        Prober prober(engine, board, SteadyClock::instance(), PipelineOptions {}, nullptr, 0ms);
        const int targets = int(Prober::targetsOf(PipelineOptions {}).size());
        prober.tick();
        QCOMPARE(engine.starts, targets);
        prober.tick();
        QCOMPARE(engine.starts, 2 * targets);
    }

    // --- The stage that obeys it ---

    void openPrimaryIsSkippedWithTheWholeBudget()
    {
        Rig r(m_clock);
        r.failPrimary(5);
        QCOMPARE(r.gemini.calls(), 5);
        QCOMPARE(r.changes, QStringList { QStringLiteral("breaker_opened") });

        r.qwen.script({ Step::ok(200ms, QStringLiteral("By Qwen")) });
        const auto start = m_clock.now();
        const StageResult res = r.run(Rig::relief(), 1s);
        QCOMPARE(r.gemini.calls(), 5); // not called
        QCOMPARE(r.qwen.calls(), 6);
        QCOMPARE(res.state, FinalState::Succeeded);
        QVERIFY(res.fallback.applied);
        QCOMPARE(res.fallback.reason, QStringLiteral("gemini_circuit_open"));
        QCOMPARE(res.fallback.primaryProvider, Provider::Gemini);
        QCOMPARE(res.fallback.finalProvider, Provider::Qwen);
        QCOMPARE(res.attempts.size(), 1);
        QCOMPARE(res.attempts.first().role, Role::Fallback);
        QCOMPARE(res.elapsed, std::chrono::microseconds(200ms)); // no primary timeout paid
        QVERIFY2(res.decision.contains(QStringLiteral("skipped")), qPrintable(res.decision));
        // The fallback's deadline: its own timeout from the start, with the whole 120 s budget behind it.
        QCOMPARE(r.qwen.deadlines().last(), start + 60s);

        const QList<PrimarySkipped> skips = bodies<PrimarySkipped>(r.events);
        QCOMPARE(skips.size(), 1);
        QCOMPARE(skips.first().state, QStringLiteral("open"));
        QCOMPARE(skips.first().to, Provider::Qwen);
        QCOMPARE(skips.first().reason, QStringLiteral("gemini_circuit_open"));
        QCOMPARE(skips.first().remainingBudget, 120s);
        QVERIFY2(skips.first().why.contains(QStringLiteral("TIMEOUT")), qPrintable(skips.first().why));
        QVERIFY(r.log.contains(QStringLiteral("0 storyboard_primary_skipped gemini->qwen open remaining=120000 gemini_circuit_open")));
        // The event reads back as it was written.
        const Event skipEvent =
            *std::find_if(r.events.begin(), r.events.end(), [](const Event &e) { return std::holds_alternative<PrimarySkipped>(e.body); });
        const auto back = Event::fromJson(skipEvent.toJson());
        QVERIFY(back);
        QCOMPARE(back->type(), QStringLiteral("storyboard_primary_skipped"));
        QCOMPARE(std::get<PrimarySkipped>(back->body).why, skips.first().why);
    }

    // After a skip the fallback starts at once; its deadline is its own timeout or what is left of the
    // stage's total budget, whichever ends first, also when the budget is shorter than primary +
    // fallback timeouts (the primary's share is not held back for an attempt that never ran).
    void skippedPrimaryFallbackDeadlineWithinTheBudget_data()
    {
        QTest::addColumn<int>("budgetS");
        QTest::addRow("budget shorter than the fallback's timeout") << 45;
        QTest::addRow("budget between the fallback's timeout and primary + fallback") << 65;
        QTest::addRow("budget beyond both") << 200;
    }
    void skippedPrimaryFallbackDeadlineWithinTheBudget()
    {
        QFETCH(int, budgetS);
        Rig r(m_clock);
        r.failPrimary(5);
        QCOMPARE(r.changes, QStringList { QStringLiteral("breaker_opened") });
        StagePolicy policy = Rig::relief();
        policy.primaryTimeout = 10s;
        policy.fallbackTimeout = 60s;
        policy.totalBudget = std::chrono::seconds(budgetS);
        QVERIFY(policy.primaryTimeout + policy.fallbackTimeout > *policy.totalBudget || budgetS == 200);
        r.qwen.script({ Step::ok(200ms, QStringLiteral("By Qwen")) });
        const auto start = m_clock.now();
        const StageResult res = r.run(policy, 1s);
        QCOMPARE(res.fallback.reason, QStringLiteral("gemini_circuit_open"));
        QCOMPARE(res.attempts.size(), 1);
        QCOMPARE(r.qwen.deadlines().last(), start + std::min<std::chrono::milliseconds>(policy.fallbackTimeout, *policy.totalBudget));
        const QList<PrimarySkipped> skips = bodies<PrimarySkipped>(r.events);
        QCOMPARE(skips.size(), 1);
        QCOMPARE(skips.first().remainingBudget, *policy.totalBudget);
    }

    void halfOpenLetsExactlyOneRequestThrough()
    {
        Rig r(m_clock);
        r.failPrimary(5);
        m_clock.advance(30s); // the cooldown
        // Three generations at the same instant: one is the trial, the other two go to the fallback.
        r.gemini.script({ Step::ok(2s) });
        r.qwen.script({ Step::ok(1s), Step::ok(1s) });
        for (int i = 0; i < 3; ++i)
            r.service.start(StageRequest::forStory(QStringLiteral("story"), {}), Rig::relief());
        m_clock.advance(5s);
        QCOMPARE(r.gemini.calls(), 6);
        QCOMPARE(r.qwen.calls(), 5 + 2);
        QCOMPARE(bodies<PrimarySkipped>(r.events).size(), 2);
        QCOMPARE(bodies<PrimarySkipped>(r.events).first().state, QStringLiteral("half_open"));
        QCOMPARE(r.changes,
                 (QStringList { QStringLiteral("breaker_opened"), QStringLiteral("breaker_half_open"), QStringLiteral("breaker_closed") }));
        // Closed again: the next one goes to the primary.
        r.gemini.script({ Step::ok(1s) });
        QCOMPARE(r.run(Rig::relief(), 2s).fallback.applied, false);
        QCOMPARE(r.gemini.calls(), 7);
    }

    // A probe (docs/contract.md §13) calls only its role's provider, once, and records it in that role.
    void probeCallsOnlyItsRoleOnce()
    {
        Rig r(m_clock);
        r.qwen.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
        StageRequest probe = StageRequest::forStory(QStringLiteral("Probe"));
        probe.probeRole = Role::Fallback;
        r.service.start(probe, Rig::relief());
        m_clock.advance(5s);
        QCOMPARE(r.gemini.calls(), 0);
        QCOMPARE(r.qwen.calls(), 1); // no round, no other provider
        const StageResult &res = r.results.last();
        QCOMPARE(res.state, FinalState::Failed);
        QCOMPARE(res.attempts.size(), 1);
        QCOMPARE(res.attempts.first().role, Role::Fallback);
        QVERIFY2(res.decision.startsWith(QStringLiteral("probe failed")), qPrintable(res.decision));
        QVERIFY(bodies<FallbackTriggered>(r.events).isEmpty());
        // The failure counts on the fallback's own breaker.
        const auto views = r.board.breakers(m_clock.now());
        QCOMPARE(views.size(), std::size_t(1));
        QCOMPARE(views.front().key, kQwenFallback);
        QCOMPARE(views.front().failures, 1);

        // A primary's probe that fails is not handed to the fallback either.
        r.gemini.script({ Step::failWith(FailureKind::TIMEOUT, 1s) });
        probe.probeRole = Role::Primary;
        r.service.start(probe, Rig::relief());
        m_clock.advance(5s);
        QCOMPARE(r.gemini.calls(), 1);
        QCOMPARE(r.qwen.calls(), 1);
        QCOMPARE(r.results.last().fallback.applied, false);
    }

    // An open breaker waits out its cooldown and a drain is an operator's word: a probe sends nothing.
    // Once HALF_OPEN, a probe is the one trial, and its success closes the breaker.
    void probeObeysTheBreakerAndIsTheHalfOpenTrial()
    {
        Rig r(m_clock);
        r.failPrimary(5);
        QCOMPARE(r.gemini.calls(), 5);
        StageRequest probe = StageRequest::forStory(QStringLiteral("Probe"));
        probe.probeRole = Role::Primary;
        r.service.start(probe, Rig::relief());
        m_clock.advance(1s);
        QCOMPARE(r.gemini.calls(), 5);
        QCOMPARE(r.results.last().state, FinalState::Failed);
        QCOMPARE(r.results.last().failure->kind, FailureKind::NOT_SENT);
        QVERIFY2(r.results.last().decision.contains(QStringLiteral("open")), qPrintable(r.results.last().decision));

        m_clock.advance(30s); // the cooldown: HALF_OPEN
        r.gemini.script({ Step::ok(500ms) });
        r.service.start(probe, Rig::relief());
        m_clock.advance(2s);
        QCOMPARE(r.gemini.calls(), 6);
        QCOMPARE(r.results.last().state, FinalState::Succeeded);
        QCOMPARE(r.changes.last(), QStringLiteral("breaker_closed"));

        r.board.drain(Drain { Provider::Gemini, std::nullopt, std::nullopt, QStringLiteral("maintenance"), QStringLiteral("ops"), r.wall,
                              std::nullopt });
        r.service.start(probe, Rig::relief());
        m_clock.advance(1s);
        QCOMPARE(r.gemini.calls(), 6);
        QCOMPARE(r.results.last().failure->kind, FailureKind::NOT_SENT);
        QVERIFY2(r.results.last().decision.contains(QStringLiteral("drained")), qPrintable(r.results.last().decision));
    }

    void fallbackAlsoOpenMeansThePrimaryIsTried()
    {
        Rig r(m_clock);
        for (int i = 0; i < 5; ++i) { // both fail: both breakers open
            r.gemini.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
            r.qwen.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
            r.run(Rig::relief(), 3s);
        }
        QCOMPARE(r.board.peek(kGeminiPrimary, m_clock.now()).verdict, BreakerGate::Skip);
        QCOMPARE(r.board.peek(kQwenFallback, m_clock.now()).verdict, BreakerGate::Skip);
        r.gemini.script({ Step::ok(1s) });
        const StageResult res = r.run(Rig::relief(), 2s);
        QCOMPARE(res.state, FinalState::Succeeded); // a breaker never made a possible success a certain failure
        QCOMPARE(r.gemini.calls(), 6);
        QCOMPARE(bodies<PrimarySkipped>(r.events).size(), 0);
    }

    void noFallbackMeansThePrimaryIsTried()
    {
        Rig r(m_clock);
        for (int i = 0; i < 5; ++i) {
            r.gemini.script({ Step::failWith(FailureKind::TIMEOUT, 1s) });
            r.run(StagePolicy::relief(Provider::Gemini, std::nullopt), 2s);
        }
        QCOMPARE(r.board.peek(kGeminiPrimary, m_clock.now()).verdict, BreakerGate::Skip);
        r.gemini.script({ Step::failWith(FailureKind::TIMEOUT, 1s) });
        r.run(StagePolicy::relief(Provider::Gemini, std::nullopt), 2s);
        QCOMPARE(r.gemini.calls(), 6);
        // The `rounds` preset never switches provider: its primary is tried too.
        r.gemini.script({ Step::ok(1s) });
        QCOMPARE(r.run(StagePolicy::sameProviderRounds(Provider::Gemini), 2s).state, FinalState::Succeeded);
        QCOMPARE(r.gemini.calls(), 7);
        // `capacity` skips only to a fallback it could use: one with a key.
        r.qwen.setConfigured(false);
        r.gemini.script({ Step::ok(1s) });
        r.run(StagePolicy::capacity(Provider::Gemini, Provider::Qwen), 2s);
        QCOMPARE(r.gemini.calls(), 8);
        r.qwen.setConfigured(true);
        r.qwen.script({ Step::ok(1s) });
        QCOMPARE(r.run(StagePolicy::capacity(Provider::Gemini, Provider::Qwen), 2s).fallback.reason, QStringLiteral("gemini_circuit_open"));
        QCOMPARE(r.gemini.calls(), 8);
    }

    void breakerOffKeepsTheStrictLog()
    {
        BreakerSettings off;
        off.enabled = false;
        QStringList logs[2];
        int geminiCalls[2] = { 0, 0 };
        for (int withBoard = 0; withBoard < 2; ++withBoard) {
            ManualClock clock;
            Rig r(clock, off, withBoard == 1);
            r.failPrimary(12);
            logs[withBoard] = r.log;
            geminiCalls[withBoard] = r.gemini.calls();
        }
        QCOMPARE(geminiCalls[1], 12);
        QCOMPARE(logs[1], logs[0]);
    }

    void drainSkipsUntilItExpires()
    {
        Rig r(m_clock);
        QSignalSpy changes(&r.board, &BreakerBoard::changed);
        Drain d;
        d.provider = Provider::Gemini;
        d.reason = QStringLiteral("provider incident 4711");
        d.by = QStringLiteral("ops");
        d.until = r.wall.addSecs(600);
        r.board.drain(d);
        r.qwen.script({ Step::ok(1s) });
        const StageResult res = r.run(Rig::relief(), 2s);
        QCOMPARE(r.gemini.calls(), 0);
        QCOMPARE(res.fallback.reason, QStringLiteral("gemini_drained"));
        const PrimarySkipped skip = bodies<PrimarySkipped>(r.events).first();
        QCOMPARE(skip.state, QStringLiteral("drained"));
        QVERIFY2(skip.why.contains(QStringLiteral("drained by ops: provider incident 4711")), qPrintable(skip.why));
        // A drain that names no role or stage covers every one.
        QCOMPARE(r.board.peek(BreakerKey { Provider::Gemini, Role::Primary, Stage::Image }, m_clock.now()).verdict, BreakerGate::Skip);
        // Past `until` the drain ends by itself, and says so.
        r.wall = r.wall.addSecs(601);
        r.gemini.script({ Step::ok(1s) });
        QCOMPARE(r.run(Rig::relief(), 2s).fallback.applied, false);
        QCOMPARE(r.gemini.calls(), 1);
        QVERIFY(r.board.drains().empty());
        QCOMPARE(changes.last().first().value<BreakerChange>().type, QStringLiteral("provider_restored"));
        // The audit keeps the drain that ran out (the charts' annotations read it); an operator's drain
        // and restore are audited by their route, not here.
        const auto expired = engineAuditLine(changes.last().first().value<BreakerChange>());
        QVERIFY(expired);
        QCOMPARE(expired->action, QStringLiteral("drain_expired"));
        QVERIFY2(expired->target.startsWith(QStringLiteral("gemini (")), qPrintable(expired->target));
        QVERIFY(!engineAuditLine(changes.first().first().value<BreakerChange>())); // provider_drained

        // Restore ends a drain without `until`; drains hold with breakers off too.
        BreakerSettings off;
        off.enabled = false;
        BreakerBoard strict(off);
        Drain forever;
        forever.provider = Provider::Qwen;
        forever.role = Role::Fallback;
        strict.drain(forever);
        QCOMPARE(strict.peek(kQwenFallback, m_clock.now()).verdict, BreakerGate::Skip);
        QCOMPARE(strict.peek(BreakerKey { Provider::Qwen, Role::Primary, Stage::Storyboard }, m_clock.now()).verdict, BreakerGate::Pass);
        QCOMPARE(strict.restore(Provider::Qwen, QStringLiteral("ops")), 1);
        QCOMPARE(strict.peek(kQwenFallback, m_clock.now()).verdict, BreakerGate::Pass);
    }

    void cancelledTrialIsHandedBack()
    {
        Rig r(m_clock);
        r.failPrimary(5);
        m_clock.advance(30s);
        r.gemini.script({ Step::hang() });
        const QString id = r.service.start(StageRequest::forStory(QStringLiteral("story"), {}), Rig::relief());
        m_clock.advance(1s);
        QVERIFY(r.service.cancel(id));
        m_clock.advance(1s);
        QCOMPARE(r.results.last().state, FinalState::Cancelled);
        QCOMPARE(r.board.peek(kGeminiPrimary, m_clock.now()).verdict, BreakerGate::Trial);
    }

    // --- Settings ---

    void settingsRowsReadFileAndEnvironment()
    {
        const Settings defaults = Settings::defaults();
        QCOMPARE(defaults.breaker, BreakerSettings {});
        QProcessEnvironment env;
        env.insert(QStringLiteral("BULLPEN_BREAKER"), QStringLiteral("off"));
        env.insert(QStringLiteral("BULLPEN_BREAKER_WINDOW"), QStringLiteral("2m"));
        env.insert(QStringLiteral("BULLPEN_BREAKER_MIN_ATTEMPTS"), QStringLiteral("8"));
        env.insert(QStringLiteral("BULLPEN_BREAKER_FAILURE_RATIO"), QStringLiteral("75%"));
        env.insert(QStringLiteral("BULLPEN_BREAKER_COOLDOWN"), QStringLiteral("45s"));
        const SettingsLoad load = SettingsLoader::load({}, {}, env, false);
        QVERIFY2(load.ok(), qPrintable(load.errors.isEmpty() ? QString() : load.errors.first().toString()));
        QCOMPARE(load.settings.breaker.enabled, false);
        QCOMPARE(load.settings.breaker.window, 120s);
        QCOMPARE(load.settings.breaker.minAttempts, 8);
        QCOMPARE(load.settings.breaker.failureRatio, 0.75);
        QCOMPARE(load.settings.breaker.cooldown, 45s);

        // Written to the file and read back, the same values.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("settings.json"));
        QString error;
        QVERIFY2(SettingsFile::save(load.settings, file, &error), qPrintable(error));
        const SettingsLoad again = SettingsLoader::load(file, {}, {}, false);
        QVERIFY(again.ok());
        QCOMPARE(again.settings.breaker, load.settings.breaker);
    }

    void settingsRowsRefuseNamingThePlace_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("switch") << "BULLPEN_BREAKER"
                                << "maybe"
                                << "is not on or off";
        QTest::newRow("window unit") << "BULLPEN_BREAKER_WINDOW"
                                     << "60"
                                     << "write it with a unit";
        QTest::newRow("window long") << "BULLPEN_BREAKER_WINDOW"
                                     << "2h"
                                     << "is longer than 3600s";
        QTest::newRow("min zero") << "BULLPEN_BREAKER_MIN_ATTEMPTS"
                                  << "0"
                                  << "a whole number from 1 to 10000";
        QTest::newRow("ratio zero") << "BULLPEN_BREAKER_FAILURE_RATIO"
                                    << "0"
                                    << "a share above 0 and at most 1";
        QTest::newRow("ratio over") << "BULLPEN_BREAKER_FAILURE_RATIO"
                                    << "120%"
                                    << "a share above 0 and at most 1";
        QTest::newRow("cooldown cap") << "BULLPEN_BREAKER_COOLDOWN"
                                      << "10m"
                                      << "is longer than 300s";
    }

    void settingsRowsRefuseNamingThePlace()
    {
        QFETCH(QString, variable);
        QFETCH(QString, value);
        QFETCH(QString, says);
        QProcessEnvironment env;
        env.insert(variable, value);
        const SettingsLoad load = SettingsLoader::load({}, {}, env, false);
        QCOMPARE(load.errors.size(), 1);
        QVERIFY2(load.errors.first().setting.startsWith(variable), qPrintable(load.errors.first().toString()));
        QVERIFY2(load.errors.first().message.contains(says), qPrintable(load.errors.first().toString()));

        // The same in the settings file names the file and the key.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("settings.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const SettingRow *row = nullptr;
        for (const SettingRow &r : settingRows())
            if (r.envVar == variable)
                row = &r;
        QVERIFY(row);
        f.write(QStringLiteral("{\"%1\": \"%2\"}").arg(row->fileKey, value).toUtf8());
        f.close();
        const SettingsLoad fromFile = SettingsLoader::load(file, {}, {}, false);
        QCOMPARE(fromFile.errors.size(), 1);
        QCOMPARE(fromFile.errors.first().setting, QStringLiteral("%1: %2").arg(file, row->fileKey));
    }

    void configurationDocListsEveryRow()
    {
        // docs/configuration.md and the README carry the table the rows make; when a row changes, this
        // test fails and prints the table to paste there.
        for (const char *name : { "docs/configuration.md", "README.md" }) {
            QFile doc(QStringLiteral(BULLPEN_SOURCE_DIR "/") + QLatin1StringView(name));
            QVERIFY2(doc.open(QIODevice::ReadOnly), name);
            const QString text = QString::fromUtf8(doc.readAll());
            if (!text.contains(settingsTableMarkdown()))
                qInfo().noquote() << settingsTableMarkdown(); // whole: a failure message is cut short
            QVERIFY2(text.contains(settingsTableMarkdown()),
                     qPrintable(QLatin1StringView(name) + QStringLiteral(" does not hold the current table, printed above")));
        }
    }
};

QTEST_GUILESS_MAIN(tst_Breakers)
#include "tst_breakers.moc"
