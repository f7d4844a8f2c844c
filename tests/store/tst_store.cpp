// SPDX-License-Identifier: MIT
// The store: WAL on disk, schema, one final state per generation, filters and paging, and every
// failure path with a message that names the path and what to do. Runs on SQLite (tst_store) and on a
// throwaway PostgreSQL cluster (tst_store_postgres: teststore.h).
#include "engine/backgroundthread.h"
#include "scriptedgenerator.h"
#include "store/aggregates.h"
#include "store/store.h"
#include "store/storeschema.h"
#include "store/storewriter.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <array>
#include <atomic>
#include <limits>
#include <memory>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

// Runs `n` generations through the engine on a manual clock and records them.
void fill(Store &store, int n, QList<StageResult> *results = nullptr)
{
    runMixedGenerations(
        n, [&](const Event &e) { store.recordEvent(e); },
        [&](const StageResult &r) {
            store.recordFinished(r, QStringLiteral("key-") + r.generationId.right(2), QStringLiteral("ha****ul"));
            if (results)
                *results << r;
        });
}

// Each users' fallback attempt of the storyboard stage whose primary was tried, with that primary's
// time, computed by SQL on its own (a subquery per fallback attempt), as "at|fallback|ms|primary|ms" sorted.
QStringList expectedWaits(QSqlDatabase &db)
{
    QSqlQuery q(db);
    const bool ok =
        q.exec(QStringLiteral("SELECT f.at_ms, f.provider, f.duration_ms, "
                              "(SELECT SUM(p.duration_ms) FROM attempts p WHERE p.generation_id = f.generation_id AND p.stage = f.stage "
                              "AND p.role = 'primary' AND p.at_ms <= f.at_ms), "
                              "(SELECT MIN(p.provider) FROM attempts p WHERE p.generation_id = f.generation_id AND p.stage = f.stage "
                              "AND p.role = 'primary' AND p.at_ms <= f.at_ms) "
                              "FROM attempts f WHERE f.role = 'fallback' AND f.stage = 'storyboard' AND f.synthetic = 0"));
    QStringList rows;
    if (!ok)
        return { q.lastError().text() };
    while (q.next()) {
        if (q.value(4).isNull())
            continue; // the primary was skipped: no wait
        rows << QStringLiteral("%1|%2|%3|%4|%5")
                    .arg(q.value(0).toLongLong())
                    .arg(q.value(1).toString())
                    .arg(q.value(2).toDouble())
                    .arg(q.value(4).toString())
                    .arg(q.value(3).toDouble());
    }
    rows.sort();
    return rows;
}

QStringList readWaits(Store &store)
{
    QString error;
    QStringList rows;
    for (const FallbackWait &w : store.fallbackWaits(Stage::Storyboard, 0, std::numeric_limits<qint64>::max(), &error))
        rows << QStringLiteral("%1|%2|%3|%4|%5")
                    .arg(w.atMs)
                    .arg(w.fallbackProvider)
                    .arg(w.fallbackMs)
                    .arg(w.primaryProvider)
                    .arg(w.primaryMs);
    if (!error.isEmpty())
        rows << error;
    rows.sort();
    return rows;
}

} // namespace

