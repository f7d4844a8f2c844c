// SPDX-License-Identifier: MIT
// The pure logic and store queries behind the console's history views: word diff, latency
// statistics, the extra wait fallback added, export masking and quoting, the synthetic history, stored
// comparisons, and the settings and key files the Settings view writes. The store queries run on SQLite
// (tst_analytics) and on PostgreSQL (tst_analytics_postgres: teststore.h).
#include "analytics/fallbackwaittracker.h"
#include "analytics/latencystats.h"
#include "config/settings.h"
#include "contract/textdiff.h"
#include "devsupport/historyfiller.h"
#include "history/durationhistogram.h"
#include "history/historyexport.h"
#include "history/providerhealth.h"
#include "pipeline/comparison.h"
#include "store/cellsums.h"
#include "store/store.h"
#include "teststore.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <sys/stat.h>

using namespace bullpen;
using bullpen::test::TestStore;

class tst_Analytics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The health rule (docs/contract.md §9.8): what reached the provider counts, what did not is apart;
    // a failed primary is handed to the fallback when its stage gave the fallback provider its attempt; the state
    // needs the minimum count.
    void providerHealthRule()
    {
        using K = FailureKind;
        auto attempt = [](const char *gen, Provider p, Role r, bool ok, std::optional<K> kind, double ms) {
            return CompletedAttempt { QLatin1StringView(gen), Stage::Storyboard, p, r, ok, kind, ms };
        };
        QList<CompletedAttempt> a = {
            attempt("g1", Provider::Gemini, Role::Primary, false, K::TIMEOUT, 2000),
            attempt("g1", Provider::Qwen, Role::Fallback, true, {}, 300),
            attempt("g2", Provider::Gemini, Role::Primary, false, K::TIMEOUT, 2000),
            attempt("g3", Provider::Gemini, Role::Primary, false, K::RATE_LIMITED, 50),
            attempt("g3", Provider::Qwen, Role::Fallback, false, K::RATE_LIMITED, 40),
            attempt("g4", Provider::Gemini, Role::Primary, true, {}, 400),
            attempt("g5", Provider::Gemini, Role::Primary, false, K::NOT_SENT, 0),
            attempt("g6", Provider::Gemini, Role::Primary, false, K::CANCELLED, 10),
        };
        QList<ProviderHealth> h = ProviderHealth::summarise(a);
        QCOMPARE(h.size(), 2);
        const ProviderHealth &gemini = h[0];
        QCOMPARE(gemini.provider, Provider::Gemini);
        QCOMPARE(gemini.role, Role::Primary);
        QCOMPARE(gemini.attempts, 4);
        QCOMPARE(gemini.failures, 3);
        QCOMPARE(gemini.notProviders, 2);
        QCOMPARE(gemini.topKind, std::optional(K::TIMEOUT));
        QCOMPARE(gemini.topKindCount, 2);
        QCOMPARE(gemini.primaryFailures, 3);
        QCOMPARE(gemini.handedToFallback, 2); // g1 and g3 went to qwen; g2 did not
        QCOMPARE(gemini.p50Ms, 1200.0); // halfway between the middle two of 50, 400, 2000, 2000
        QCOMPARE(gemini.state(), ProviderHealth::State::TooFew); // 4 attempts: under the minimum, never healthy
        a << attempt("g7", Provider::Gemini, Role::Primary, true, {}, 400);
        h = ProviderHealth::summarise(a);
        QCOMPARE(h[0].attempts, ProviderHealth::kMinAttempts);
        QCOMPARE(h[0].state(), ProviderHealth::State::Failing); // 3 of 5
        QCOMPARE(h[1].role, Role::Fallback);
        QCOMPARE(h[1].fallbackPercent(), std::nullopt); // no primary attempts
        for (int i = 0; i < 20; ++i)
            a << attempt("ok", Provider::Gemini, Role::Primary, true, {}, 100);
        QCOMPARE(ProviderHealth::summarise(a)[0].state(), ProviderHealth::State::Degraded); // 3 of 25: 12 %
        for (int i = 0; i < 10; ++i)
            a << attempt("ok", Provider::Gemini, Role::Primary, true, {}, 100);
        QCOMPARE(ProviderHealth::summarise(a)[0].state(), ProviderHealth::State::Healthy); // 3 of 35: 8.6 %
    }

    // docs/contract.md §9.8: per provider, role and stage. A storyboard primary failing every time is
    // failing now, however well the same provider's images do (one card per provider and role read
    // 81 failures of 81 storyboards as degraded, 46–49 %).
    void providerHealthIsPerStage()
    {
        QList<CompletedAttempt> a;
        for (int i = 0; i < 81; ++i) {
            const QString gen = QStringLiteral("g%1").arg(i);
            a << CompletedAttempt { gen, Stage::Storyboard, Provider::Gemini, Role::Primary, false, FailureKind::TIMEOUT, 10'000 };
            a << CompletedAttempt { gen, Stage::Storyboard, Provider::Qwen, Role::Fallback, true, {}, 300 };
            a << CompletedAttempt { gen, Stage::Image, Provider::Gemini, Role::Primary, true, {}, 4000 };
        }
        const QList<ProviderHealth> h = ProviderHealth::summarise(a);
        QCOMPARE(h.size(), 3);
        QCOMPARE(h[0].stage, Stage::Storyboard); // gemini primary: storyboard before image
        QCOMPARE(h[0].attempts, 81);
        QCOMPARE(h[0].state(), ProviderHealth::State::Failing);
        QCOMPARE(h[0].handedToFallback, 81);
        QCOMPARE(h[1].stage, Stage::Image);
        QCOMPARE(h[1].state(), ProviderHealth::State::Healthy);
        QCOMPARE(h[2].provider, Provider::Qwen);
        QCOMPARE(h[2].role, Role::Fallback);
    }

    void initTestCase() { BULLPEN_REQUIRE_TEST_STORE(); }

    // The live extra wait: a fallback attempt joined with its generation's primary time in that stage.
    void fallbackWaitTrackerJoinsFallbackWithPrimaryTime()
    {
        FallbackWaitTracker tracker(Stage::Storyboard);
        auto completed = [](const QString &gen, Stage stage, Provider p, Role role, int ms, bool ok) {
            AttemptCompleted c;
            c.stage = stage;
            c.provider = p;
            c.role = role;
            c.duration = std::chrono::milliseconds(ms);
            c.success = ok;
            Event e;
            e.generationId = gen;
            e.wallTime = QDateTime::fromMSecsSinceEpoch(1'000'000, Qt::UTC);
            e.body = c;
            return e;
        };
        QVERIFY(!tracker.add(completed(QStringLiteral("g1"), Stage::Storyboard, Provider::Gemini, Role::Primary, 2000, false)));
        QVERIFY(!tracker.add(completed(QStringLiteral("g1"), Stage::Captions, Provider::Qwen, Role::Fallback, 50, true))); // another stage
        QVERIFY(!tracker.add(completed(QStringLiteral("g2"), Stage::Storyboard, Provider::Gemini, Role::Primary, 100, true)));
        const auto w = tracker.add(completed(QStringLiteral("g1"), Stage::Storyboard, Provider::Qwen, Role::Fallback, 300, true));
        QVERIFY(w);
        QCOMPARE(w->primaryProvider, QStringLiteral("gemini"));
        QCOMPARE(w->fallbackProvider, QStringLiteral("qwen"));
        QCOMPARE(w->primaryMs, 2000.0);
        QCOMPARE(w->fallbackMs, 300.0);
        QCOMPARE(w->atMs, qint64(1'000'000));
        QVERIFY(w->fallbackSucceeded);
        QVERIFY(FallbackWaitTracker::concerns(*w, QStringLiteral("gemini"), QStringLiteral("primary")));
        QVERIFY(FallbackWaitTracker::concerns(*w, QStringLiteral("qwen"), QStringLiteral("fallback")));
        QVERIFY(!FallbackWaitTracker::concerns(*w, QStringLiteral("qwen"), QStringLiteral("primary")));
        // Joined once: a second fallback completion of g1 has no primary time left. So has a fallback whose
        // primary was skipped (an open breaker, a drain): no wait, counted apart, never a zero.
        QCOMPARE(tracker.skippedPrimaries(), 0);
        QVERIFY(!tracker.add(completed(QStringLiteral("g1"), Stage::Storyboard, Provider::Qwen, Role::Fallback, 10, true)));
        QVERIFY(!tracker.add(completed(QStringLiteral("g3"), Stage::Storyboard, Provider::Qwen, Role::Fallback, 200, true)));
        QCOMPARE(tracker.skippedPrimaries(), 2);
    }

    void diff_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<int>("changedLeft");
        QTest::addColumn<int>("changedRight");
        QTest::addColumn<QString>("leftChanged"); // the changed text on the left, joined
        QTest::addColumn<QString>("rightChanged");
        QTest::newRow("identical") << "the cat sat"
                                   << "the cat sat" << 0 << 0 << ""
                                   << "";
        QTest::newRow("one word replaced") << "the cat sat"
                                           << "the dog sat" << 1 << 1 << "cat "
                                           << "dog ";
        QTest::newRow("prefix added") << "a quiet road"
                                      << "Wide shot: a quiet road" << 0 << 3 << ""
                                      << "Wide shot: ";
        QTest::newRow("hangul") << QStringLiteral("하루는 학교에 간다.") << QStringLiteral("하루는 집에 간다.") << 1 << 1
                                << QStringLiteral("학교에 ") << QStringLiteral("집에 ");
        QTest::newRow("punctuation is a word") << "yes."
                                               << "yes!" << 1 << 1 << "."
                                               << "!";
        QTest::newRow("whitespace only differs") << "a  b"
                                                 << "a b" << 0 << 0 << ""
                                                 << "";
    }

    void diff()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        const TextDiff d = TextDiff::compute(left, right);
        QTEST(d.changedLeft, "changedLeft");
        QTEST(d.changedRight, "changedRight");
        auto changed = [](const QList<DiffSpan> &spans) {
            QString s;
            for (const DiffSpan &span : spans)
                s += span.changed ? span.text : QString();
            return s;
        };
        QTEST(changed(d.left), "leftChanged");
        QTEST(changed(d.right), "rightChanged");
        // Nothing is lost: the spans put back together are the texts.
        QString l, r;
        for (const DiffSpan &s : d.left)
            l += s.text;
        for (const DiffSpan &s : d.right)
            r += s.text;
        QCOMPARE(l, left);
        QCOMPARE(r, right);
    }

    void diffHtmlEscapes()
    {
        const TextDiff d = TextDiff::compute(QStringLiteral("a <b> c"), QStringLiteral("a <i> c"));
        const QString html = TextDiff::toHtml(d.right, QStringLiteral("background:yellow"));
        QVERIFY2(!html.contains(QStringLiteral("<i>")), qPrintable(html));
        // Punctuation marks are words of their own: only the letter changed.
        QVERIFY2(html.contains(QStringLiteral("&lt;<span style=\"background:yellow\">i</span>&gt;")), qPrintable(html));
    }

    void diffTooLongIsWhole()
    {
        const QString a = QStringLiteral("w ").repeated(3000);
        const TextDiff d = TextDiff::compute(a, a + QStringLiteral("x"), 2000);
        QCOMPARE(d.left.size(), 1);
        QVERIFY(d.left.first().changed);
    }

    // Log-spaced bins: every duration lands in the bin whose edges hold it, and a percentile read from
    // the bins is within DurationHistogram::relativeError() (2.5 %) of the exact nearest-rank one.
    void durationHistogramBoundsItsError()
    {
        QVERIFY(DurationHistogram::relativeError() < 0.025);
        QCOMPARE(DurationHistogram::binOf(0), 0);
        QCOMPARE(DurationHistogram::binOf(0.999), 0);
        QCOMPARE(DurationHistogram::binOf(1.0), 1);
        QCOMPARE(DurationHistogram::binOf(-5), 0);
        QCOMPARE(DurationHistogram::binOf(1e12), DurationHistogram::kBins - 1);
        for (int k = 1; k < DurationHistogram::kBins; ++k) {
            QCOMPARE(DurationHistogram::binOf(DurationHistogram::lowerEdge(k)), k);
            QCOMPARE(DurationHistogram::binOf(std::nextafter(DurationHistogram::lowerEdge(k), 0.0)), k - 1);
        }
        QRandomGenerator rng(7);
        std::vector<double> exact;
        DurationHistogram h;
        for (int i = 0; i < 20'000; ++i) {
            const double ms = i % 50 == 0 ? rng.generateDouble() : std::exp(rng.generateDouble() * std::log(2e6)); // 0–1 ms and 1 ms–33 min
            exact.push_back(ms);
            h.add(ms);
        }
        std::sort(exact.begin(), exact.end());
        QCOMPARE(h.total(), qint64(exact.size()));
        for (double p : { 0.1, 1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 100.0 }) {
            const double e = exact[std::size_t(std::ceil(p / 100.0 * double(exact.size()))) - 1];
            const double got = h.percentile(p);
            if (e < 1.0)
                QVERIFY2(std::abs(got - e) <= 0.5, qPrintable(QStringLiteral("p%1: %2 for %3").arg(p).arg(got).arg(e)));
            else
                QVERIFY2(std::abs(got / e - 1.0) <= DurationHistogram::relativeError() + 1e-12,
                         qPrintable(QStringLiteral("p%1: %2 for %3").arg(p).arg(got).arg(e)));
        }
        // Merging is adding.
        DurationHistogram a, b;
        a.add(10);
        b.add(10);
        b.add(2000);
        a.merge(b);
        QCOMPARE(a.total(), 3);
        QCOMPARE(a.countInBin(DurationHistogram::binOf(10)), 2);
        QCOMPARE(a.nonEmptyBins().size(), std::size_t(2));
    }

    void percentiles()
    {
        LatencyStats stats(0, 3000, 1000);
        for (int i = 1; i <= 100; ++i)
            stats.add(LatencySample { 500, double(i), i % 4 != 0 });
        stats.add(LatencySample { 1500, 7, true });
        stats.add(LatencySample { -1, 9, true }); // before the range: ignored
        QCOMPARE(stats.buckets().size(), std::size_t(3));
        const LatencyBucket &b = stats.buckets()[0];
        QCOMPARE(b.count(), 100);
        const double err = DurationHistogram::relativeError();
        for (double p : { 50.0, 90.0, 99.0 })
            QVERIFY2(std::abs(b.percentile(p) / p - 1.0) <= err, qPrintable(QString::number(b.percentile(p))));
        QCOMPARE(b.successRate(), 0.75);
        QVERIFY(std::abs(stats.buckets()[1].percentile(50) / 7.0 - 1.0) <= err);
        QCOMPARE(stats.buckets()[2].count(), 0);
        QCOMPARE(stats.total(), 101);
        QVERIFY(std::abs(stats.percentile(50) / 50.0 - 1.0) <= err);
        // A live sample past the end extends the range.
        QCOMPARE(stats.add(LatencySample { 5500, 3, true }), 5);
        QCOMPARE(stats.buckets().size(), std::size_t(6));
    }

    // The store's cells load into the same buckets as the samples they count.
    void cellsMatchSamples()
    {
        QList<LatencySample> samples;
        for (int i = 0; i < 5000; ++i)
            samples << LatencySample { (i * 7919) % 100'000, double((i * 104729) % 30'000), i % 3 != 0 };
        LatencyStats one(0, 100'000, 10'000), cells(0, 100'000, 10'000);
        std::map<std::tuple<qint64, bool, int>, qint64> counted;
        for (const LatencySample &s : samples) {
            one.add(s);
            ++counted[{ s.atMs / 10'000 * 10'000, s.success, DurationHistogram::binOf(s.durationMs) }];
        }
        QList<DurationCell> list;
        for (const auto &[k, n] : counted)
            list << DurationCell { std::get<0>(k), std::get<1>(k), std::get<2>(k), n };
        cells.addCells(list);
        for (std::size_t i = 0; i < one.buckets().size(); ++i) {
            QCOMPARE(one.buckets()[i].durations.nonEmptyBins(), cells.buckets()[i].durations.nonEmptyBins());
            QCOMPARE(one.buckets()[i].successes, cells.buckets()[i].successes);
        }
        QCOMPARE(one.total(), cells.total());
        QCOMPARE(one.successMedian(), cells.successMedian());
    }

    void histogramBins()
    {
        QCOMPARE(LatencyStats::histogramBin(0), 0);
        QCOMPARE(LatencyStats::histogramBin(249.9), 0);
        QCOMPARE(LatencyStats::histogramBin(250), 1);
        QCOMPARE(LatencyStats::histogramBin(60'000), 11);
        QCOMPARE(LatencyStats::histogramBin(1e9), int(LatencyStats::histogramEdges().size()) - 1);
    }

    void extraWait()
    {
        LatencyStats stats(0, 10'000, 10'000);
        for (double ms : { 1000.0, 2000.0, 3000.0 }) // primary success median: 2000
            stats.add(LatencySample { 100, ms, true });
        stats.setFallbackWaits({ FallbackWait { 200, QStringLiteral("gemini"), QStringLiteral("qwen"), 60'000, 2500, true },
                                 FallbackWait { 300, QStringLiteral("gemini"), QStringLiteral("qwen"), 500, 1000, true } });
        QCOMPARE(stats.extraWaitCount(), 2);
        // Fallback can be quicker than the primary: 1500 − 2000 = −500; 62500 − 2000 = 60500. Each term is
        // read from a bin, so each may be off by 2.5 %.
        const double err = DurationHistogram::relativeError();
        const auto near = [&](double got, double total) {
            return std::abs(got - (total - 2000)) <= err * (total + 2000) + 1e-9;
        };
        QVERIFY2(near(stats.extraWaitPercentile(0, 50), 1500), qPrintable(QString::number(stats.extraWaitPercentile(0, 50))));
        QVERIFY2(near(stats.extraWaitPercentile(0, 90), 62'500), qPrintable(QString::number(stats.extraWaitPercentile(0, 90))));
        QVERIFY(near(stats.extraWaitPercentile(50), 1500));
        QCOMPARE(stats.extraWaitCount(1), 0);
    }

    void storeQueriesOnFilledHistory()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 20'000, now - 86'400'000, now, 3, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        QCOMPARE(filled.attempts, 20'000);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")), 20'000);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), filled.generations);
        // Same seed, same history.
        QTemporaryDir dir2;
        auto store2 = Store::open(TestStore::fresh(dir2.path()), &error);
        QCOMPARE(HistoryFiller::fill(store2->storeLocation(), { 20'000, now - 86'400'000, now, 3, {} }).generations, filled.generations);

        // The filter's count agrees with its pages.
        HistoryFilter failed;
        failed.states = { HistoryState::Failed };
        const qint64 count = store->count(failed);
        QVERIFY(count > 100);
        qint64 paged = 0;
        HistoryFilter page = failed;
        for (;;) {
            const QList<GenerationRow> rows = store->generations(page, 500);
            paged += rows.size();
            if (rows.size() < 500)
                break;
            page.beforeMs = rows.constLast().createdAtMs;
            page.beforeId = rows.constLast().id;
        }
        QCOMPARE(paged, count);
        HistoryFilter handedToFallback;
        handedToFallback.fallbackApplied = true;
        QCOMPARE(store->count(handedToFallback),
                 store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE fallback_applied = 1")));
        // Every failure has its next step.
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'failed' AND next_step IS NULL")), 0);

        // Fallback waits: one per fallback attempt, with the primary's time of the same generation.
        const QList<FallbackWait> waits = store->fallbackWaits(Stage::Storyboard, now - 86'400'000, now + 86'400'000, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(qint64(waits.size()), store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE role = 'fallback'")));
        for (const FallbackWait &w : waits) {
            QCOMPARE(w.primaryProvider, QStringLiteral("gemini"));
            QCOMPARE(w.fallbackProvider, QStringLiteral("qwen"));
            QVERIFY(w.primaryMs > 0);
        }
        const QList<LatencySample> image =
            store->latencySamples(Provider::Gemini, Role::Primary, 0, now + 86'400'000, &error, Stage::Image);
        QCOMPARE(qint64(image.size()), store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE stage = 'image'")));
    }

    // Whole hours come from the hourly aggregates, partial hours from the rows: every answer equals the
    // rows' own, for ranges that start and end inside an hour, with and without filters.
    void aggregatesAnswerAsTheRowsDo()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        constexpr qint64 kHour = 3'600'000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch() / kHour * kHour + 1'234'567; // inside an hour, whatever the clock
        const HistoryFillResult filled = HistoryFiller::fill(
            store->storeLocation(), { 20'000, now - 3 * 24 * kHour, now, 11, { QStringLiteral("a"), QStringLiteral("b") } });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_attempts")) > 0);
        // A generation still running inside the aggregated hours is counted from its row.
        {
            QSqlDatabase db = store->storeLocation().connect(QStringLiteral("running-row"), StoreLocation::Access::ReadWrite, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("INSERT INTO generations (id, created_at_ms, state, primary_provider, instance) VALUES "
                                          "('gen_running', %1, 'running', 'gemini', 'a')")
                               .arg(now - 30 * kHour)));
            // In the partial hour the range below starts with, read from the rows: every state is counted
            // there, the ones the filler never writes too (an edge's count names every state). Not in the
            // aggregates (written past the writer): deleted after the counts.
            QVERIFY(
                q.exec(QStringLiteral("INSERT INTO generations (id, created_at_ms, state, primary_provider, instance) VALUES "
                                      "('gen_cancelled', %1, 'cancelled', 'gemini', 'a'), ('gen_abandoned', %1, 'abandoned', 'qwen', 'b'), "
                                      "('gen_running_edge', %1, 'running', 'qwen', 'b')")
                           .arg(now - 50 * kHour - 700)));
        }
        StoreLocation::disconnect(QStringLiteral("running-row"));
        const qint64 from = now - 50 * kHour - 777;
        auto rows = [&](const QString &where) {
            return store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE created_at_ms >= %1 AND ").arg(from) + where);
        };
        HistoryFilter f;
        f.fromMs = from;
        QCOMPARE(store->count(f), rows(QStringLiteral("1 = 1")));
        HistoryFilter user = f; // a user is answered from the rows alone
        user.userKey = QStringLiteral("synthetic-user-7");
        QCOMPARE(store->count(user), rows(QStringLiteral("user_key = 'synthetic-user-7'")));
        for (const auto &[code, n] : store->countBy(HistoryGroup::PublicCode, f))
            QCOMPARE(n, rows(code.isEmpty() ? QStringLiteral("public_code IS NULL") : QStringLiteral("public_code = '%1'").arg(code)));
        HistoryFilter narrow = f;
        narrow.toMs = now - 3 * kHour - 99;
        narrow.provider = Provider::Qwen;
        narrow.instance = QStringLiteral("b");
        narrow.states = { HistoryState::Failed, HistoryState::Succeeded, HistoryState::Running };
        const QString narrowRows =
            QStringLiteral("created_at_ms < %1 AND (primary_provider = 'qwen' OR final_provider = 'qwen') AND instance = 'b' "
                           "AND state IN ('failed', 'succeeded', 'running') AND ")
                .arg(*narrow.toMs);
        const auto byKind = store->countBy(HistoryGroup::Kind, narrow);
        QVERIFY(!byKind.isEmpty());
        for (const auto &[kind, n] : byKind)
            QCOMPARE(n, rows(narrowRows + (kind.isEmpty() ? QStringLiteral("kind IS NULL") : QStringLiteral("kind = '%1'").arg(kind))));
        const auto byState = store->countBy(HistoryGroup::State, f);
        for (const std::pair<const char *, int> &expected :
             { std::pair("running", 2), std::pair("cancelled", 1), std::pair("abandoned", 1) }) {
            QVERIFY2(
                std::any_of(byState.begin(), byState.end(),
                            [&expected](const auto &p) { return p.first == QLatin1String(expected.first) && p.second == expected.second; }),
                expected.first);
        }
        { // Written past the aggregates, which the fallback rate's whole hours below read: gone again.
            QSqlDatabase db = store->storeLocation().connect(QStringLiteral("edge-rows"), StoreLocation::Access::ReadWrite, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("DELETE FROM generations WHERE id IN ('gen_cancelled', 'gen_abandoned', 'gen_running_edge')")));
        }
        StoreLocation::disconnect(QStringLiteral("edge-rows"));

        // Fallback rate in hour buckets from an hour boundary, up to a moment inside an hour.
        const qint64 rateFrom = (now - 50 * kHour) / kHour * kHour;
        const QList<RateBucket> rate = store->fallbackRate(rateFrom, now + 1, kHour, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(rate.size() >= 50, qPrintable(QString::number(rate.size())));
        for (const RateBucket &b : rate) {
            const QString in =
                QStringLiteral("created_at_ms >= %1 AND created_at_ms < %2").arg(b.startMs).arg(std::min(b.startMs + kHour, now + 1));
            QCOMPARE(b.generations, store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE ") + in));
            QCOMPARE(b.fallbacks, store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE fallback_applied = 1 AND ") + in));
        }

        // Latency and fallback histograms: the same cells as the rows binned one by one.
        const qint64 bucket = 6 * kHour;
        const qint64 histFrom = (now - 2 * 24 * kHour) / bucket * bucket;
        std::map<std::tuple<qint64, bool, int>, qint64> expected;
        for (const LatencySample &s : store->latencySamples(Provider::Gemini, Role::Primary, histFrom, now, &error, Stage::Storyboard))
            ++expected[{ histFrom + (s.atMs - histFrom) / bucket * bucket, s.success, DurationHistogram::binOf(s.durationMs) }];
        std::map<std::tuple<qint64, bool, int>, qint64> got;
        for (const DurationCell &c :
             store->latencyHistogram(Provider::Gemini, Role::Primary, Stage::Storyboard, histFrom, now, bucket, &error))
            got[{ c.startMs, c.success, c.bin }] += c.count;
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(expected.size() > 100);
        QCOMPARE(got, expected);
        std::map<std::tuple<qint64, QString, QString, int>, qint64> expectedFallback, gotFallback;
        for (const FallbackWait &w : store->fallbackWaits(Stage::Storyboard, histFrom, now, &error))
            ++expectedFallback[{ histFrom + (w.atMs - histFrom) / bucket * bucket, w.primaryProvider, w.fallbackProvider,
                                 DurationHistogram::binOf(w.primaryMs + w.fallbackMs) }];
        for (const FallbackWaitCell &c : store->fallbackWaitHistogram(Stage::Storyboard, histFrom, now, bucket, &error))
            gotFallback[{ c.startMs, c.primaryProvider, c.fallbackProvider, c.bin }] += c.count;
        QVERIFY(expectedFallback.size() > 20);
        QCOMPARE(gotFallback, expectedFallback);
    }

    // A range that reaches the present ("the last 7 days") reads its current hour from the aggregates,
    // not from the rows, so that the dashboards cost the same at any traffic and any minute (docs/store.md,
    // "Reading"). Shown by taking that hour's rows away behind the aggregates' back: the answers stay.
    // The history runs an hour and a half past now, so that the clock turning an hour during the test
    // still leaves the range reaching the present.
    void aRangeReachingThePresentReadsItsHourFromTheAggregates()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        constexpr qint64 kHour = 3'600'000;
        const qint64 to = QDateTime::currentMSecsSinceEpoch() / kHour * kHour + kHour + kHour / 2;
        const qint64 from = to / kHour * kHour - 5 * kHour;
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 6'000, from, to, 5, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        auto answers = [&] {
            std::map<std::tuple<qint64, bool, int>, qint64> latency;
            for (const DurationCell &c :
                 store->latencyHistogram(Provider::Gemini, Role::Primary, Stage::Storyboard, from, to, kHour, &error))
                latency[{ c.startMs, c.success, c.bin }] += c.count;
            std::map<std::tuple<qint64, QString, QString, int>, qint64> waits;
            for (const FallbackWaitCell &c : store->fallbackWaitHistogram(Stage::Storyboard, from, to, kHour, &error))
                waits[{ c.startMs, c.primaryProvider, c.fallbackProvider, c.bin }] += c.count;
            std::map<qint64, std::pair<qint64, qint64>> rate;
            for (const RateBucket &b : store->fallbackRate(from, to, kHour, &error))
                rate[b.startMs] = { b.generations, b.fallbacks };
            return std::tuple { latency, waits, rate };
        };
        const auto before = answers();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const qint64 lastHour = to / kHour * kHour;
        QVERIFY(std::get<2>(before).contains(lastHour) && std::get<2>(before).at(lastHour).first > 0);
        QVERIFY(std::any_of(std::get<0>(before).begin(), std::get<0>(before).end(),
                            [&](const auto &cell) { return std::get<0>(cell.first) == lastHour; }));
        {
            QSqlDatabase db = store->storeLocation().connect(QStringLiteral("behind-the-back"), StoreLocation::Access::ReadWrite, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("DELETE FROM attempts WHERE at_ms >= %1").arg(lastHour)));
            QVERIFY(q.numRowsAffected() > 0);
            QVERIFY(q.exec(QStringLiteral("DELETE FROM generations WHERE created_at_ms >= %1 AND id NOT IN (SELECT generation_id FROM "
                                          "attempts)")
                               .arg(lastHour)));
            QVERIFY(q.numRowsAffected() > 0);
        }
        StoreLocation::disconnect(QStringLiteral("behind-the-back"));
        const auto after = answers();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(std::get<0>(after) == std::get<0>(before));
        QVERIFY(std::get<1>(after) == std::get<1>(before));
        QVERIFY(std::get<2>(after) == std::get<2>(before));
    }

    // The "now" a view takes a moment before its read runs is already past when the read runs: the
    // range still reaches the present while no row is at or after it, and reads its current hour from
    // the aggregates (shown as above, by taking that hour's rows away). One attempt moved past `to`
    // sends the hour back to the rows, which are exact for a range that ends before the newest row.
    void aRangeEndingAMomentAgoReadsItsHourFromTheAggregatesWhileNoRowIsLater()
    {
        constexpr qint64 kHour = 3'600'000;
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        // Minutes ago (the filler's last attempts end up to about two minutes after its `to`), within the
        // last hour, far enough into its hour for that hour to hold rows and far enough from its end for
        // the last attempts to stay in it.
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3 * 60'000;
        const qint64 minute = base % kHour;
        const qint64 filledTo = minute < 10 * 60'000 ? base - minute - 10 * 60'000
            : minute > 55 * 60'000                   ? base - minute + 50 * 60'000
                                                     : base;
        const qint64 from = filledTo / kHour * kHour - 5 * kHour;
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 6'000, from, filledTo, 5, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        // Taken "a moment ago", just after the newest row (a generation's fallback attempt may come after filledTo).
        const qint64 to = std::max(store->scalar(QStringLiteral("SELECT MAX(at_ms) FROM attempts")),
                                   store->scalar(QStringLiteral("SELECT MAX(created_at_ms) FROM generations")))
            + 1;
        QTRY_VERIFY(to < QDateTime::currentMSecsSinceEpoch());
        const qint64 lastHour = filledTo / kHour * kHour;
        QCOMPARE(to / kHour * kHour, lastHour);
        auto lastHourCells = [&] {
            qint64 latency = 0, waits = 0, generations = 0;
            for (const DurationCell &c :
                 store->latencyHistogram(Provider::Gemini, Role::Primary, Stage::Storyboard, from, to, kHour, &error))
                latency += c.startMs == lastHour ? c.count : 0;
            for (const FallbackWaitCell &c : store->fallbackWaitHistogram(Stage::Storyboard, from, to, kHour, &error))
                waits += c.startMs == lastHour ? c.count : 0;
            for (const RateBucket &b : store->fallbackRate(from, to, kHour, &error))
                generations += b.startMs == lastHour ? b.generations : 0;
            return std::tuple { latency, waits, generations };
        };
        const auto before = lastHourCells();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(std::get<0>(before) > 0 && std::get<2>(before) > 0);
        auto behindTheBack = [&](const QStringList &statements) {
            int failed = 0;
            {
                QString why;
                QSqlDatabase db = store->storeLocation().connect(QStringLiteral("behind-the-back"), StoreLocation::Access::ReadWrite, &why);
                QSqlQuery q(db);
                for (const QString &sql : statements)
                    if (!why.isEmpty() || !q.exec(sql) || q.numRowsAffected() <= 0) {
                        qWarning("%s: %s %s", qPrintable(sql), qPrintable(why), qPrintable(q.lastError().text()));
                        ++failed;
                    }
            }
            StoreLocation::disconnect(QStringLiteral("behind-the-back"));
            return failed == 0;
        };
        QVERIFY(behindTheBack(
            { QStringLiteral("DELETE FROM attempts WHERE at_ms >= %1").arg(lastHour),
              QStringLiteral("DELETE FROM generations WHERE created_at_ms >= %1 AND id NOT IN (SELECT generation_id FROM attempts)")
                  .arg(lastHour) }));
        QCOMPARE(lastHourCells(), before);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const std::tuple gone(qint64(0), qint64(0), qint64(0)); // the rows of that hour, which are deleted

        // Either kind of row past `to` sends the hour back to the rows: a generation, then an attempt.
        const qint64 oldest = store->scalar(QStringLiteral("SELECT MIN(created_at_ms) FROM generations"));
        QVERIFY(behindTheBack(
            { QStringLiteral("UPDATE generations SET created_at_ms = %1 WHERE created_at_ms = %2").arg(to + 1'000).arg(oldest) }));
        QCOMPARE(lastHourCells(), gone);
        QVERIFY(behindTheBack(
            { QStringLiteral("UPDATE generations SET created_at_ms = %1 WHERE created_at_ms = %2").arg(oldest).arg(to + 1'000) }));
        QCOMPARE(lastHourCells(), before);
        QVERIFY(behindTheBack(
            { QStringLiteral("UPDATE attempts SET at_ms = %1 WHERE at_ms = (SELECT MIN(at_ms) FROM attempts)").arg(to + 1'000) }));
        QCOMPARE(lastHourCells(), gone);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // The cells the histograms return: one per key, summed over the instances and the edge rows that
    // name it, in key order whatever order they came in (the providers' names in text order).
    void histogramCellsAreSummedOncePerKeyInKeyOrder()
    {
        DurationCellSums durations;
        durations.add(3, true, 7, 2);
        durations.add(0, false, 40, 1);
        durations.add(3, true, 7, 5); // a second instance's row of the same cell
        durations.add(3, false, 7, 1);
        durations.add(1, true, 0, 4);
        const QList<DurationCell> d = durations.cells(1'000, 10);
        QCOMPARE(d.size(), 4);
        const auto at = [&d](int i) {
            return std::tuple(d[i].startMs, d[i].success, d[i].bin, d[i].count);
        };
        QCOMPARE(at(0), std::tuple(qint64(1'000), false, 40, qint64(1)));
        QCOMPARE(at(1), std::tuple(qint64(1'010), true, 0, qint64(4)));
        QCOMPARE(at(2), std::tuple(qint64(1'030), false, 7, qint64(1)));
        QCOMPARE(at(3), std::tuple(qint64(1'030), true, 7, qint64(7)));

        FallbackWaitCellSums waits;
        waits.add(2, QStringLiteral("qwen"), QStringLiteral("gemini"), 5, 1);
        waits.add(2, QStringLiteral("gemini"), QStringLiteral("qwen"), 9, 1);
        waits.add(0, QStringLiteral("qwen"), QStringLiteral("openai"), 5, 3);
        waits.add(2, QStringLiteral("gemini"), QStringLiteral("qwen"), 9, 2);
        waits.add(2, QStringLiteral("gemini"), QStringLiteral("openai"), 9, 1);
        const QList<FallbackWaitCell> w = waits.cells(0, 100);
        QStringList got;
        for (const FallbackWaitCell &c : w)
            got << QStringLiteral("%1 %2>%3 %4 x%5").arg(c.startMs).arg(c.primaryProvider, c.fallbackProvider).arg(c.bin).arg(c.count);
        QCOMPARE(got,
                 QStringList({ QStringLiteral("0 qwen>openai 5 x3"), QStringLiteral("200 gemini>openai 9 x1"),
                               QStringLiteral("200 gemini>qwen 9 x3"), QStringLiteral("200 qwen>gemini 5 x1") }));
    }

    void exportIsMaskedAndQuoted()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        HistoryFiller::fill(store->storeLocation(), { 3000, now - 3'600'000, now, 5, {} });
        HistoryFilter failed;
        failed.states = { HistoryState::Failed };
        const qint64 count = store->count(failed);
        QByteArray csv;
        QBuffer out(&csv);
        out.open(QIODevice::WriteOnly);
        const HistoryExport::Outcome o =
            HistoryExport::write(*store, failed, HistoryExport::Format::Csv, HistoryExport::Ids::MaskedOnly, out);
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QCOMPARE(o.rows, count);
        const QList<QByteArray> lines = csv.trimmed().split('\n');
        QCOMPARE(qint64(lines.size()), count + 1);
        QVERIFY(lines.first().startsWith("created_at,user,generation,state"));
        QVERIFY(!lines.first().contains("generation_id"));
        // No full generation id anywhere: only the masked form.
        const QString someId = store->generations(failed, 1).constFirst().id;
        QVERIFY(!csv.contains(someId.toUtf8()));
        QVERIFY(csv.contains(someId.left(8).toUtf8()));
        QVERIFY(!csv.contains("synthetic-user-")); // the keyed hash stays in the store

        QCOMPARE(HistoryExport::csvField(QJsonValue(QStringLiteral("=HYPERLINK(1)"))), QStringLiteral("'=HYPERLINK(1)"));
        QCOMPARE(HistoryExport::csvField(QJsonValue(QStringLiteral("a,\"b\""))), QStringLiteral("\"a,\"\"b\"\"\""));
        QCOMPARE(HistoryExport::csvField(QJsonValue(-3.5)), QStringLiteral("-3.5"));
        QCOMPARE(HistoryExport::csvField(QJsonValue(QStringLiteral("bad\x1b]0;title\x07 text"))),
                 QStringLiteral("bad ]0;title  text")); // no escapes reach a terminal
        QCOMPARE(HistoryExport::csvField(QJsonValue()), QString());

        QByteArray jsonl;
        QBuffer out2(&jsonl);
        out2.open(QIODevice::WriteOnly);
        HistoryExport::write(*store, failed, HistoryExport::Format::JsonLines, HistoryExport::Ids::WithFull, out2);
        const QJsonObject first = QJsonDocument::fromJson(jsonl.split('\n').first()).object();
        QVERIFY(first.value(QLatin1StringView("generation_id")).toString().startsWith(QLatin1StringView("gen_")));
        QVERIFY(first.value(QLatin1StringView("generation")).toString().contains(QChar(0x2026)));
    }

    void comparisonsRoundTrip()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        Comparison c;
        c.id = QStringLiteral("cmp_1");
        c.createdAtMs = 1000;
        c.userMask = QStringLiteral("ha****ul");
        c.primary.provider = Provider::Gemini;
        c.primary.done = true;
        c.primary.state = FinalState::Succeeded;
        c.primary.storyboardMs = 812.5;
        c.primary.tokens = TokenUsage { 10, 20 };
        Storyboard board;
        board.title = QStringLiteral("T");
        for (int i = 1; i <= 4; ++i)
            board.panels << Panel { i, panelRoles().at(i - 1), QStringLiteral("scene %1").arg(i), { QStringLiteral("A") }, {} };
        c.primary.storyboard = board;
        c.fallback.provider = Provider::Qwen;
        c.fallback.done = true;
        c.fallback.state = FinalState::Failed;
        c.fallback.publicCode = QStringLiteral("AI_PROVIDER_INVALID_OUTPUT");
        c.fallback.validation = QStringLiteral("panels: expected 4, got 3");
        store->recordComparison(c.toRow(false), QStringLiteral("gen_a"), QStringLiteral("gen_b"));
        Comparison d = c;
        d.id = QStringLiteral("cmp_2");
        d.createdAtMs = 2000;
        store->recordComparison(d.toRow(true), QString(), QString());
        QVERIFY(store->flush());

        const QList<ComparisonRow> rows = store->comparisons(10);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.first().id, QStringLiteral("cmp_2")); // newest first
        const auto back = Comparison::fromRow(rows.last());
        QVERIFY(back);
        QCOMPARE(back->primary.storyboardMs, 812.5);
        QCOMPARE(back->primary.tokens, (TokenUsage { 10, 20 }));
        QCOMPARE(back->fallback.validation, QStringLiteral("panels: expected 4, got 3"));
        QVERIFY(!back->contentStored);
        QVERIFY(!back->primary.storyboard); // content off: metadata only
        const auto withContent = Comparison::fromRow(*store->comparison(QStringLiteral("cmp_2")));
        QVERIFY(withContent->contentStored);
        QCOMPARE(withContent->primary.storyboard, std::optional<Storyboard>(board));
        // Keyset paging.
        QCOMPARE(store->comparisons(10, 2000, QStringLiteral("cmp_2")).size(), 1);
    }

    void settingsFileRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bullpen.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"future_key\": 42, \"providers\": {\"gemini\": {\"api_key\": \"leak\"}}}");
        f.close();
        Settings s = Settings::defaults();
        s.storyboard.fallback = Provider::Qwen;
        s.storyboard.primaryTimeout = std::chrono::milliseconds(1500);
        s.storyboard.totalBudget = std::chrono::seconds(90);
        s.pipeline.storeContent = true;
        s.pipeline.imageRetries = 4;
        s.dataDir = dir.filePath(QStringLiteral("data"));
        s.providers[Provider::Gemini].apiKey = QStringLiteral("secret-key-that-must-not-be-written");
        QString error;
        QVERIFY2(SettingsFile::save(s, path, &error), qPrintable(error));
        QFile in(path);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = in.readAll();
        QVERIFY(!text.contains("secret-key"));
        QVERIFY(!text.contains("leak")); // a key found in the old file is dropped, not kept
        QVERIFY(text.contains("future_key")); // unknown keys survive
        const SettingsLoad load = SettingsLoader::load(path, QString(), QProcessEnvironment(), false);
        QVERIFY2(load.ok(), qPrintable(load.errors.isEmpty() ? QString() : load.errors.first().toString()));
        QCOMPARE(load.settings.storyboard.fallback, std::optional<Provider>(Provider::Qwen));
        QCOMPARE(load.settings.storyboard.primaryTimeout, std::chrono::milliseconds(1500));
        QCOMPARE(load.settings.storyboard.totalBudget, std::optional<std::chrono::milliseconds>(std::chrono::seconds(90)));
        QVERIFY(load.settings.pipeline.storeContent);
        QCOMPARE(load.settings.pipeline.imageRetries, 4);
        QCOMPARE(load.settings.dataDir, s.dataDir);
    }

    void pipelineSettingsRefusedWhenWronglyTyped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bullpen.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"pipeline\": {\"image_retries\": 9, \"captions\": \"yes\", \"image_timeout\": \"90\"}}");
        f.close();
        const SettingsLoad load = SettingsLoader::load(path, QString(), QProcessEnvironment(), false);
        QStringList where;
        for (const ConfigError &e : load.errors)
            where << e.setting;
        QVERIFY2(where.join(QLatin1Char('|')).contains(QStringLiteral("pipeline.image_retries")), qPrintable(where.join(QLatin1Char('|'))));
        QVERIFY(where.join(QLatin1Char('|')).contains(QStringLiteral("pipeline.captions")));
        QVERIFY(where.join(QLatin1Char('|')).contains(QStringLiteral("pipeline.image_timeout")));
        for (const QString &w : std::as_const(where))
            QVERIFY2(w.startsWith(path), qPrintable(w)); // each names the file
    }

    void keyFileIsOwnerOnlyAndKeepsOtherLines()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keys.env"));
        QString error;
        QVERIFY(KeyFile::setKey(path, QStringLiteral("GEMINI_API_KEY"), QStringLiteral("g-1"), &error));
        QVERIFY(KeyFile::setKey(path, QStringLiteral("OPENAI_API_KEY"), QStringLiteral("o-1"), &error));
        QVERIFY(KeyFile::setKey(path, QStringLiteral("GEMINI_API_KEY"), QStringLiteral("g-2"), &error));
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
        const SettingsLoad load = SettingsLoader::load(QString(), path, QProcessEnvironment(), false);
        QVERIFY(load.ok());
        QCOMPARE(load.settings.provider(Provider::Gemini).apiKey, QStringLiteral("g-2"));
        QCOMPARE(load.settings.provider(Provider::OpenAI).apiKey, QStringLiteral("o-1"));
        QVERIFY(KeyFile::setKey(path, QStringLiteral("GEMINI_API_KEY"), QString(), &error)); // removed
        QVERIFY(!SettingsLoader::load(QString(), path, QProcessEnvironment(), false).settings.provider(Provider::Gemini).hasKey());
        QCOMPARE(maskApiKey(QStringLiteral("AIzaSyD-1234567890abcdef9f3c")), QStringLiteral("AIza…9f3c"));
        QVERIFY(!maskApiKey(QStringLiteral("short")).contains(QStringLiteral("short")));
    }
};

QTEST_GUILESS_MAIN(tst_Analytics)
#include "tst_analytics.moc"
