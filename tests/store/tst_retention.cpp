// SPDX-License-Identifier: MIT
// Retention (core/store/retention.h, docs/store.md "Retention"): what a purge removes and what it keeps,
// that its dry run counts exactly what it then removes, that a running generation and a comic still
// referred to survive, that the writer purges beside its own writes, and the settings that choose it.
// Runs on SQLite (tst_retention) and PostgreSQL (tst_retention_postgres).
#include "config/settings.h"
#include "devsupport/historyfiller.h"
#include "scriptedgenerator.h"
#include "store/retention.h"
#include "store/store.h"
#include "store/walcheckpointer.h"
#include "teststore.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kDay = 86'400'000;

// A connection of the test's own to `store`, closed with the object.
class Connection
{
public:
    explicit Connection(const Store &store)
        : m_name(QStringLiteral("retention-test-%1").arg(++s_count))
    {
        m_db = store.storeLocation().connect(m_name, StoreLocation::Access::ReadWrite, &m_error);
    }
    ~Connection()
    {
        m_db = {};
        StoreLocation::disconnect(m_name);
    }
    QSqlDatabase &db() { return m_db; }
    QString error() const { return m_error; }
    bool exec(const QString &sql, const QVariantList &binds = {})
    {
        QSqlQuery q(m_db);
        q.prepare(sql);
        for (const QVariant &b : binds)
            q.addBindValue(b);
        if (!q.exec()) {
            m_error = q.lastError().text();
            return false;
        }
        return true;
    }

private:
    static inline int s_count = 0;
    QString m_name;
    QString m_error;
    QSqlDatabase m_db;
};

// HistoryFiller's synthetic history in [fromMs, toMs), with `events` event rows per generation; the
// fill's error, empty on success.
QString fillHistory(const Store &store, qint64 attempts, qint64 fromMs, qint64 toMs, int events, quint32 seed = 42)
{
    HistoryFillOptions fill;
    fill.attempts = attempts;
    fill.fromMs = fromMs;
    fill.toMs = toMs;
    fill.seed = seed;
    fill.eventsPerGeneration = events;
    return HistoryFiller::fill(store.storeLocation(), fill).error;
}

QString digest(char c)
{
    return QString(64, QLatin1Char(c));
}

bool writeFile(const QString &path, qint64 modifiedMs)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write("png") != 3 || !f.flush()) // flushed: a later write would touch the time
        return false;
    return f.setFileTime(QDateTime::fromMSecsSinceEpoch(modifiedMs), QFileDevice::FileModificationTime);
}

} // namespace

