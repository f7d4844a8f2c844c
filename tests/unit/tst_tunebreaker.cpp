// SPDX-License-Identifier: MIT
// The tuner's breaker on/off and other-preset candidates (docs/contract.md §13, §17): a constructed
// hour of traffic with a 10-minute outage of the primary, handed over in generation-id order (as the
// store reads it), not in time order.
#include "tuning/tuner.h"

#include <QTest>

#include <algorithm>
#include <vector>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kOrigin = 1'800'000'000'000; // wall ms of the first generation
constexpr qint64 kEveryMs = 2'000; // one generation every 2 s
constexpr int kGenerations = 1'800; // an hour
constexpr qint64 kOutageFromMs = 20 * 60'000; // minutes 20 to 30 of the hour
constexpr qint64 kOutageToMs = 30 * 60'000;

struct Generation
{
    QString id;
    qint64 startMs = 0; // from kOrigin
    std::vector<TraceAttempt> attempts;
};

bool inOutage(qint64 startMs)
{
    return startMs >= kOutageFromMs && startMs < kOutageToMs;
}

TraceAttempt attempt(const QString &id, qint64 startMs, Role role, double ms, std::optional<FailureKind> kind)
{
    TraceAttempt a;
    a.generationId = id;
    a.atMs = kOrigin + startMs + static_cast<qint64>(ms); // at_ms: when it finished
    a.role = role;
    a.success = !kind;
    a.kind = kind;
    a.durationMs = ms;
    a.cost = 0.01;
    return a;
}

