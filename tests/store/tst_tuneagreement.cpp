// SPDX-License-Identifier: MIT
// docs/contract.md §17, "checked against reality": the pieces of that check. The tuner's prediction of
// one generation (the same walk the tune sums) and its comparison with a replay of that generation
// under the same candidate (ReplayAgreement). The check itself replays sampled generations in real
// time and gates the disagreement rate: tests/bench/bench_tuneagree.cpp (docs/performance.md).
#include "devsupport/historyfiller.h"
#include "replay/replayagreement.h"
#include "store/store.h"

#include <QDateTime>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

// A primary timeout far shorter than today's 60 s, and a fallback timeout that cuts the fallback's
// slower answers (bench_tuneagree's candidate).
const TuneCandidate kCandidate { 2s, 5s, false };

RecordedAttempt attempt(Role role, bool success, double ms, Stage stage = Stage::Storyboard)
{
    RecordedAttempt a;
    a.stage = stage;
    a.provider = role == Role::Primary ? Provider::Gemini : Provider::Qwen;
    a.role = role;
    a.success = success;
    a.kind = success ? QString() : QStringLiteral("TIMEOUT");
    a.durationMs = ms;
    return a;
}

PredictedGeneration predicted(bool success, bool called, bool answered, double ms)
{
    PredictedGeneration p;
    p.success = success;
    p.fallbackCalled = called;
    p.fallbackAnswered = answered;
    p.ms = ms;
    return p;
}

} // namespace

Q_DECLARE_METATYPE(bullpen::PredictedGeneration)
Q_DECLARE_METATYPE(bullpen::ReplayRun)

class tst_TuneAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The comparison itself, one row per way to agree or differ.
    void judge_data()
    {
        QTest::addColumn<PredictedGeneration>("prediction");
        QTest::addColumn<ReplayRun>("run");
        QTest::addColumn<QString>("difference"); // its start; empty: they agree
        const auto run = [](QList<RecordedAttempt> attempts) {
            ReplayRun r;
            r.attempts = std::move(attempts);
            return r;
        };
        QTest::addRow("primary answers, same time")
            << predicted(true, false, false, 1500) << run({ attempt(Role::Primary, true, 1540) }) << QString();
        QTest::addRow("within the 50 ms floor")
            << predicted(true, false, false, 300) << run({ attempt(Role::Primary, true, 349) }) << QString();
        QTest::addRow("latency over a tenth") << predicted(true, false, false, 1500) << run({ attempt(Role::Primary, true, 1700) })
                                              << QStringLiteral("latency");
        QTest::addRow("fallback answers") << predicted(true, true, true, 3200)
                                          << run({ attempt(Role::Primary, false, 2000), attempt(Role::Fallback, true, 1250) }) << QString();
        QTest::addRow("outcome differs") << predicted(true, true, true, 3200)
                                         << run({ attempt(Role::Primary, false, 2000), attempt(Role::Fallback, false, 1250) })
                                         << QStringLiteral("outcome");
        QTest::addRow("fallback not called in the replay")
            << predicted(false, true, false, 2100) << run({ attempt(Role::Primary, false, 2000) }) << QStringLiteral("fallback");
        QTest::addRow("other stages do not count")
            << predicted(true, false, false, 1500)
            << run({ attempt(Role::Primary, true, 1500), attempt(Role::Primary, true, 9000, Stage::Image) }) << QString();
    }
    void judge()
    {
        QFETCH(PredictedGeneration, prediction);
        QFETCH(ReplayRun, run);
        QFETCH(QString, difference);
        const ReplayAgreement a = ReplayAgreement::judge(prediction, run, Stage::Storyboard);
        QCOMPARE(a.agrees, difference.isEmpty());
        QVERIFY2(a.difference.startsWith(difference), qPrintable(a.difference));
    }

    // The per-generation predictions are the ones the tune sums: the same walk, the same stand-ins.
    void generationsSumToTheTune()
    {
        QTemporaryDir dir;
        QString error;
        auto store = openFilled(dir, 4'000, &error);
        QVERIFY2(store, qPrintable(error));
        Tuner tuner(Stage::Storyboard);
        tuner.keepIds();
        QVERIFY2(store->forEachAttempt(
                     Stage::Storyboard, 0, std::numeric_limits<qint64>::max(), [&](const TraceAttempt &a) { tuner.add(a); }, &error),
                 qPrintable(error));
        const TuneReport report = tuner.predict({ kCandidate }, { 60s, 60s, true });
        const std::vector<PredictedGeneration> each = tuner.generations(kCandidate);
        QCOMPARE(qint64(each.size()), report.generations);
        qint64 answered = 0, imputed = 0;
        QSet<QString> ids;
        for (const PredictedGeneration &g : each) {
            QVERIFY2(g.generationId.startsWith(u"gen_"), qPrintable(g.generationId));
            ids.insert(g.generationId);
            answered += g.fallbackAnswered ? 1 : 0;
            imputed += g.imputed ? 1 : 0;
        }
        const TunePrediction &p = report.predictions.constFirst();
        QCOMPARE(p.candidate.primaryTimeout, kCandidate.primaryTimeout);
        QCOMPARE(double(answered) / double(each.size()), p.fallbackRate);
        QCOMPARE(imputed, p.imputedFallback);
        QCOMPARE(qsizetype(ids.size()), qsizetype(each.size())); // each generation once, named
    }

private:
    // A history of mixed scenarios (HistoryFiller, as tst_cost and bench_store seed theirs), in a
    // SQLite store in `dir`: the folder `bullpen-cli replay --data-dir` reads.
    static std::unique_ptr<Store> openFilled(const QTemporaryDir &dir, qint64 attempts, QString *error)
    {
        const std::optional<StoreLocation> location = StoreLocation::resolve(dir.path(), QProcessEnvironment(), error);
        if (!location)
            return nullptr;
        std::unique_ptr<Store> store = Store::open(*location, error);
        if (!store)
            return nullptr;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const HistoryFillResult filled = HistoryFiller::fill(*location, { attempts, now - 86'400'000, now, 7, {}, 0, true });
        if (!filled.error.isEmpty()) {
            *error = filled.error;
            return nullptr;
        }
        return store;
    }
};

QTEST_GUILESS_MAIN(tst_TuneAgreement)
#include "tst_tuneagreement.moc"