class tst_Store : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { BULLPEN_REQUIRE_TEST_STORE(); }

    void createsWalStoreAndRecords()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QList<StageResult> results;
        fill(*store, 30, &results);
        QVERIFY(store->flush(10s));
        const Store::Stats st = store->stats();
        QVERIFY2(st.failed == 0, qPrintable(st.lastError));
        QCOMPARE(st.written, st.queued);
        if (!TestStore::postgres())
            QVERIFY(QFile::exists(store->databasePath() + QStringLiteral("-wal")));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), 30);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running'")), 0);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")), 40); // 10 generations had a fallback attempt
        QCOMPARE(store->integrityCheck(), QStringLiteral("ok"));

        const auto row = store->generation(results.at(1).generationId);
        QVERIFY(row);
        QCOMPARE(row->state, QStringLiteral("succeeded"));
        QVERIFY(row->fallbackApplied);
        QCOMPARE(row->fallbackReason, QStringLiteral("gemini_provider_unavailable"));
        QCOMPARE(row->finalProvider, QStringLiteral("qwen"));
        QCOMPARE(row->userMask, QStringLiteral("ha****ul"));
        QCOMPARE(store->events(results.at(1).generationId).size(), 7);
        QCOMPARE(store->attempts(results.at(1).generationId).size(), 2);
    }

    // The store's threads yield a busy core to the engine's (engine/backgroundthread.h): their nice value,
    // read where an operator's `top -H` reads it, is backgroundNice(); this test's own thread keeps the
    // process's. The names are polled: a thread is renamed by its first statement.
    void theStoresThreadsRunBelowTheEngines()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        fill(*store, 3);
        QVERIFY(store->flush(10s));
        const auto niceOf = [](const QString &threadName) {
            QList<int> found;
            QDir tasks(QStringLiteral("/proc/self/task"));
            for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                QFile comm(tasks.filePath(tid + QStringLiteral("/comm"))), stat(tasks.filePath(tid + QStringLiteral("/stat")));
                if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != threadName.toUtf8())
                    continue;
                const QByteArray line = stat.readAll();
                found << line.mid(line.lastIndexOf(')') + 2).split(' ').value(16).toInt(); // field 19, after state (3)
            }
            return found;
        };
        const int background = backgroundNice();
        QCOMPARE_GT(background, currentThreadNice());
        QTRY_COMPARE(niceOf(QStringLiteral("bullpen-writer")), QList<int> { background });
        if (!TestStore::postgres())
            QTRY_COMPARE(niceOf(QStringLiteral("bullpen-wal")), QList<int> { background });

        // A QThread started in the background is lowered before it runs anything.
        std::atomic<int> nice = -1; // atomic: ThreadSanitizer does not see QThread::wait's ordering (Qt is not instrumented)
        std::unique_ptr<QThread> thread(QThread::create([&nice] { nice = currentThreadNice(); }));
        startInBackground(*thread);
        QVERIFY(thread->wait(10s));
        QCOMPARE(nice.load(), background);
    }

    void finalStateIsWrittenOnce()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QList<StageResult> results;
        fill(*store, 1, &results);
        StageResult again = results.first();
        again.state = FinalState::Failed;
        store->recordFinished(again, {}, {});
        QVERIFY(store->flush(10s));
        QCOMPARE(store->stats().finalStateConflicts, quint64(1));
        QCOMPARE(store->generation(again.generationId)->state, QStringLiteral("succeeded")); // the first stands
    }

    void filtersAndPaging()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        HistoryReader &history = *store; // what the console sees
        QCOMPARE(history.oldestGenerationMs(), std::optional<qint64>());
        fill(*store, 45);
        QVERIFY(store->flush(10s));
        {
            qint64 oldest = std::numeric_limits<qint64>::max();
            for (const GenerationRow &r : store->generations(HistoryFilter {}, 100))
                oldest = std::min(oldest, r.createdAtMs);
            QCOMPARE(history.oldestGenerationMs(), std::optional<qint64>(oldest));
        }
        const auto byState = history.countBy(HistoryGroup::State, HistoryFilter {});
        QCOMPARE(byState.size(), 2);
        HistoryFilter failed;
        failed.states = { HistoryState::Failed };
        QCOMPARE(store->generations(failed, 100).size(), 15);
        HistoryFilter code;
        code.publicCode = PublicCode::AI_PROVIDER_CONFIG;
        QCOMPARE(store->generations(code, 100).size(), 15);
        HistoryFilter provider;
        provider.provider = Provider::Qwen;
        QCOMPARE(store->generations(provider, 100).size(), 15);
        // Keyset pages of 10 cover everything once, newest first.
        HistoryFilter page;
        QStringList seen;
        for (;;) {
            const QList<GenerationRow> rows = store->generations(page, 10);
            for (const GenerationRow &r : rows)
                seen << r.id;
            if (rows.size() < 10)
                break;
            page.beforeMs = rows.constLast().createdAtMs;
            page.beforeId = rows.constLast().id;
        }
        QCOMPARE(seen.size(), 45);
        QCOMPARE(QSet<QString>(seen.cbegin(), seen.cend()).size(), 45);
        const auto byCode = store->countBy(HistoryGroup::State, HistoryFilter {});
        QCOMPARE(byCode.size(), 2);
        QCOMPARE(byCode.first().second, 30);
    }

    void writeFailuresAreCountedNotThrown()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QSignalSpy failed(store.get(), &Store::writeFailed);
        {
            // Someone breaks the table underneath the writer.
            QSqlDatabase db = store->storeLocation().connect(QStringLiteral("saboteur"), StoreLocation::Access::ReadWrite, &error);
            QVERIFY2(db.isOpen(), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("DROP TABLE events")));
        }
        StoreLocation::disconnect(QStringLiteral("saboteur"));
        fill(*store, 3);
        QVERIFY(store->flush(10s));
        QVERIFY(store->stats().failed > 0);
        QVERIFY(!store->stats().lastError.isEmpty());
        QTRY_VERIFY(failed.count() > 0);
        QVERIFY2(failed.first().first().toString().contains(store->databasePath()), qPrintable(failed.first().first().toString()));
    }

    // One bad record in a batch costs that record alone: the batch is retried record by record.
    void oneBadRecordInABatch_onlyItFails()
    {
        QTemporaryDir dir;
        QString error;
        const StoreLocation location = TestStore::fresh(dir.path());
        {
            auto store = Store::open(location, &error); // creates the schema
            QVERIFY2(store, qPrintable(error));
        }
        QStringList failures;
        StoreWriter writer(location, [&failures](const QString &why) { failures << why; });
        auto event = [](const QString &gen, quint64 seq, EventBody body) {
            Event e;
            e.generationId = gen;
            e.sequence = seq;
            e.body = std::move(body);
            return e;
        };
        // Queued before the writer starts, so all five are one batch; the fourth repeats (gen_a, 1).
        writer.enqueue(
            event(QStringLiteral("gen_a"), 0,
                  GenerationStarted { QStringLiteral("relief"), Provider::Gemini, std::nullopt, 60'000ms, {}, {}, std::nullopt, {} }));
        writer.enqueue(event(QStringLiteral("gen_a"), 1, GenerationFinished { FinalState::Succeeded, {}, {}, {}, {}, false }));
        writer.enqueue(
            event(QStringLiteral("gen_b"), 0,
                  GenerationStarted { QStringLiteral("relief"), Provider::Qwen, std::nullopt, 60'000ms, {}, {}, std::nullopt, {} }));
        writer.enqueue(event(QStringLiteral("gen_a"), 1, GenerationFinished { FinalState::Failed, {}, {}, {}, {}, false }));
        writer.enqueue(event(QStringLiteral("gen_b"), 1, GenerationFinished { FinalState::Succeeded, {}, {}, {}, {}, false }));
        QVERIFY2(writer.start(&error), qPrintable(error));
        QVERIFY(writer.flush(10s));
        QCOMPARE(writer.counters().failed, quint64(1));
        QCOMPARE(writer.counters().written, quint64(4));
        QCOMPARE(failures.size(), 1);
        {
            QSqlDatabase db = location.connect(QStringLiteral("check-batch"), StoreLocation::Access::ReadOnly, &error);
            QVERIFY2(db.isOpen(), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 4);
        }
        StoreLocation::disconnect(QStringLiteral("check-batch"));
    }

    // 150 events in one batch (one transaction): all stored, each row with its own values, in the order
    // written (the store's order, which the other instances' relays follow).
    void manyEventsInOneBatch_allStoredInOrder()
    {
        QTemporaryDir dir;
        QString error;
        const StoreLocation location = TestStore::fresh(dir.path());
        {
            auto store = Store::open(location, &error);
            QVERIFY2(store, qPrintable(error));
        }
        StoreWriter writer(location, [](const QString &) {});
        constexpr int kGenerations = 50;
        for (int g = 0; g < kGenerations; ++g) {
            for (quint64 seq = 0; seq < 3; ++seq) {
                Event e;
                e.generationId = QStringLiteral("gen_%1").arg(g, 3, 10, QLatin1Char('0'));
                e.sequence = seq;
                if (seq == 0)
                    e.body =
                        GenerationStarted { QStringLiteral("relief"), Provider::Gemini, std::nullopt, 60'000ms, {}, {}, std::nullopt, {} };
                else if (seq == 1)
                    e.body = StageAdmitted { Stage::Storyboard, Provider::Gemini, 250us };
                else
                    e.body = GenerationFinished { FinalState::Succeeded, {}, {}, {}, {}, false };
                writer.enqueue(e); // queued before the writer starts: one batch
            }
        }
        QVERIFY2(writer.start(&error), qPrintable(error));
        QVERIFY(writer.flush(10s));
        QCOMPARE(writer.counters().written, quint64(kGenerations * 3));
        QCOMPARE(writer.counters().failed, quint64(0));
        {
            QSqlDatabase db = location.connect(QStringLiteral("check-many"), StoreLocation::Access::ReadOnly, &error);
            QVERIFY2(db.isOpen(), qPrintable(error));
            QSqlQuery q(db);
            // The store's order: a sequence on PostgreSQL, the row id on SQLite.
            QVERIFY(q.exec(QStringLiteral("SELECT generation_id, seq, type FROM events ORDER BY %1")
                               .arg(location.isPostgres() ? QStringLiteral("store_order") : QStringLiteral("rowid"))));
            int row = 0;
            while (q.next()) {
                QCOMPARE(q.value(0).toString(), QStringLiteral("gen_%1").arg(row / 3, 3, 10, QLatin1Char('0')));
                QCOMPARE(q.value(1).toInt(), row % 3);
                const char *const types[] = { "generation_started", "storyboard_admitted", "generation_finished" };
                QCOMPARE(q.value(2).toString(), QLatin1StringView(types[row % 3]));
                ++row;
            }
            QCOMPARE(row, kGenerations * 3);
        }
        StoreLocation::disconnect(QStringLiteral("check-many"));
    }

    // The writer keeps the hourly aggregates in the rows' own transactions, on every path that writes a
    // final state or an attempt: after generations (with fallback), a conflicting second final state, and
    // another process's generation finished by its expired lease, they equal a rebuild from the rows.
    void aggregatesKeptByTheWriterEqualARebuild()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QList<StageResult> results;
        fill(*store, 40, &results);
        StageResult again = results.first();
        again.state = FinalState::Failed;
        store->recordFinished(again, {}, {}); // refused: must not be counted twice
        QVERIFY(store->flush(10s));
        const QString name = QStringLiteral("aggregates-check");
        QSqlDatabase db = store->storeLocation().connect(name, StoreLocation::Access::ReadWrite, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(
                QStringLiteral("INSERT INTO generations (id, created_at_ms, state, primary_provider, owner, instance, lease_until_ms) "
                               "VALUES ('gen_elsewhere', %1, 'running', 'gemini', 'otherhost:1:1', 'other', 1)")
                    .arg(QDateTime::currentMSecsSinceEpoch())));
        }
        store->setLease(3s); // keeps the leases at once: the other process's expired one is finished
        QTRY_COMPARE_WITH_TIMEOUT(
            store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE id = 'gen_elsewhere' AND state = 'abandoned'")), 1, 10000);
        QCOMPARE(store->scalar(QStringLiteral("SELECT SUM(n) FROM agg_generations")), 41);
        QCOMPARE(store->scalar(QStringLiteral("SELECT SUM(n) FROM agg_attempts")),
                 store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")));
        QVERIFY(store->scalar(QStringLiteral("SELECT SUM(n) FROM agg_relief")) > 0);
        QCOMPARE(store->scalar(QStringLiteral("SELECT SUM(attempts) FROM agg_spend")),
                 store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")));
        auto snapshot = [&] {
            QStringList rows;
            for (const char *sql :
                 { "SELECT hour_ms, state, public_code, kind, stage, primary_provider, final_provider, instance, fallback_applied, n "
                   "FROM agg_generations ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9",
                   "SELECT provider, role, stage, hour_ms, instance, success, bin, n FROM agg_attempts ORDER BY 1, 2, 3, 4, 5, 6, 7",
                   "SELECT stage, hour_ms, primary_provider, fallback_provider, bin, n FROM agg_relief ORDER BY 1, 2, 3, 4, 5",
                   "SELECT hour_ms, provider, stage, role, currency, cost, attempts, unknown_cost FROM agg_spend ORDER BY 1, 2, 3, 4, "
                   "5" }) {
                QSqlQuery q(db);
                if (!q.exec(QString::fromLatin1(sql)))
                    rows << q.lastError().text();
                while (q.next()) {
                    QStringList fields;
                    for (int i = 0; i < q.record().count(); ++i)
                        fields << q.value(i).toString();
                    rows << fields.join(QLatin1Char('|'));
                }
            }
            return rows;
        };
        const QStringList kept = snapshot();
        QVERIFY(db.transaction());
        QVERIFY2(AggregateDeltas::rebuild(db, &error), qPrintable(error));
        QVERIFY(db.commit());
        QCOMPARE(kept, snapshot());
        db = {};
        StoreLocation::disconnect(name);
    }

    // Schema 19 keeps each fallback attempt's primary wait on its row. Written by the writer, and filled
    // by the upgrade for rows written before it: both read as SQL computes them on its own.
    void fallbackWaitsReadAsTheRowsGiveThem_writtenAndUpgraded()
    {
        QTemporaryDir dir;
        QString error;
        const auto location = TestStore::fresh(dir.path());
        QStringList expected;
        {
            auto store = Store::open(location, &error);
            QVERIFY2(store, qPrintable(error));
            fill(*store, 60);
            QVERIFY(store->flush(10s));
            const QString name = QStringLiteral("waits-check");
            {
                QSqlDatabase db = store->storeLocation().connect(name, StoreLocation::Access::ReadWrite, &error);
                QVERIFY2(error.isEmpty(), qPrintable(error));
                expected = expectedWaits(db);
                // The writer's rows: a primary wait on every fallback attempt whose primary was tried, none elsewhere.
                QSqlQuery q(db);
                QVERIFY(
                    q.exec(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE (role = 'fallback') <> (primary_provider IS NOT NULL)")));
                QVERIFY(q.next());
                QCOMPARE(q.value(0).toLongLong(), 0);
            }
            StoreLocation::disconnect(name);
            QVERIFY(expected.size() >= 5);
            QCOMPARE(readWaits(*store), expected);
            store.reset();
        }
        // The same rows as schema 18 held them: no primary wait, no index of fallback attempts, schema 3's index.
        {
            const QString name = QStringLiteral("downgrade");
            {
                QSqlDatabase db = location.connect(name, StoreLocation::Access::ReadWrite, &error);
                QVERIFY2(error.isEmpty(), qPrintable(error));
                QSqlQuery q(db);
                for (const char *sql : { "DROP INDEX attempts_relief", "ALTER TABLE attempts DROP COLUMN primary_wait_ms",
                                         "ALTER TABLE attempts DROP COLUMN primary_provider",
                                         "CREATE INDEX attempts_role_stage_at ON attempts (role, stage, at_ms, generation_id, provider, "
                                         "duration_ms, success)",
                                         "UPDATE bullpen_schema SET version = 18" })
                    QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
            }
            StoreLocation::disconnect(name);
        }
        auto upgraded = Store::open(location, &error);
        QVERIFY2(upgraded, qPrintable(error));
        QCOMPARE(upgraded->scalar(QStringLiteral("SELECT version FROM bullpen_schema")), qint64(StoreSchema::kCurrentVersion));
        QCOMPARE(readWaits(*upgraded), expected);
    }

    // A final state for a generation whose row was never written is a failed write, not a success.
    void finishingAMissingRow_isAFailure()
    {
        QTemporaryDir dir;
        QString error;
        const StoreLocation location = TestStore::fresh(dir.path());
        {
            auto store = Store::open(location, &error);
            QVERIFY2(store, qPrintable(error));
        }
        QStringList committed;
        StoreWriter writer(location, {}, [&committed](const QStringList &ids) { committed << ids; });
        StoreWriter::Finished f;
        f.result.generationId = QStringLiteral("gen_never_started");
        f.result.state = FinalState::Succeeded;
        writer.enqueue(f);
        QVERIFY2(writer.start(&error), qPrintable(error));
        QVERIFY(writer.flush(10s));
        QCOMPARE(writer.counters().failed, quint64(1));
        QCOMPARE(writer.counters().written, quint64(0));
        QVERIFY(committed.isEmpty()); // never reported durable
    }

    // Three engines starting together on one new store: it is migrated once (docs/contract.md §12.2), and each of
    // them opens it.
    void enginesStartingTogetherMigrateOnce()
    {
        QTemporaryDir dir;
        const StoreLocation location = TestStore::fresh(dir.path());
        std::array<QString, 3> errors;
        std::array<bool, 3> opened {};
        std::vector<std::unique_ptr<QThread>> threads;
        for (int i = 0; i < 3; ++i) {
            threads.emplace_back(QThread::create([&, i] {
                auto store = Store::open(location, &errors[i]);
                opened[i] = store != nullptr;
            }));
        }
        for (auto &t : threads)
            t->start();
        for (auto &t : threads)
            QVERIFY(t->wait(60'000));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(opened[i], qPrintable(errors[i]));
        auto store = Store::open(location, &errors[0]);
        QVERIFY2(store, qPrintable(errors[0]));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM bullpen_schema")), 1);
        QCOMPARE(store->scalar(QStringLiteral("SELECT version FROM bullpen_schema")), qint64(StoreSchema::kCurrentVersion));
    }

    // PostgreSQL drops the writer's connection (a network cut) or goes away for a while (a restart):
    // the records wait in order, the store says it is unreachable and then back, and every record is
    // written once it is; none is counted as failed. Reads reconnect too.
    void lostConnectionLosesNothing_data()
    {
        QTest::addColumn<bool>("restart");
        QTest::newRow("connections dropped") << false;
        QTest::newRow("server restarted") << true;
    }

    void lostConnectionLosesNothing()
    {
        QFETCH(bool, restart);
        if (!TestStore::postgres())
            QSKIP("a connection to lose: PostgreSQL only (SQLite is a file in this process)");
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QSignalSpy reachability(store.get(), &Store::reachabilityChanged);
        fill(*store, 6);
        QVERIFY(store->flush(10s));
        QCOMPARE(store->generations(HistoryFilter {}, 100).size(), 6); // this thread's read connection exists

        if (restart) {
            QVERIFY2(TestStore::stopServer(&error), qPrintable(error));
        } else {
            QVERIFY2(TestStore::dropConnections(store->storeLocation(), &error) >= 2, qPrintable(error)); // the writer's and ours
        }
        fill(*store, 9); // written while the connection is gone: held
        if (restart) {
            QTRY_VERIFY_WITH_TIMEOUT(reachability.size() >= 1, 10'000);
            QCOMPARE(reachability.first().at(0).toBool(), false);
            QVERIFY(store->stats().unreachableSinceMs > 0);
            QVERIFY2(reachability.first().at(1).toString().contains(QLatin1StringView("held")),
                     qPrintable(reachability.first().at(1).toString()));
            QVERIFY(!store->flush(300ms)); // nothing is written, nothing is given up
            QCOMPARE(store->stats().failed, quint64(0));
            QVERIFY2(TestStore::startServer(&error), qPrintable(error));
        }
        QVERIFY(store->flush(30s));
        const Store::Stats st = store->stats();
        QCOMPARE(st.failed, quint64(0));
        QCOMPARE(st.written, st.queued);
        QCOMPARE(st.unreachableSinceMs, qint64(0));
        QTRY_VERIFY(reachability.size() >= 2);
        QCOMPARE(reachability.last().at(0).toBool(), true);
        // Every record is there once, read on a new connection.
        QCOMPARE(store->generations(HistoryFilter {}, 100, &error).size(), 15);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running'")), 0);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")), 20);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("says");
        QTest::newRow("data dir is a file") << QStringLiteral("file") << QStringLiteral("cannot create the data folder");
        QTest::newRow("corrupt database") << QStringLiteral("corrupt") << QStringLiteral("move it aside");
        QTest::newRow("newer schema") << QStringLiteral("newer") << QStringLiteral("newer Bullpen");
        QTest::newRow("foreign database") << QStringLiteral("foreign") << QStringLiteral("not a Bullpen store");
    }

    void refusals()
    {
        QFETCH(QString, setup);
        QFETCH(QString, says);
        QTemporaryDir dir;
        QString dataDir = dir.path();
        const QString db = dir.filePath(QStringLiteral("bullpen.sqlite"));
        QByteArray before;
        if (TestStore::postgres()) {
            if (setup == u"file" || setup == u"corrupt")
                QSKIP("a file of the SQLite store; the PostgreSQL server keeps its own files");
            refusedOnPostgres(setup, says);
            return;
        }
        if (setup == u"file") {
            QFile f(dir.filePath(QStringLiteral("plain")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            dataDir = dir.filePath(QStringLiteral("plain/sub"));
        } else if (setup == u"corrupt") {
            QFile f(db);
            QVERIFY(f.open(QIODevice::WriteOnly));
            before = QByteArray(8192, '\x5a');
            f.write(before);
        } else {
            {
                QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("prep"));
                d.setDatabaseName(db);
                QVERIFY(d.open());
                QSqlQuery q(d);
                if (setup == u"newer") {
                    QVERIFY(q.exec(QStringLiteral("CREATE TABLE bullpen_schema (version INTEGER NOT NULL)")));
                    QVERIFY(q.exec(QStringLiteral("INSERT INTO bullpen_schema (version) VALUES (99)")));
                    QVERIFY(q.exec(QStringLiteral("CREATE TABLE generations (id TEXT)")));
                    QVERIFY(q.exec(QStringLiteral("INSERT INTO generations VALUES ('keep-me')")));
                } else {
                    QVERIFY(q.exec(QStringLiteral("CREATE TABLE customers (id TEXT)")));
                }
                d.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("prep"));
        }
        QString error;
        QVERIFY(!Store::open(dataDir, &error));
        QVERIFY2(error.contains(says), qPrintable(error));
        if (setup != u"file")
            QVERIFY2(error.contains(db), qPrintable(error)); // names the path
        if (setup == u"corrupt") {
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before); // nothing lost: the file is untouched
        }
        if (setup == u"newer") {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            d.setDatabaseName(db);
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM generations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 1);
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("check"));
    }

private:
    // A newer or foreign schema in the database: refused, naming the store, and nothing changed.
    void refusedOnPostgres(const QString &setup, const QString &says)
    {
        QTemporaryDir dir;
        const StoreLocation location = TestStore::fresh(dir.path());
        QString error;
        const auto exec = [&](const QStringList &statements) {
            bool ok = true;
            {
                QSqlDatabase d = location.connect(QStringLiteral("prep"), StoreLocation::Access::ReadWrite, &error);
                QSqlQuery q(d);
                for (const QString &sql : statements)
                    ok = ok && q.exec(sql);
            }
            StoreLocation::disconnect(QStringLiteral("prep"));
            return ok;
        };
        if (setup == u"newer")
            QVERIFY(exec({ QStringLiteral("CREATE TABLE bullpen_schema (version INTEGER NOT NULL)"),
                           QStringLiteral("INSERT INTO bullpen_schema (version) VALUES (99)"),
                           QStringLiteral("CREATE TABLE generations (id TEXT)"),
                           QStringLiteral("INSERT INTO generations VALUES ('keep-me')") }));
        else
            QVERIFY(exec({ QStringLiteral("CREATE TABLE customers (id TEXT)") }));
        QVERIFY(!Store::open(location, &error));
        QVERIFY2(error.contains(says), qPrintable(error));
        QVERIFY2(error.contains(location.display()), qPrintable(error));
        if (setup == u"newer") {
            QSqlDatabase d = location.connect(QStringLiteral("check"), StoreLocation::Access::ReadOnly, &error);
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM generations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 1);
        }
        StoreLocation::disconnect(QStringLiteral("check"));
    }
};

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
