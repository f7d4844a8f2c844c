// SPDX-License-Identifier: MIT
// Alert silences kept in the store (docs/api.md, "Alerts"; core/store/silencerecords.h): two engines'
// boards on one store (real SQLite, and real PostgreSQL in the _postgres twin) see the same silences,
// a restarted engine keeps them, ending one early on either ends it for both, and each ends on its own
// at `until`, judged on the steady clock whatever the wall clock does. Time is given, never slept.
#include "engine/alertboard.h"
#include "store/silencerecords.h"
#include "store/store.h"
#include "teststore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

const QString kRule = QStringLiteral("BullpenProviderFailingNow");

// One engine's side: its board and its connection to the shared store, as EngineSetup holds them.
struct EngineSide
{
    std::unique_ptr<SilenceRecords> records;
    AlertBoard board;

    // EngineSetup::syncSilences: the ones that ran out here are marked so, then the store's are adopted.
    void sync(Clock::time_point now, const QDateTime &wallNow)
    {
        QString why;
        for (const Silence &s : board.takeEnded(now))
            QVERIFY2(records->expire(s.id, &why), qPrintable(why));
        const std::vector<Silence> stored = records->load(&why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        board.adoptSilences(stored, now, wallNow);
    }
    QStringList lasting(Clock::time_point now) const
    {
        QStringList out;
        for (const Silence &s : board.silences(now))
            out << s.rule + QLatin1Char('/') + s.by;
        return out;
    }
};

} // namespace

