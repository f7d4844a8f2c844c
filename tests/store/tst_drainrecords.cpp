// SPDX-License-Identifier: MIT
// Drains kept in the store (docs/api.md, "Providers"; core/store/drainrecords.h): two engines'
// connections to one store (real SQLite, and real PostgreSQL in the _postgres twin) see the same drains,
// an expired one is gone at the next read, a scoped restore leaves a drain of every role, and a lost
// connection fails one call, says why, and is made again (with its LISTEN) for the next.
#include "store/drainrecords.h"
#include "store/store.h"
#include "teststore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;

class tst_DrainRecords : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    StoreLocation m_location;
    std::unique_ptr<Store> m_store; // made and migrated the store; kept open as an engine keeps it
    const QDateTime m_now = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);

    std::unique_ptr<DrainRecords> engine()
    {
        QString why;
        auto records = DrainRecords::open(m_location, &why);
        if (!records)
            qWarning("%s", qPrintable(why));
        return records;
    }

    Drain drain(Provider provider, std::optional<Role> role, std::optional<QDateTime> until = std::nullopt) const
    {
        Drain d;
        d.provider = provider;
        d.role = role;
        d.reason = QStringLiteral("known outage, ticket 12");
        d.by = QStringLiteral("ops");
        d.since = m_now.addSecs(-60);
        d.until = until;
        return d;
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

    // A drain saved through A is read by B as it was saved; one past its `until` is gone at the next
    // read; a restore of the primary role leaves the drain of every role.
    void savedDrainsAreEveryEnginesUntilTheyEnd()
    {
        const auto a = engine(), b = engine();
        QVERIFY(a && b);
        QString why;
        const Drain everyRole = drain(Provider::Gemini, std::nullopt);
        const Drain expiring = drain(Provider::OpenAI, Role::Fallback, m_now.addSecs(600));
        QVERIFY2(a->save(everyRole, QStringLiteral("engine-a"), &why), qPrintable(why));
        QVERIFY2(a->save(expiring, QStringLiteral("engine-a"), &why), qPrintable(why));
        std::vector<Drain> seen = b->load(m_now, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(seen.size(), size_t(2));
        QVERIFY(std::find(seen.begin(), seen.end(), everyRole) != seen.end());
        QVERIFY(std::find(seen.begin(), seen.end(), expiring) != seen.end());

        QCOMPARE(b->load(m_now.addSecs(600), &why).size(), size_t(1)); // at `until` it is over
        QCOMPARE(a->remove(Provider::Gemini, DrainScope { Role::Primary, std::nullopt }, &why), 0);
        QCOMPARE(a->load(m_now, &why).size(), size_t(1));
        QCOMPARE(a->remove(Provider::Gemini, DrainScope {}, &why), 1);
        QVERIFY(a->load(m_now, &why).empty());
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A lost connection (a network cut, a restarted server) fails one call, which says why, and is made
    // again for the next, with its LISTEN: another engine's drain is announced again. Before, the drains'
    // connection stayed dead: an engine obeyed the drains it had and never saw another, and refused every
    // drain an operator asked of it.
    void aLostConnectionIsMadeAgain()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only: a connection to lose (tst_drainrecords_postgres runs this)");
        const auto a = engine(), b = engine();
        QVERIFY(a && b);
        int announced = 0;
        QVERIFY(a->listen([&] { ++announced; }));
        QString why;
        QVERIFY2(TestStore::dropConnections(m_location, &why) >= 2, qPrintable(why)); // a's, b's (and the store's)
        QVERIFY(a->load(m_now, &why).empty());
        QVERIFY2(!why.isEmpty(), "a lost connection read nothing and said nothing");
        why.clear();
        a->load(m_now, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const Drain d = drain(Provider::Gemini, Role::Primary);
        if (!b->save(d, QStringLiteral("engine-b"), &why)) // b's connection was cut too: its first call fails
            QVERIFY2(b->save(d, QStringLiteral("engine-b"), &why), qPrintable(why));
        QTRY_VERIFY_WITH_TIMEOUT(announced > 0, 5000);
        why.clear();
        QCOMPARE(a->load(m_now, &why).size(), size_t(1));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(tst_DrainRecords)
#include "tst_drainrecords.moc"
