// SPDX-License-Identifier: MIT
// docs/contract.md §16 (cost) and §17 (tuning from history): prices as data, the cost of each attempt
// recorded from the tokens a real adapter read off the simulator's wire, spend read back from the store,
// and the tuner's replay of a recorded history.
#include "config/settings.h"
#include "contract/price.h"
#include "contract/providerregistry.h"
#include "cost/generationcost.h"
#include "devsupport/historyfiller.h"
#include "loopbackrig.h"
#include "scriptedgenerator.h"
#include "store/aggregates.h"
#include "store/historyqueries.h"
#include "store/retention.h"
#include "store/store.h"
#include "teststore.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <tuple>

Q_DECLARE_METATYPE(bullpen::Price)
Q_DECLARE_METATYPE(bullpen::AttemptBill)

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

SettingsLoad loadFile(const QTemporaryDir &dir, const QByteArray &json)
{
    const QString path = dir.filePath(QStringLiteral("bullpen.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
        return {};
    f.close();
    return SettingsLoader::load(path, {}, QProcessEnvironment(), false);
}

Price price(std::optional<double> in, std::optional<double> out, std::optional<double> image = std::nullopt)
{
    Price p;
    p.inputPerMillion = in;
    p.outputPerMillion = out;
    p.perImage = image;
    return p;
}

// The spend of [from, to) as it was read before slices were grouped in one query (one scan per range):
// the reference the grouped read must equal. Sorted by provider, stage, role and currency.
QList<SpendRow> perRangeSpend(QSqlDatabase &db, qint64 from, qint64 to)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT provider, stage, role, currency, SUM(cost), COUNT(*), SUM(CASE WHEN cost IS NULL THEN 1 ELSE 0 END) "
                             "FROM attempts WHERE at_ms >= ? AND at_ms < ? AND synthetic = 0 GROUP BY provider, stage, role, currency"));
    q.addBindValue(from);
    q.addBindValue(to);
    QList<SpendRow> rows;
    if (!q.exec())
        qWarning("%s", qPrintable(q.lastError().text()));
    while (q.next())
        rows << SpendRow { q.value(0).toString(),
                           *stageFromId(q.value(1).toString()),
                           *roleFromId(q.value(2).toString()),
                           q.value(3).toString(),
                           q.value(4).toDouble(),
                           q.value(5).toLongLong(),
                           q.value(6).toLongLong() };
    return rows;
}

QString rowsText(QList<SpendRow> rows)
{
    std::sort(rows.begin(), rows.end(), [](const SpendRow &a, const SpendRow &b) {
        return std::tuple(a.provider, toId(a.stage), toId(a.role), a.currency)
            < std::tuple(b.provider, toId(b.stage), toId(b.role), b.currency);
    });
    QStringList out;
    for (const SpendRow &r : rows) // cost to 9 places: the sums add the same numbers in another order
        out << QStringLiteral("%1/%2/%3/%4 %5 x%6 ?%7")
                   .arg(r.provider, toId(r.stage), toId(r.role), r.currency)
                   .arg(r.cost, 0, 'f', 9)
                   .arg(r.attempts)
                   .arg(r.unknown);
    return out.join(QLatin1Char('\n'));
}

// Where the Spend panel's read (hourly spend for whole hours, rows for the rest) differs from the
// attempt rows' sums over [from, to) in `slices` slices, each slice and the whole range; empty if nowhere.
QString spendDiffersFromTheRows(Store &store, QSqlDatabase &db, qint64 from, qint64 to, int slices)
{
    QString error;
    const std::optional<QList<Spend>> read = store.spendSlices(from, to, slices, &error);
    if (!read)
        return error;
    for (const Spend &slice : *read) {
        const QString rows = rowsText(perRangeSpend(db, slice.fromMs, slice.toMs));
        if (rowsText(slice.rows) != rows)
            return QStringLiteral("[%1, %2):\n%3\nthe rows say:\n%4").arg(slice.fromMs).arg(slice.toMs).arg(rowsText(slice.rows), rows);
    }
    const std::optional<Spend> one = store.spend(from, to, &error);
    if (!one)
        return error;
    const QString rows = rowsText(perRangeSpend(db, from, to));
    return rowsText(one->rows) == rows ? QString() : QStringLiteral("whole range:\n%1\nthe rows say:\n%2").arg(rowsText(one->rows), rows);
}

} // namespace