class tst_Retention : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { BULLPEN_REQUIRE_TEST_STORE(); }

    void parsesPeriods_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("hours"); // -1: off; -2: refused
        QTest::newRow("days") << "30d" << qint64(720);
        QTest::newRow("hours") << "12h" << qint64(12);
        QTest::newRow("weeks") << "2w" << qint64(336);
        QTest::newRow("spaces and case") << " 400D " << qint64(9600);
        QTest::newRow("off") << "off" << qint64(-1);
        QTest::newRow("no unit") << "30" << qint64(-2);
        QTest::newRow("minutes") << "30m" << qint64(-2);
        QTest::newRow("shorter than an hour") << "0.5h" << qint64(-2);
        QTest::newRow("zero") << "0d" << qint64(-2);
        QTest::newRow("too long") << "9000w" << qint64(-2);
    }
    void parsesPeriods()
    {
        QFETCH(QString, text);
        QFETCH(qint64, hours);
        bool off = false;
        QString why;
        const auto period = parseRetention(text, &off, &why);
        if (hours == -2) {
            QVERIFY(!period && !off);
            QVERIFY2(why.contains(text.trimmed()), qPrintable(why));
        } else if (hours == -1) {
            QVERIFY(off && !period);
        } else {
            QVERIFY2(period, qPrintable(why));
            QCOMPARE(period->count(), hours * 3'600'000);
            bool again = false;
            QCOMPARE(parseRetention(formatRetention(period), &again, &why), period);
        }
    }

    void settingsChooseRetention()
    {
        auto load = [](std::initializer_list<std::pair<const char *, const char *>> vars) {
            QProcessEnvironment env;
            for (const auto &[k, v] : vars)
                env.insert(QLatin1StringView(k), QLatin1StringView(v));
            return SettingsLoader::load({}, {}, env, false);
        };
        const SettingsLoad defaults = load({});
        QVERIFY(defaults.ok());
        QCOMPARE(defaults.settings.retention.generations, std::optional<std::chrono::milliseconds>(24h * 30));
        QCOMPARE(defaults.settings.retention.aggregates, std::optional<std::chrono::milliseconds>(24h * 400));

        const SettingsLoad off = load({ { "BULLPEN_RETENTION", "off" } });
        QVERIFY(off.ok());
        QVERIFY(off.settings.retention.isOff()); // rows for ever: their aggregates too

        const SettingsLoad shorter = load({ { "BULLPEN_RETENTION", "30d" }, { "BULLPEN_AGGREGATE_RETENTION", "7d" } });
        QVERIFY(!shorter.ok());
        QVERIFY2(shorter.errors.first().toString().contains(u"BULLPEN_AGGREGATE_RETENTION"), qPrintable(shorter.errors.first().toString()));

        const SettingsLoad typo = load({ { "BULLPEN_RETENTION", "30 days" } });
        QVERIFY(!typo.ok());
        QVERIFY(typo.errors.first().toString().contains(u"30 days"));
    }

    // Everything older than the cutoff and finished goes, with its attempts and events; a running one,
    // newer rows and comics still referred to stay; the dry run counted exactly that.
    void purgeRemovesWhatIsOlderAndFinished()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QString filled = fillHistory(*store, 3000, now - 40 * kDay, now, 3, 9);
        QVERIFY2(filled.isEmpty(), qPrintable(filled));

        Connection c(*store);
        QVERIFY2(c.error().isEmpty(), qPrintable(c.error()));
        const QString imagesDir = QDir(dir.path()).filePath(QStringLiteral("images"));
        const QString oldUnreferenced = QStringLiteral("%1/aa/%2.png").arg(imagesDir, digest('a'));
        const QString oldReferenced = QStringLiteral("%1/bb/%2.png").arg(imagesDir, digest('b'));
        const QString newUnreferenced = QStringLiteral("%1/cc/%2.png").arg(imagesDir, digest('c'));
        const QString onlyOldRefers = QStringLiteral("%1/dd/%2.png").arg(imagesDir, digest('d'));
        QVERIFY(writeFile(oldUnreferenced, now - 35 * kDay) && writeFile(oldReferenced, now - 35 * kDay)
                && writeFile(newUnreferenced, now - kDay) && writeFile(onlyOldRefers, now - 35 * kDay));
        const QString insert = QStringLiteral(
            "INSERT INTO generations (id, created_at_ms, state, primary_provider, owner, instance, lease_until_ms, image_sha256) "
            "VALUES (?, ?, ?, 'gemini', 'test', 'test', ?, ?)");
        QVERIFY2(
            c.exec(insert, { QStringLiteral("gen_old_running"), now - 35 * kDay, QStringLiteral("running"), now + 60'000, QVariant() }),
            qPrintable(c.error()));
        QVERIFY(c.exec(insert, { QStringLiteral("gen_new_with_b"), now - kDay, QStringLiteral("succeeded"), 0, digest('b') }));
        QVERIFY(c.exec(insert, { QStringLiteral("gen_old_with_d"), now - 35 * kDay, QStringLiteral("succeeded"), 0, digest('d') }));
        const QString image = QStringLiteral("INSERT INTO images (sha256, mime, bytes, created_at_ms) VALUES (?, 'image/png', ?, ?)");
        QVERIFY2(c.exec(image, { digest('a'), QByteArray("png"), now - 35 * kDay }), qPrintable(c.error()));
        QVERIFY(c.exec(image, { digest('b'), QByteArray("png"), now - 35 * kDay }));
        QVERIFY(c.exec(image, { digest('c'), QByteArray("png"), now - kDay }));
        QVERIFY(c.exec(image, { digest('d'), QByteArray("png"), now - 35 * kDay }));
        const QString comparison = QStringLiteral("INSERT INTO comparisons (id, created_at_ms, primary_provider, fallback_provider, body) "
                                                  "VALUES (?, ?, 'gemini', 'qwen', '{}')");
        QVERIFY(c.exec(comparison, { QStringLiteral("cmp_old"), now - 35 * kDay }));
        QVERIFY(c.exec(comparison, { QStringLiteral("cmp_new"), now - kDay }));
        QVERIFY(
            c.exec(QStringLiteral("INSERT INTO audit (at_ms, token_name, action) VALUES (?, 'ops', 'generate')"), { now - 500 * kDay }));

        const qint64 cutoff = now - 30 * kDay;
        auto scalar = [&](const QString &sql) {
            return store->scalar(sql.arg(cutoff));
        };
        const qint64 oldGenerations =
            scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE created_at_ms < %1 AND state <> 'running'"));
        const qint64 oldAttempts = scalar(QStringLiteral("SELECT COUNT(*) FROM attempts a JOIN generations g ON g.id = a.generation_id "
                                                         "WHERE g.created_at_ms < %1 AND g.state <> 'running'"));
        const qint64 keptGenerations =
            scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE created_at_ms >= %1 OR state = 'running'"));
        const qint64 keptAttempts = store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")) - oldAttempts;
        const qint64 keptEvents = scalar(
            QStringLiteral("SELECT COUNT(*) FROM events e JOIN generations g ON g.id = e.generation_id WHERE g.created_at_ms >= %1"));
        const qint64 aggregatesBefore = store->scalar(QStringLiteral("SELECT SUM(n) FROM agg_generations"));
        QVERIFY2(oldGenerations > 100 && keptGenerations > 500 && oldAttempts > 0,
                 qPrintable(QStringLiteral("%1 old, %2 kept").arg(oldGenerations).arg(keptGenerations)));

        RetentionPolicy policy; // 30 d, aggregates 400 d
        PurgeCounts planned;
        {
            Purger dry(c.db(), policy, now, imagesDir);
            QVERIFY2(dry.countOnly(&planned, &error), qPrintable(error));
        }
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), keptGenerations + oldGenerations); // nothing removed
        Purger purger(c.db(), policy, now, imagesDir);
        QVERIFY2(purger.runToEnd(&error), qPrintable(error));
        const PurgeCounts removed = purger.counts();
        QVERIFY2(purger.steps() > 3, "in steps, not one transaction");

        QCOMPARE(removed.generations, oldGenerations);
        QCOMPARE(removed.attempts, oldAttempts);
        QCOMPARE(removed.events, (oldGenerations - 1) * 3); // gen_old_with_d has none
        QCOMPARE(removed.comparisons, 1);
        QCOMPARE(removed.images, 2); // a and d: b is referred to by a newer generation, c is new
        QCOMPARE(removed.imageFiles, 2); // likewise
        QCOMPARE(removed.aggregateRows, 0);
        QCOMPARE(removed.auditRows, 1); // 500 days old
        QCOMPARE(planned.generations, removed.generations);
        QCOMPARE(planned.attempts, removed.attempts);
        QCOMPARE(planned.events, removed.events);
        QCOMPARE(planned.comparisons, removed.comparisons);
        QCOMPARE(planned.images, removed.images);
        QCOMPARE(planned.imageFiles, removed.imageFiles);
        QCOMPARE(planned.auditRows, removed.auditRows);

        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), keptGenerations);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE id = 'gen_old_running'")), 1);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts")), keptAttempts);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM events")), keptEvents);
        QCOMPARE(store->scalar(QStringLiteral(
                     "SELECT COUNT(*) FROM attempts a WHERE NOT EXISTS (SELECT 1 FROM generations g WHERE g.id = a.generation_id)")),
                 0);
        QVERIFY(!QFile::exists(oldUnreferenced) && !QFile::exists(onlyOldRefers));
        QVERIFY(QFile::exists(oldReferenced) && QFile::exists(newUnreferenced));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM images")), 2);
        QCOMPARE(store->scalar(QStringLiteral("SELECT SUM(n) FROM agg_generations")), aggregatesBefore); // the dashboards keep the year

        // A second pass finds nothing.
        Purger again(c.db(), policy, now, imagesDir);
        QVERIFY2(again.runToEnd(&error), qPrintable(error));
        QCOMPARE(again.counts().total(), 0);

        // Aggregates go by their own retention, an hour at a time.
        policy.aggregates = std::chrono::milliseconds(35 * kDay);
        const qint64 oldAggregateRows =
            store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_attempts WHERE hour_ms < %1").arg(now - 35 * kDay))
            + store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_generations WHERE hour_ms < %1").arg(now - 35 * kDay))
            + store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_relief WHERE hour_ms < %1").arg(now - 35 * kDay));
        QVERIFY(oldAggregateRows > 0);
        Purger aggregates(c.db(), policy, now, imagesDir);
        QVERIFY2(aggregates.runToEnd(&error), qPrintable(error));
        QCOMPARE(aggregates.counts().aggregateRows, oldAggregateRows);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_attempts WHERE hour_ms < %1").arg(now - 35 * kDay)), 0);
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM agg_attempts")) > 0);
    }

    // The engine's writer purges between its batches: old rows go while new ones keep arriving, and
    // nothing new is lost.
    void writerPurgesBesideItsWrites()
    {
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(fillHistory(*store, 2000, now - 60 * kDay, now - 31 * kDay, 2).isEmpty());
        const qint64 old = store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations"));
        QVERIFY(old > 500);

        RetentionPolicy policy;
        policy.interval = 200ms;
        store->setRetention(policy, QDir(dir.path()).filePath(QStringLiteral("images")));
        int finished = 0;
        runMixedGenerations(
            60, [&](const Event &e) { store->recordEvent(e); },
            [&](const StageResult &r) {
                store->recordFinished(r, QStringLiteral("key"), QStringLiteral("ke****ey"));
                ++finished;
            });
        QVERIFY(store->flush(10s));
        QTRY_VERIFY_WITH_TIMEOUT(store->retentionStats().lastPassDoneMs > 0, 20000);
        QCOMPARE(store->retentionStats().purged.generations, old);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), qint64(finished));
        QCOMPARE(store->stats().failed, quint64(0));
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM events")) > 0);
    }

    // A new SQLite store gives purged pages back: incremental vacuum from its creation.
    void newSqliteStoreShrinks()
    {
        if (TestStore::postgres())
            QSKIP("PostgreSQL's autovacuum follows the deletes on its own");
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        QCOMPARE(store->scalar(QStringLiteral("PRAGMA auto_vacuum")), 2);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(fillHistory(*store, 20'000, now - 50 * kDay, now - 40 * kDay, 4).isEmpty());
        const qint64 pagesBefore = store->scalar(QStringLiteral("PRAGMA page_count"));
        Connection c(*store);
        Purger purger(c.db(), RetentionPolicy {}, now);
        QVERIFY2(purger.runToEnd(&error), qPrintable(error));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")), 0);
        QCOMPARE(store->scalar(QStringLiteral("PRAGMA freelist_count")), 0);
        const qint64 pagesAfter = store->scalar(QStringLiteral("PRAGMA page_count"));
        QVERIFY2(pagesAfter * 4 < pagesBefore, qPrintable(QStringLiteral("%1 pages before, %2 after").arg(pagesBefore).arg(pagesAfter)));
    }

    // SQLite: a writer's commits leave the WAL's checkpoints to the checkpointer's thread, so that no
    // write pays for copying a purge's pages (walcheckpointer.h). A commit that leaves the WAL at the
    // threshold wakes it, and it copies every frame back.
    void writersLeaveCheckpointsToTheirThread()
    {
        if (TestStore::postgres())
            QSKIP("PostgreSQL has no WAL checkpoints to hand over");
        QTemporaryDir dir;
        QString error;
        auto store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        store->flush();
        WalCheckpointer checkpointer(store->storeLocation());
        Connection writer(*store); // closed before the checkpointer goes
        QVERIFY(checkpointer.takeOver(writer.db()));
        // Over the threshold in one commit: 1,500 events of 4 KiB each, one page or more apiece.
        QSqlQuery q(writer.db());
        QVERIFY(writer.db().transaction());
        QVERIFY(
            q.prepare(QStringLiteral("INSERT INTO events (generation_id, seq, type, at_ms, body) VALUES ('gen_ckpt', ?, 'Probe', 0, ?)")));
        const QString body(4096, QLatin1Char('x'));
        for (int i = 0; i < 1500; ++i) {
            q.addBindValue(i);
            q.addBindValue(body);
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        }
        QVERIFY(writer.db().commit());
        // Only the commit's hook wakes the thread.
        QTRY_VERIFY_WITH_TIMEOUT(checkpointer.checkpoints() >= 1, 5000);
        // Everything in the WAL is in the file now: a further passive checkpoint finds nothing left.
        QSqlQuery check(writer.db());
        QVERIFY(check.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")) && check.next());
        QCOMPARE(check.value(0).toInt(), 0); // not busy
        QCOMPARE(check.value(1).toInt(), check.value(2).toInt()); // every frame checkpointed
        QVERIFY(check.value(1).toInt() >= WalCheckpointer::kWakeFrames);
        check.finish();
        q.finish();
    }
};

QTEST_GUILESS_MAIN(tst_Retention)
#include "tst_retention.moc"