// The hour as a breaker-off engine recorded it: in the outage each primary waits its 60 s and times
// out, then the fallback answers in 5 s; outside it the primary answers in 2 to 4 s. `skipFrom`: from
// this many seconds into the outage the record's primaries were skipped (a breaker-on engine's record).
std::vector<Generation> hour(std::optional<qint64> skipFromMs = std::nullopt)
{
    std::vector<Generation> out;
    for (int k = 0; k < kGenerations; ++k) {
        Generation g;
        // Ids whose order is not the order in time: the store hands generations over by id.
        g.id = QStringLiteral("g%1").arg((k * 7919) % kGenerations, 5, 10, QLatin1Char('0'));
        g.startMs = k * kEveryMs;
        if (inOutage(g.startMs)) {
            if (!skipFromMs || g.startMs < kOutageFromMs + *skipFromMs)
                g.attempts.push_back(attempt(g.id, g.startMs, Role::Primary, 60'000, FailureKind::TIMEOUT));
            const qint64 fallbackStart = g.attempts.empty() ? g.startMs : g.startMs + 60'000;
            g.attempts.push_back(attempt(g.id, fallbackStart, Role::Fallback, 5'000, std::nullopt));
        } else {
            g.attempts.push_back(attempt(g.id, g.startMs, Role::Primary, 2'000 + (k % 5) * 500, std::nullopt));
        }
        out.push_back(g);
    }
    std::sort(out.begin(), out.end(), [](const Generation &a, const Generation &b) { return a.id < b.id; });
    return out;
}

TuneCandidate today(TuneBreaker breaker)
{
    TuneCandidate c { 60s, 60s, true };
    c.breaker = breaker;
    return c;
}

// The history's attempts, generation by generation, as the store hands them over.
void feed(Tuner &tuner, const std::vector<Generation> &history)
{
    for (const Generation &g : history)
        for (const TraceAttempt &a : g.attempts)
            tuner.add(a);
}

// Every generation's prediction under `candidate`, in the order the generations were added.
std::vector<PredictedGeneration> predicted(const std::vector<Generation> &history, const TuneCandidate &candidate)
{
    Tuner tuner(Stage::Storyboard);
    tuner.keepIds();
    feed(tuner, history);
    return tuner.generations(candidate);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

class tst_TuneBreaker final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Breaker on: after the first outage attempts time out the breaker opens and the rest of the outage
    // goes straight to the fallback (5 s) instead of waiting 60 s for the primary.
    void breakerOnShortensTheOutage()
    {
        const std::vector<Generation> history = hour();
        const std::vector<PredictedGeneration> on = predicted(history, today(TuneBreaker::On));
        const std::vector<PredictedGeneration> off = predicted(history, today(TuneBreaker::Off));
        std::vector<double> onMs, offMs;
        for (std::size_t i = 0; i < history.size(); ++i) {
            if (!inOutage(history[i].startMs))
                continue;
            onMs.push_back(on[i].ms);
            offMs.push_back(off[i].ms);
            QVERIFY(on[i].success && off[i].success); // the fallback answers either way
        }
        qInfo("outage p50: breaker on %.0f ms, off %.0f ms, over %zu generations", median(onMs), median(offMs), onMs.size());
        QCOMPARE(median(offMs), 65'000.0); // every primary waited for
        QCOMPARE(median(onMs), 5'000.0); // most went straight to the fallback
    }

    // The breaker sees the generations in the order they started, not in the order they were read: the
    // outage's first generations (those that start before five timeouts have ended, 60 s plus 8 s) wait
    // for the primary, then nearly all are skipped until it answers a trial again, and healthy traffic
    // after the outage is never skipped. Read in id order, the outage's timeouts would be scattered
    // among successes and the breaker would open at the wrong moments or not at all.
    void breakerFollowsTimeOrder()
    {
        const std::vector<Generation> history = hour();
        const std::vector<PredictedGeneration> on = predicted(history, today(TuneBreaker::On));
        int waited = 0, skipped = 0, outage = 0;
        for (std::size_t i = 0; i < history.size(); ++i) {
            const qint64 t = history[i].startMs;
            if (!inOutage(t)) {
                if (t >= kOutageToMs + 5 * 60'000) // at most a 5 min cooldown after the outage
                    QVERIFY2(!on[i].primarySkipped, qPrintable(history[i].id));
                continue;
            }
            ++outage;
            if (t < kOutageFromMs + 68'000) {
                QVERIFY2(!on[i].primarySkipped, qPrintable(QStringLiteral("%1 at %2 ms").arg(history[i].id).arg(t)));
                ++waited;
            }
            skipped += on[i].primarySkipped ? 1 : 0;
        }
        qInfo("outage: %d generations, %d waited before the breaker opened, %d skipped", outage, waited, skipped);
        QCOMPARE(waited, 34);
        // The trials: at 30 s, then 60, 120, 240 and 300 s (the doubling's cap) after each failed one.
        QVERIFY2(skipped >= outage - waited - 8, qPrintable(QString::number(skipped)));
    }

    // A record made with the breaker on skipped most outage primaries: the breaker-off candidate calls
    // them, stood in by the nearest earlier recorded primary, and says so (unobserved).
    void skippedPrimariesAreStoodInAndCounted()
    {
        Tuner tuner(Stage::Storyboard);
        feed(tuner, hour(70'000));
        const TuneReport r = tuner.predict({}, today(TuneBreaker::AsRecorded));
        QCOMPARE(r.alternatives.size(), 3);
        const TunePrediction &on = r.alternatives.at(0);
        const TunePrediction &off = r.alternatives.at(1);
        const TunePrediction &other = r.alternatives.at(2);
        QCOMPARE(on.candidate.breaker, TuneBreaker::On);
        QVERIFY(on.candidate.today); // the breaker is on by default
        QCOMPARE(off.candidate.breaker, TuneBreaker::Off);
        QVERIFY(!off.candidate.today);
        qInfo("breaker on: p95 %.0f ms, unobserved %lld; off: p95 %.0f ms, unobserved %lld", on.p95Ms,
              static_cast<long long>(on.unobserved), off.p95Ms, static_cast<long long>(off.unobserved));
        QCOMPARE(off.unobserved, 300 - 35); // the outage's generations from 70 s on
        QVERIFY(on.unobserved < off.unobserved); // only the trials the record never sent
        QVERIFY(off.p95Ms > on.p95Ms);
        // The other preset: `capacity` hands only capacity-marked overloads to the fallback, so the
        // outage's timeouts fail the stage.
        QCOMPARE(other.candidate.preset, QStringLiteral("capacity"));
        QCOMPARE(other.candidate.breaker, TuneBreaker::On);
        QVERIFY2(other.successRate < on.successRate - 0.01, qPrintable(QString::number(other.successRate)));
        QCOMPARE(TuneReport::fromJson(r.toJson()).toJson(), r.toJson());
    }

    // predict() runs its candidates on every core: each prediction must still be its own candidate's,
    // the sum of what generations() says of every generation under that candidate, one by one.
    void eachPredictionIsItsOwnCandidates()
    {
        Tuner tuner(Stage::Storyboard);
        tuner.setThreads(3); // threads that share the passes, whatever the cores
        feed(tuner, hour(70'000));
        const QList<TuneCandidate> grid = tuneCandidates({ 5s, 30s, 90s }, { 3s, 60s }, today(TuneBreaker::AsRecorded));
        const TuneReport r = tuner.predict(grid, today(TuneBreaker::AsRecorded));
        QCOMPARE(r.predictions.size(), 7); // 3 × 2, and today's (60 s, 60 s), which the grid lacks
        // Every candidate asked for, in its place: the grid by timeouts with the breaker as recorded,
        // then the alternatives in their order.
        QList<TuneCandidate> asked = grid;
        asked.insert(4, today(TuneBreaker::AsRecorded)); // 60/60: after 30/60, before 90/3
        asked += tuneAlternatives(today(TuneBreaker::AsRecorded));
        const QList<TunePrediction> all = r.predictions + r.alternatives;
        QCOMPARE(all.size(), asked.size());
        for (qsizetype k = 0; k < all.size(); ++k) {
            const TuneCandidate &c = all.at(k).candidate;
            QCOMPARE(c.primaryTimeout, asked.at(k).primaryTimeout);
            QCOMPARE(c.fallbackTimeout, asked.at(k).fallbackTimeout);
            QCOMPARE(c.breaker, asked.at(k).breaker);
            QCOMPARE(c.preset, asked.at(k).preset);
        }
        for (const TunePrediction &p : all) {
            const std::vector<PredictedGeneration> one = tuner.generations(p.candidate);
            qint64 ok = 0, answered = 0, censored = 0, unobserved = 0;
            for (const PredictedGeneration &w : one) {
                ok += w.success ? 1 : 0;
                answered += w.fallbackAnswered ? 1 : 0;
                censored += w.censored ? 1 : 0;
                unobserved += w.unobserved ? 1 : 0;
            }
            const QString which = QStringLiteral("%1/%2 ms, %3, breaker %4")
                                      .arg(p.candidate.primaryTimeout.count())
                                      .arg(p.candidate.fallbackTimeout.count())
                                      .arg(p.candidate.preset, toId(p.candidate.breaker));
            QVERIFY2(qFuzzyCompare(p.successRate, double(ok) / double(one.size())), qPrintable(which));
            QVERIFY2(qFuzzyCompare(1 + p.fallbackRate, 1 + double(answered) / double(one.size())), qPrintable(which));
            QVERIFY2(p.censored == censored && p.unobserved == unobserved, qPrintable(which));
        }
    }
};

QTEST_GUILESS_MAIN(tst_TuneBreaker)
#include "tst_tunebreaker.moc"