class tst_Cost : public QObject
{
    Q_OBJECT
    const qint64 m_now = QDateTime::currentMSecsSinceEpoch();

private Q_SLOTS:
    void initTestCase() { BULLPEN_REQUIRE_TEST_STORE(); }

    // Every built-in row carries its list price and the date of that list (docs/configuration.md).
    void builtInsArePriced()
    {
        const Settings s = Settings::defaults();
        for (const ProviderSpec &spec : builtInProviders()) {
            QVERIFY2(spec.price.inputPerMillion && spec.price.outputPerMillion, qPrintable(spec.id));
            QVERIFY2(!spec.price.asOf.isEmpty(), qPrintable(spec.id));
            QCOMPARE(s.provider(*ProviderRegistry::find(spec.id)).price, spec.price);
        }
    }

    void settingsOverridePrices()
    {
        QTemporaryDir dir;
        const SettingsLoad load = loadFile(
            dir,
            "{\"providers\": ["
            "            {\"id\": \"gemini\", \"price\": {\"input_per_1m\": 1.25, \"currency\": \"EUR\"}},"
            "            {\"id\": \"local-cost\", \"format\": \"openai\", \"base_url\": \"http://127.0.0.1:9/v1\", \"model\": \"m\","
            "             \"price\": {\"input_per_1m\": 0, \"output_per_1m\": 0}}]}");
        QVERIFY2(load.ok(), qPrintable(load.errors.isEmpty() ? QString() : load.errors.constFirst().toString()));
        const Price gemini = load.settings.provider(Provider::Gemini).price;
        QCOMPARE(gemini.inputPerMillion, std::optional<double>(1.25));
        QCOMPARE(gemini.outputPerMillion, ProviderRegistry::spec(Provider::Gemini).price.outputPerMillion); // kept
        QCOMPARE(gemini.currency, QStringLiteral("EUR"));
        const Price local = load.settings.provider(*ProviderRegistry::find(u"local-cost")).price;
        QCOMPARE(local.outputPerMillion, std::optional<double>(0.0));
        QVERIFY(!load.settings.provider(Provider::Qwen).price.asOf.isEmpty()); // untouched: the list's
    }

