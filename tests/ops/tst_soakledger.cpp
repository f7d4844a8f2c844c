// SPDX-License-Identifier: MIT
// The soak's judge (ops/soakledger.h) on hand-made generations: a clean one passes every invariant of
// docs/contract.md §11, and each row breaks exactly one of them and must see that one (and only that
// one) fail. No engine, no network: what the ledger is told is all it judges.
#include "ops/soakledger.h"

#include <QJsonArray>
#include <QTest>

using namespace bullpen;
using namespace bullpen::ops;
using namespace std::chrono;

namespace {

constexpr milliseconds kBudget { 4000 };

// One generation that kept every rule: one storyboard attempt at the primary, sent once, answered
// in time, its events in order.
struct Generation
{
    GenerationResult result;
    QList<Event> events;
};

Generation clean(const QString &id)
{
    Generation g;
    AttemptRecord a;
    a.attemptId = 1;
    a.success = true;
    a.requestsSent = 1;
    a.startedAt = milliseconds(1);
    a.duration = milliseconds(200);
    a.deadline = milliseconds(2001);
    a.answerCompleteAt = milliseconds(190);
    g.result.generationId = id;
    g.result.state = FinalState::Succeeded;
    g.result.storyboard.attempts = { a };
    g.result.storyboard.elapsed = milliseconds(210);
    quint64 sequence = 0;
    const auto add = [&](EventBody body) {
        Event e;
        e.generationId = id;
        e.sequence = sequence++;
        e.body = std::move(body);
        g.events << e;
    };
    AttemptStarted started;
    started.attemptId = 1;
    add(started);
    AttemptCompleted completed;
    static_cast<AttemptRecord &>(completed) = a;
    add(completed);
    GenerationFinished finished;
    finished.state = FinalState::Succeeded;
    add(finished);
    return g;
}

// The numbers of the invariants the summary says failed.
QList<int> failed(const QJsonObject &summary)
{
    QList<int> numbers;
    for (const QJsonValue &v : summary.value(QStringLiteral("invariants")).toArray()) {
        if (!v.toObject().value(QStringLiteral("pass")).toBool())
            numbers << v.toObject().value(QStringLiteral("number")).toInt();
    }
    return numbers;
}

} // namespace

class tst_SoakLedger : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void judgesEachInvariant_data()
    {
        QTest::addColumn<std::function<void(Generation &)>>("breakIt");
        QTest::addColumn<QList<int>>("expected");
        using Break = std::function<void(Generation &)>;
        QTest::addRow("clean") << Break([](Generation &) {}) << QList<int> {};
        QTest::addRow("1: two requests for one attempt")
            << Break([](Generation &g) { g.result.storyboard.attempts[0].requestsSent = 2; }) << QList<int> { 1 };
        QTest::addRow("3: accepted after its deadline")
            << Break([](Generation &g) { g.result.storyboard.attempts[0].answerCompleteAt = milliseconds(2001); }) << QList<int> { 3 };
        QTest::addRow("5: stage over its budget")
            << Break([](Generation &g) { g.result.storyboard.elapsed = kBudget + milliseconds(6); }) << QList<int> { 5 };
        QTest::addRow("5: within 5 ms of the budget passes")
            << Break([](Generation &g) { g.result.storyboard.elapsed = kBudget + milliseconds(5); }) << QList<int> {};
        QTest::addRow("6: no generation_finished") << Break([](Generation &g) { g.events.removeLast(); }) << QList<int> { 6 };
        QTest::addRow("7: a started attempt never completed") << Break([](Generation &g) { g.events.removeAt(1); }) << QList<int> { 7 };
        QTest::addRow("12: an attempt that never left")
            << Break([](Generation &g) { g.result.storyboard.attempts[0].requestsSent = 0; }) << QList<int> { 12 };
    }

    void judgesEachInvariant()
    {
        QFETCH(std::function<void(Generation &)>, breakIt);
        QFETCH(QList<int>, expected);
        SoakLedger ledger(kBudget);
        Generation g = clean(QStringLiteral("gen_1"));
        breakIt(g);
        for (const Event &e : std::as_const(g.events))
            ledger.event(e);
        ledger.finished(g.result, QStringLiteral("healthy"), QStringLiteral("soak-user-1@example.com"));
        ledger.compareRequests({ { Provider::Gemini, g.result.storyboard.attempts[0].requestsSent } });
        ledger.checkDeadlineOverruns();
        const QJsonObject summary = ledger.summary(1, 1.0, {}, {});
        QCOMPARE(failed(summary), expected);
        QCOMPARE(ledger.allPass(), expected.isEmpty());
        QCOMPARE(ledger.attemptsTotal(), 1);
        QVERIFY(ledger.rawUserIds().count(QStringLiteral("soak-user-1@example.com")));
        QVERIFY(!ledger.hasEvents(QStringLiteral("gen_1"))); // forgotten once judged
    }

    // 6: a generation that finishes twice; and the simulator's count against the attempts (1 and 12).
    void countsAcrossGenerations()
    {
        SoakLedger ledger(kBudget);
        const Generation g = clean(QStringLiteral("gen_1"));
        for (const Event &e : g.events)
            ledger.event(e);
        ledger.finished(g.result, QStringLiteral("healthy"), {});
        ledger.finished(g.result, QStringLiteral("healthy"), {});
        ledger.compareRequests({ { Provider::Gemini, 3 } });
        const QList<int> numbers = failed(ledger.summary(2, 1.0, {}, {}));
        QVERIFY2(numbers.contains(6) && numbers.contains(1) && !numbers.contains(12), qPrintable(QString::number(numbers.size())));

        SoakLedger fewer(kBudget);
        for (const Event &e : g.events)
            fewer.event(e);
        fewer.finished(g.result, QStringLiteral("healthy"), {});
        fewer.compareRequests({ { Provider::Gemini, 0 } }); // the simulator never saw the request the result recorded
        QCOMPARE(failed(fewer.summary(1, 1.0, {}, {})), QList<int> { 12 });
    }

    // --advisory: a failed invariant is reported (WARN) but leaves allPass alone.
    void advisoryIsReportedNotJudged()
    {
        SoakLedger ledger(kBudget);
        ledger.setAdvisory({ 2 });
        ledger.violate(2, QStringLiteral("p99 9 ms past the deadline"));
        QVERIFY(ledger.allPass());
        QString text;
        QTextStream out(&text);
        ledger.print(out, ledger.summary(1, 1.0, {}, {}));
        QVERIFY2(text.contains(QStringLiteral("WARN invariant 2")), qPrintable(text));
        ledger.violate(5, QStringLiteral("gen_x: 9 ms over"));
        QVERIFY(!ledger.allPass());
    }

    void percentiles()
    {
        QCOMPARE(percentile({}, 50), 0.0);
        QCOMPARE(percentile({ 3, 1, 2 }, 50), 2.0);
        QCOMPARE(percentile({ 3, 1, 2 }, 0), 1.0);
        std::vector<double> hundred;
        for (int i = 1; i <= 100; ++i)
            hundred.push_back(i);
        QCOMPARE(percentile(hundred, 99), 99.0);
        QCOMPARE(percentile(hundred, 100), 100.0);
    }
};

QTEST_GUILESS_MAIN(tst_SoakLedger)
#include "tst_soakledger.moc"