class tst_SilenceRecords : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    StoreLocation m_location;
    std::unique_ptr<Store> m_store; // made and migrated the store; kept open as an engine keeps it
    const QDateTime m_wall0 = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
    const Clock::time_point m_t0 = Clock::time_point(10h); // engine A's steady clock at m_wall0

    EngineSide engine()
    {
        EngineSide side;
        QString why;
        side.records = SilenceRecords::open(m_location, &why);
        if (!side.records)
            qWarning("%s", qPrintable(why));
        return side;
    }

    // A's silence of kRule for an hour, made at m_t0 / m_wall0 and kept in the store.
    Silence silenceOnA(EngineSide &a)
    {
        QString why;
        const std::optional<Silence> s =
            AlertBoard::makeSilence(kRule, QStringLiteral("ops"), QStringLiteral("known outage, ticket 12"), 1h, m_t0, m_wall0, &why);
        if (!s || !a.records->save(*s, QStringLiteral("engine-a"), &why))
            qWarning("%s", qPrintable(why));
        a.board.addSilence(*s);
        return *s;
    }

    // The stored row of `id`: "open|ended_by|ended_at_ms" (empty fields for NULL).
    QString row(const QString &id)
    {
        QString text;
        {
            QString why;
            QSqlDatabase db = m_location.connect(QStringLiteral("tst-silences-row"), StoreLocation::Access::ReadWrite, &why);
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT is_open, ended_by, ended_at_ms FROM alert_silences WHERE id = ?"));
            q.addBindValue(id);
            const auto field = [&](int i) {
                return q.value(i).isNull() ? QString() : q.value(i).toString();
            }; // NULL: empty
            if (q.exec() && q.next())
                text = field(0) + QLatin1Char('|') + field(1) + QLatin1Char('|') + field(2);
        }
        StoreLocation::disconnect(QStringLiteral("tst-silences-row"));
        return text;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BULLPEN_REQUIRE_TEST_STORE();
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        static int n = 0;
        m_store.reset();
        m_location = TestStore::fresh(m_dir.filePath(QStringLiteral("store-%1").arg(++n)));
        QString why;
        m_store = Store::open(m_location, &why);
        QVERIFY2(m_store, qPrintable(why));
    }

    void cleanup() { m_store.reset(); }

    // A silence made through engine A is seen by engine B (same id, who, why, until) and by A after a
    // restart (a new board and connection), still ending at the same time.
    void silenceIsSharedAndOutlivesARestart()
    {
        EngineSide a = engine(), b = engine();
        QVERIFY(a.records && b.records);
        const Silence made = silenceOnA(a);
        const Clock::time_point bNow = Clock::time_point(500h); // another process: another steady clock
        b.sync(bNow, m_wall0.addSecs(5));
        QCOMPARE(b.lasting(bNow), QStringList { kRule + QStringLiteral("/ops") });
        const Silence seen = b.board.silences(bNow).front();
        QCOMPARE(seen.id, made.id);
        QCOMPARE(seen.reason, made.reason);
        QCOMPARE(seen.since, made.since);
        QCOMPARE(seen.until, made.until);
        QCOMPARE(seen.ends, bNow + 1h - 5s); // the wall-clock time it had left when B first saw it

        a = engine(); // A restarts: nothing but the store is left of it
        const Clock::time_point restarted = Clock::time_point(3h); // its steady clock restarted too
        a.sync(restarted, m_wall0.addSecs(20 * 60));
        QCOMPARE(a.lasting(restarted), QStringList { kRule + QStringLiteral("/ops") });
        QCOMPARE(a.board.silences(restarted).front().ends, restarted + 40min);
    }

    // Ended early through B: A no longer holds it after its next read, and the row says who and when.
    void endingItOnOneEngineEndsItOnEvery()
    {
        EngineSide a = engine(), b = engine();
        QVERIFY(a.records && b.records);
        const Silence made = silenceOnA(a);
        b.sync(m_t0, m_wall0);
        QString why;
        const QDateTime endedAt = m_wall0.addSecs(600);
        QVERIFY(b.records->end(made.id, QStringLiteral("night-ops"), endedAt, &why));
        QVERIFY(b.board.endSilence(kRule, m_t0 + 10min));
        QVERIFY2(!b.records->end(made.id, QStringLiteral("again"), endedAt, &why), "ended twice");
        QVERIFY(why.isEmpty());

        QCOMPARE(a.lasting(m_t0 + 11min), QStringList { kRule + QStringLiteral("/ops") }); // until A reads the store
        a.sync(m_t0 + 11min, m_wall0.addSecs(660));
        QCOMPARE(a.lasting(m_t0 + 11min), QStringList());
        QCOMPARE(row(made.id), QStringLiteral("0|night-ops|%1").arg(endedAt.toMSecsSinceEpoch()));
    }

    // It ends on its own at `until` on every engine, and the row then names no one. A new silence of
    // the same rule replaces the open one.
    void itEndsOnItsOwnAtUntil()
    {
        EngineSide a = engine(), b = engine();
        QVERIFY(a.records && b.records);
        const Silence made = silenceOnA(a);
        b.sync(m_t0, m_wall0);
        a.sync(m_t0 + 1h - 1s, m_wall0.addSecs(3599));
        b.sync(m_t0 + 1h - 1s, m_wall0.addSecs(3599));
        QCOMPARE(a.lasting(m_t0 + 1h - 1s).size(), 1);
        QCOMPARE(b.lasting(m_t0 + 1h - 1s).size(), 1);
        a.sync(m_t0 + 1h, m_wall0.addSecs(3600));
        QCOMPARE(a.lasting(m_t0 + 1h), QStringList());
        QCOMPARE(row(made.id), QStringLiteral("0||"));
        b.sync(m_t0 + 1h, m_wall0.addSecs(3600));
        QCOMPARE(b.lasting(m_t0 + 1h), QStringList());

        const Silence first = silenceOnA(a);
        const Silence second = silenceOnA(a);
        QCOMPARE(row(first.id), QStringLiteral("0|ops|%1").arg(m_wall0.toMSecsSinceEpoch()));
        QCOMPARE(row(second.id), QStringLiteral("1||"));
    }

    // The wall clock steps (NTP, a VM resumed): a silence an engine holds keeps its steady end, one an
    // engine first sees after a step back never lasts longer than its whole length.
    void aWallClockStepMovesNoEnd()
    {
        EngineSide a = engine(), b = engine();
        QVERIFY(a.records && b.records);
        silenceOnA(a);
        a.sync(m_t0 + 10min, m_wall0.addSecs(10 * 60 + 2 * 3600)); // two hours ahead: it would be over
        QCOMPARE(a.lasting(m_t0 + 10min).size(), 1);
        a.sync(m_t0 + 30min, m_wall0.addSecs(30 * 60 - 3 * 3600)); // three hours behind: it would last longer
        QCOMPARE(a.board.silences(m_t0 + 30min).front().ends, m_t0 + 1h);

        const Clock::time_point bNow = Clock::time_point(7h);
        b.sync(bNow, m_wall0.addSecs(-5 * 3600)); // B's wall clock five hours behind when it first sees it
        QCOMPARE(b.board.silences(bNow).front().ends, bNow + 1h);
    }

    // A lost connection (a network cut, a restarted server) fails one call, which says why, and is made
    // again for the next, with its LISTEN: another engine's silence is announced again.
    void aLostConnectionIsMadeAgain()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only: a connection to lose (tst_silencerecords_postgres runs this)");
        EngineSide a = engine(), b = engine();
        QVERIFY(a.records && b.records);
        int announced = 0;
        QVERIFY(a.records->listen([&] { ++announced; }));
        QString why;
        QVERIFY2(TestStore::dropConnections(m_location, &why) >= 2, qPrintable(why)); // a's, b's (and the store's)
        QVERIFY(a.records->load(&why).empty());
        QVERIFY2(!why.isEmpty(), "a lost connection read nothing and said nothing");
        why.clear();
        a.records->load(&why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const std::optional<Silence> s =
            AlertBoard::makeSilence(kRule, QStringLiteral("ops"), QStringLiteral("after the cut"), 15min, m_t0, m_wall0, &why);
        QVERIFY(s);
        if (!b.records->save(*s, QStringLiteral("engine-b"), &why)) // b's connection was cut too: its first call fails
            QVERIFY2(b.records->save(*s, QStringLiteral("engine-b"), &why), qPrintable(why));
        QTRY_VERIFY_WITH_TIMEOUT(announced > 0, 5000);
        QCOMPARE(a.records->load(&why).size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(tst_SilenceRecords)
#include "tst_silencerecords.moc"