    void badPricesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("price");
        QTest::addColumn<QString>("names");
        QTest::addRow("text") << QByteArray("{\"input_per_1m\": \"cheap\"}") << QStringLiteral("price.input_per_1m");
        QTest::addRow("negative") << QByteArray("{\"output_per_1m\": -1}") << QStringLiteral("price.output_per_1m");
        QTest::addRow("unknown field") << QByteArray("{\"per_token\": 1}") << QStringLiteral("price.per_token");
        QTest::addRow("currency") << QByteArray("{\"currency\": \"dollars\"}") << QStringLiteral("ISO 4217");
        QTest::addRow("not an object") << QByteArray("3") << QStringLiteral("must be an object");
    }
    void badPricesAreRefused()
    {
        QFETCH(QByteArray, price);
        QFETCH(QString, names);
        QTemporaryDir dir;
        const SettingsLoad load = loadFile(dir, "{\"providers\": [{\"id\": \"openai\", \"price\": " + price + "}]}");
        QVERIFY(!load.ok());
        QVERIFY2(load.errors.constFirst().toString().contains(names), qPrintable(load.errors.constFirst().toString()));
    }

    void attemptCost_data()
    {
        QTest::addColumn<Price>("price");
        QTest::addColumn<AttemptBill>("bill");
        QTest::addColumn<double>("expected"); // NaN: unknown
        const Price p = price(0.30, 2.50, 0.039);
        QTest::addRow("answer") << p << AttemptBill { { 1000, 2000 }, 200, false } << (1000 * 0.30 + 2000 * 2.50) / 1e6;
        QTest::addRow("truncated answer is billed") << p << AttemptBill { { 1000, 4096 }, 200, false } << (1000 * 0.30 + 4096 * 2.50) / 1e6;
        QTest::addRow("refused with 429: not billed") << p << AttemptBill { {}, 429, false } << 0.0;
        QTest::addRow("timeout: unknown, never 0") << p << AttemptBill { {}, std::nullopt, false } << qQNaN();
        QTest::addRow("stream cut after 200: unknown") << p << AttemptBill { {}, 200, false } << qQNaN();
        QTest::addRow("no price: unknown") << price(std::nullopt, std::nullopt) << AttemptBill { { 10, 10 }, 200, false } << qQNaN();
        QTest::addRow("image") << p << AttemptBill { {}, 200, true } << 0.039;
    }
    void attemptCost()
    {
        QFETCH(Price, price);
        QFETCH(AttemptBill, bill);
        QFETCH(double, expected);
        const std::optional<double> cost = bullpen::attemptCost(price, bill);
        if (std::isnan(expected))
            QVERIFY(!cost);
        else
            QVERIFY2(cost && std::abs(*cost - expected) < 1e-12, qPrintable(QString::number(cost.value_or(-1))));
    }

    // A generation's cost is every attempt's, billed failures included; the fallback's part is named;
    // an attempt of unknown cost is counted, never priced at 0 (what Result and Compare show).
    void generationCostSumsEveryAttempt()
    {
        AttemptRecord truncated, timedOut, answered;
        truncated.cost = 0.002;
        truncated.currency = QStringLiteral("USD");
        timedOut.role = Role::Fallback; // no tokens reported: unknown
        answered.role = Role::Fallback;
        answered.cost = 0.005;
        answered.currency = QStringLiteral("USD");
        const GenerationCost c = GenerationCost::of({ truncated, timedOut, answered });
        QCOMPARE(c.total.size(), 1);
        QVERIFY(std::abs(c.total.constFirst().second - 0.007) < 1e-12);
        QVERIFY(std::abs(c.fallbackAdded.constFirst().second - 0.005) < 1e-12);
        QCOMPARE(c.unknown, 1);
        QCOMPARE(GenerationCost::text(c.total), QStringLiteral("0.0070 USD"));
        QCOMPARE(GenerationCost::text({}), QStringLiteral("—"));
    }

    // Real adapters against the simulator, one per dialect: the tokens they read are priced, recorded
    // in the store, and summed by spend(). A truncated answer is billed.
    void costRecordedPerDialect_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("success");
        for (const Provider p : ProviderRegistry::builtIns())
            QTest::addRow("%s", qPrintable(toId(p))) << p << QStringLiteral("healthy") << true;
        QTest::addRow("gemini truncated") << Provider::Gemini << QStringLiteral("primary-truncated") << false;
        QTest::addRow("anthropic truncated") << Provider::Anthropic << QStringLiteral("primary-truncated") << false;
    }
    void costRecordedPerDialect()
    {
        QFETCH(Provider, provider);
        QFETCH(QString, scenario);
        QFETCH(bool, success);
        LoopbackRig rig(scenario, provider, std::nullopt);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        const std::optional<StageResult> r = rig.run(StagePolicy::relief(provider, std::nullopt), QStringLiteral("A short story."));
        QVERIFY(r);
        QCOMPARE(r->attempts.size(), 1);
        const AttemptRecord &a = r->attempts.constFirst();
        QCOMPARE(a.success, success);
        QVERIFY2(a.tokens.input > 0 && a.tokens.output > 0, "the simulator reports usage as the provider's API does");
        const Price p = ProviderRegistry::spec(provider).price;
        const double expected = (a.tokens.input * *p.inputPerMillion + a.tokens.output * *p.outputPerMillion) / 1e6;
        QVERIFY(a.cost);
        QCOMPARE(*a.cost, expected);
        QCOMPARE(a.currency, QStringLiteral("USD"));

        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        for (const Event &e : rig.events)
            store->recordEvent(e);
        QVERIFY(store->flush(10s));
        const std::optional<Spend> spend = store->spend(0, QDateTime::currentMSecsSinceEpoch() + 60'000, &error);
        QVERIFY2(spend, qPrintable(error));
        QCOMPARE(spend->rows.size(), 1);
        QCOMPARE(spend->rows.constFirst().provider, toId(provider));
        QCOMPARE(spend->rows.constFirst().attempts, 1);
        QCOMPARE(spend->rows.constFirst().unknown, 0);
        QVERIFY(std::abs(spend->rows.constFirst().cost - expected) < 1e-12);
        const Spend back = Spend::fromJson(spend->toJson());
        QCOMPARE(back.rows, spend->rows);
    }

    // The Spend panel's slices come from one read (docs/performance.md, "The tuner and the Spend panel"):
    // whole hours from the hourly spend, the hours at the edges from the rows. Each slice, and their sum,
    // equal the range's spend read from the rows one range at a time.
    void spendSlicesEqualPerSliceSums_data()
    {
        QTest::addColumn<bool>("onAnAttempt");
        QTest::addRow("a day") << false;
        QTest::addRow("a slice starts on an attempt") << true; // the attempt is the later slice's
    }
    void spendSlicesEqualPerSliceSums()
    {
        QFETCH(bool, onAnAttempt);
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 6'000, now - 86'400'000, now, 11, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        QSqlDatabase db = store->storeLocation().connect(QStringLiteral("tst_cost_reference"), StoreLocation::Access::ReadOnly, &error);
        QVERIFY2(db.isOpen(), qPrintable(error));
        // A day and an hour past the last attempt; or 12 slices of 2 hours, the second starting on the
        // first attempt of the history.
        const qint64 first = store->scalar(QStringLiteral("SELECT MIN(at_ms) FROM attempts"), &error);
        const qint64 from = onAnAttempt ? first - 7'200'000 : now - 86'400'000;
        const qint64 to = onAnAttempt ? from + 12 * 7'200'000 : now + 3'600'000;
        const std::optional<QList<Spend>> slices = store->spendSlices(from, to, 12, &error);
        QVERIFY2(slices, qPrintable(error));
        QCOMPARE(slices->size(), 12);
        const qint64 step = Spend::sliceMs(from, to, 12);
        qint64 attempts = 0;
        for (qsizetype i = 0; i < slices->size(); ++i) {
            const Spend &slice = slices->at(i);
            QCOMPARE(slice.fromMs, from + i * step);
            QCOMPARE(slice.toMs, std::min(to, from + (i + 1) * step));
            QCOMPARE(rowsText(slice.rows), rowsText(perRangeSpend(db, slice.fromMs, slice.toMs)));
            for (const SpendRow &r : slice.rows)
                attempts += r.attempts;
        }
        if (!onAnAttempt)
            QCOMPARE(attempts, filled.attempts);
        QVERIFY(slices->at(0).rows.isEmpty() || !onAnAttempt);
        const Spend whole = Spend::merged(from, to, *slices);
        QCOMPARE(rowsText(whole.rows), rowsText(perRangeSpend(db, from, to)));
        const std::optional<Spend> one = store->spend(from, to, &error);
        QVERIFY2(one, qPrintable(error));
        QCOMPARE(rowsText(one->rows), rowsText(whole.rows));
        db = QSqlDatabase();
        StoreLocation::disconnect(QStringLiteral("tst_cost_reference"));
    }

    // The hourly spend (schema 17) is kept by every path that writes or removes attempts: filled from the
    // rows (a history written straight into the store, then rebuilt), the writer's own attempts (priced
    // here), and the purge of old generations, which subtracts their attempts (a probe's among them is
    // not users' spend). Read over ranges and slices that do not start or end on an hour, the answer is
    // the attempt rows' sums.
    void hourlySpendEqualsTheRowsAfterWritesAndAPurge()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        constexpr qint64 kDay = 86'400'000;
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 6'000, now - 3 * kDay, now - 3'600'000, 17, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        const QString name = QStringLiteral("tst_cost_hourly");
        QSqlDatabase db = store->storeLocation().connect(name, StoreLocation::Access::ReadWrite, &error);
        QVERIFY2(db.isOpen(), qPrintable(error));
        const qint64 kept = 2 * kDay - 1'234'567; // the purge's cutoff is not on an hour
        {
            // Probes among the last generations the purge removes, in an hour it keeps users' attempts of:
            // never in the hourly spend, never subtracted from it.
            QSqlQuery q(db);
            QVERIFY2(q.exec(QStringLiteral("UPDATE attempts SET synthetic = 1, cost = 5, currency = 'USD' WHERE generation_id IN "
                                           "(SELECT id FROM generations WHERE created_at_ms < %1 ORDER BY created_at_ms DESC LIMIT 3)")
                                .arg(now - kept)),
                     qPrintable(q.lastError().text()));
            QVERIFY(q.numRowsAffected() > 0);
            QVERIFY(db.transaction());
            QVERIFY2(AggregateDeltas::rebuildSpend(db, &error), qPrintable(error));
            QVERIFY(db.commit());
        }
        int priced = 0;
        runMixedGenerations(30, [&](const Event &e) {
            Event withCost = e;
            withCost.wallTime = QDateTime::currentDateTimeUtc(); // in the hours read below, whatever the generator's clock
            if (auto *a = std::get_if<AttemptCompleted>(&withCost.body); a && a->attemptId % 3 != 0) {
                a->cost = 0.001 * static_cast<double>(a->attemptId) + 0.0007;
                a->currency = QStringLiteral("USD");
                ++priced;
            }
            store->recordEvent(withCost);
        });
        QVERIFY(store->flush(10s));
        QVERIFY(priced > 0);
        const qint64 before = store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts"));
        RetentionPolicy policy;
        policy.generations = std::chrono::milliseconds(kept);
        policy.aggregates = std::nullopt;
        {
            Purger purger(db, policy, now);
            QVERIFY2(purger.runToEnd(&error), qPrintable(error));
        }
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")) < before);
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_spend")) > 0);
        const qint64 odd = 17 * 60'000 + 321; // no range here starts or ends on an hour
        for (const auto &[from, to, slices] :
             { std::tuple(now - 3 * kDay + odd, now + 2 * 3'600'000 + odd, 12), std::tuple(now - 2 * kDay - odd, now - kDay + odd, 12),
               std::tuple(now - 3 * kDay - odd, now + kDay, 1), std::tuple(now - 5 * 3'600'000 + odd, now + odd, 5) }) {
            const QString differs = spendDiffersFromTheRows(*store, db, from, to, slices);
            QVERIFY2(differs.isEmpty(), qPrintable(differs));
        }
        db = QSqlDatabase();
        StoreLocation::disconnect(name);
    }

    // The tuner's read streams `attempts_tune` (schema 16) in the order it asks for (docs/contract.md
    // §17); a sort of the range and a row lookup per attempt made it 6.6 s for 1M attempts (bench_tune).
    // The Spend panel's reads `attempts_spend` (schema 15) alone, with no row lookup per attempt: SQLite's
    // plan (PostgreSQL's planner weighs a small table's statistics, so there only the tuner's is read).
    void readsUseTheirIndex_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QString>("index");
        QTest::addColumn<bool>("sorts");
        const QString from = QString::number(m_now - 86'400'000), to = QString::number(m_now + 1);
        QTest::addRow("tune") << HistoryQueries::tuneReadSql() << QStringList { QStringLiteral("'storyboard'"), from, to }
                              << QStringLiteral("attempts_tune") << false;
        QTest::addRow("spend") << HistoryQueries::spendReadSql() << QStringList { from, QStringLiteral("7200000"), from, to }
                               << QStringLiteral("COVERING INDEX attempts_spend") << true;
    }
    void readsUseTheirIndex()
    {
        QFETCH(QString, sql);
        QFETCH(QStringList, values);
        QFETCH(QString, index);
        QFETCH(bool, sorts);
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 4'000, m_now - 86'400'000, m_now, 5, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        const QString name = QStringLiteral("tst_cost_plan");
        QSqlDatabase db = store->storeLocation().connect(name, StoreLocation::Access::ReadWrite, &error);
        QVERIFY2(db.isOpen(), qPrintable(error));
        const bool postgres = StoreLocation::isPostgres(db);
        QStringList plan;
        if (!postgres || !sorts) {
            for (const QString &value : values)
                sql.replace(sql.indexOf(QLatin1Char('?')), 1, value);
            QSqlQuery q(db);
            if (postgres) // a planner with the table's statistics, as autovacuum keeps them
                QVERIFY2(q.exec(QStringLiteral("VACUUM ANALYZE attempts")), qPrintable(q.lastError().text()));
            QVERIFY2(q.exec((postgres ? QStringLiteral("EXPLAIN ") : QStringLiteral("EXPLAIN QUERY PLAN ")) + sql),
                     qPrintable(q.lastError().text()));
            while (q.next())
                plan << q.value(postgres ? 0 : 3).toString();
        }
        db = QSqlDatabase();
        StoreLocation::disconnect(name);
        if (postgres && sorts)
            return; // see above: SQLite's plan only
        const QString text = plan.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(index), qPrintable(text));
        QVERIFY2(sorts || (!text.contains(QStringLiteral("TEMP B-TREE")) && !text.contains(QStringLiteral("Sort"))), qPrintable(text));
    }

    // docs/contract.md §17, "must show": replayed under today's setting, a history of mixed scenarios
    // (timeouts, overloads, rate limits, invalid and truncated answers, fallbacks that fail) predicts
    // the fallback rate the store recorded for that range, within 2 points.
    void tunerReproducesTheRecordedFallbackRate()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 from = now - 86'400'000;
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), { 20'000, from, now, 7, {} });
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));
        const QList<RateBucket> recorded = store->fallbackRate(from, now + 1, now + 1 - from, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        qint64 generations = 0, fallbacks = 0;
        for (const RateBucket &b : recorded) {
            generations += b.generations;
            fallbacks += b.fallbacks;
        }
        QVERIFY(generations > 1000);
        const double recordedRate = double(fallbacks) / double(generations);

        const TuneCandidate today { 60s, 60s, true };
        const std::optional<TuneReport> report =
            store->tune(Stage::Storyboard, from, now + 1, { { 5s, 60s, false }, { 30s, 60s, false }, { 90s, 60s, false } }, today, &error);
        QVERIFY2(report, qPrintable(error));
        QCOMPARE(report->predictions.size(), 4);
        const auto at = [&](std::chrono::milliseconds t) {
            for (const TunePrediction &p : report->predictions) {
                if (p.candidate.primaryTimeout == t)
                    return p;
            }
            return TunePrediction {};
        };
        const TunePrediction now60 = at(60s);
        QVERIFY(now60.candidate.today);
        qInfo("recorded fallback rate %.4f (store) %.4f (attempts); predicted at 60 s %.4f; %lld generations", recordedRate,
              report->recorded.fallbackRate, now60.fallbackRate, static_cast<long long>(report->generations));
        QVERIFY2(std::abs(now60.fallbackRate - recordedRate) <= 0.02, qPrintable(QString::number(now60.fallbackRate - recordedRate)));
        QCOMPARE(now60.censored, 0); // no candidate waits longer than the recorded timeouts did
        QVERIFY(std::abs(now60.p95Ms - report->recorded.p95Ms) <= 0.02 * report->recorded.p95Ms);
        // Waiting longer than the records did rests on censored attempts, and says how many.
        QVERIFY(at(90s).censored > 0);
        // 5 s cuts healthy-but-slow primaries (about 4 s median) short: far more fallbacks.
        QVERIFY(at(5s).fallbackCalledRate > now60.fallbackCalledRate + 0.10);
        QVERIFY(at(5s).p95Ms < now60.p95Ms);
        const TuneReport back = TuneReport::fromJson(report->toJson());
        QCOMPARE(back.toJson(), report->toJson());

        // The same from `bullpen-cli tune --json` over the store's folder (SQLite: the folder is the store).
        if (TestStore::postgres())
            return;
        store.reset();
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path()); // no user settings: today's timeouts are the defaults (60 s)
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("tune"), QStringLiteral("--stage"), QStringLiteral("storyboard"), QStringLiteral("--since"),
                    QStringLiteral("25h"), QStringLiteral("--json"), QStringLiteral("--data-dir"), dir.path() });
        QVERIFY(cli.waitForFinished(60'000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QByteArray out = cli.readAllStandardOutput();
        const TuneReport printed = TuneReport::fromJson(QJsonDocument::fromJson(out).object());
        QCOMPARE(printed.generations, report->generations);
        bool sawToday = false;
        for (const TunePrediction &p : printed.predictions) {
            if (!p.candidate.today)
                continue;
            sawToday = true;
            QCOMPARE(p.candidate.primaryTimeout, 60s);
            QVERIFY2(std::abs(p.fallbackRate - recordedRate) <= 0.02, qPrintable(QString::number(p.fallbackRate - recordedRate)));
            qInfo("bullpen-cli tune --json: today (60 s) fallback_rate %.4f, recorded %.4f", p.fallbackRate, recordedRate);
        }
        QVERIFY(sawToday);
        // At today's timeouts, the breaker replayed on (today's, the shipped default) and off, then the other preset.
        QCOMPARE(printed.alternatives.size(), 3);
        QCOMPARE(printed.alternatives.at(0).candidate.breaker, TuneBreaker::On);
        QVERIFY(printed.alternatives.at(0).candidate.today);
        QCOMPARE(printed.alternatives.at(1).candidate.breaker, TuneBreaker::Off);
        QCOMPARE(printed.alternatives.at(2).candidate.preset, QStringLiteral("capacity"));
        for (const TunePrediction &p : printed.alternatives)
            qInfo("bullpen-cli tune --json: %s, breaker %s: p50 %.0f ms, p95 %.0f ms, fallback %.4f, success %.4f, unobserved %lld",
                  qPrintable(p.candidate.preset), qPrintable(toId(p.candidate.breaker)), p.p50Ms, p.p95Ms, p.fallbackRate, p.successRate,
                  static_cast<long long>(p.unobserved));
        // With no --timeouts, the CLI tries the Tune panel's list (one list, defaultTuneTimeouts): today's
        // 60 s is in it, so no candidate is added.
        QCOMPARE(printed.predictions.size(), defaultTuneTimeouts().size());
        for (qsizetype i = 0; i < printed.predictions.size(); ++i)
            QCOMPARE(printed.predictions.at(i).candidate.primaryTimeout, defaultTuneTimeouts().at(i));

        // Fallback timeouts are candidates too: 4 s cuts most of qwen's answers (about 5 s median), so
        // fewer generations are answered by the fallback than with today's 60 s.
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("tune"), QStringLiteral("--timeouts"), QStringLiteral("60s"), QStringLiteral("--fallback-timeouts"),
                    QStringLiteral("4s,60s"), QStringLiteral("--since"), QStringLiteral("25h"), QStringLiteral("--json"),
                    QStringLiteral("--data-dir"), dir.path() });
        QVERIFY(cli.waitForFinished(60'000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const TuneReport byFallback = TuneReport::fromJson(QJsonDocument::fromJson(cli.readAllStandardOutput()).object());
        QCOMPARE(byFallback.predictions.size(), 2);
        const TunePrediction &cut = byFallback.predictions.at(0);
        const TunePrediction &inForce = byFallback.predictions.at(1);
        QCOMPARE(cut.candidate.fallbackTimeout, 4s);
        QVERIFY(!cut.candidate.today && inForce.candidate.today);
        qInfo("fallback timeout 4 s: fallback rate %.4f, success %.4f; 60 s: %.4f, %.4f", cut.fallbackRate, cut.successRate,
              inForce.fallbackRate, inForce.successRate);
        QVERIFY(cut.fallbackRate < inForce.fallbackRate - 0.05);
        QVERIFY(cut.successRate < inForce.successRate - 0.05);
        QCOMPARE(cut.fallbackCalledRate, inForce.fallbackCalledRate); // the primary's timeout decides who calls it
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("tune"), QStringLiteral("--fallback-timeouts"), QStringLiteral("soon"), QStringLiteral("--data-dir"),
                    dir.path() });
        QVERIFY(cli.waitForFinished(60'000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardError().contains("--fallback-timeouts soon"));
    }
};

QTEST_GUILESS_MAIN(tst_Cost)
#include "tst_cost.moc"
