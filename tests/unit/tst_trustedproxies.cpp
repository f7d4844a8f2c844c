// SPDX-License-Identifier: MIT
// docs/operations.md, "Behind a load balancer": X-Forwarded-For is believed only from the balancers
// trusted_proxies names; the client is the first address, from the header's end, that is not one of them.
#include "config/trustedproxies.h"

#include <QTest>

using namespace bullpen;

class tst_TrustedProxies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void client_data()
    {
        QTest::addColumn<QString>("trusted");
        QTest::addColumn<QString>("peer");
        QTest::addColumn<QList<QByteArray>>("forwardedFor");
        QTest::addColumn<QString>("client");
        using L = QList<QByteArray>;
        QTest::addRow("no proxy trusted: the peer")
            << QString() << QStringLiteral("127.0.0.1") << L { "203.0.113.7" } << QStringLiteral("127.0.0.1");
        QTest::addRow("an untrusted peer's header is ignored")
            << QStringLiteral("10.0.0.0/8") << QStringLiteral("192.0.2.1") << L { "203.0.113.7" } << QStringLiteral("192.0.2.1");
        QTest::addRow("through the balancer") << QStringLiteral("10.0.0.0/8") << QStringLiteral("10.0.0.5") << L { "203.0.113.7" }
                                              << QStringLiteral("203.0.113.7");
        QTest::addRow("a client's own header before the balancer's entry is not believed")
            << QStringLiteral("10.0.0.5") << QStringLiteral("10.0.0.5") << L { "198.51.100.1, 203.0.113.7" }
            << QStringLiteral("203.0.113.7");
        QTest::addRow("two trusted hops") << QStringLiteral("10.0.0.0/8, 127.0.0.1") << QStringLiteral("127.0.0.1")
                                          << L { "203.0.113.7", "10.1.2.3" } << QStringLiteral("203.0.113.7");
        QTest::addRow("no header: the balancer itself")
            << QStringLiteral("127.0.0.1") << QStringLiteral("127.0.0.1") << L {} << QStringLiteral("127.0.0.1");
        QTest::addRow("garbage ends the walk at the hop before")
            << QStringLiteral("127.0.0.1") << QStringLiteral("127.0.0.1") << L { "evil, 10.9.9.9" } << QStringLiteral("10.9.9.9");
        QTest::addRow("garbage right after the balancer")
            << QStringLiteral("127.0.0.1") << QStringLiteral("127.0.0.1") << L { "not-an-address" } << QStringLiteral("127.0.0.1");
        QTest::addRow("IPv6 client") << QStringLiteral("127.0.0.1") << QStringLiteral("127.0.0.1") << L { "2001:db8::7" }
                                     << QStringLiteral("2001:db8::7");
        QTest::addRow("IPv4-mapped peer") << QStringLiteral("127.0.0.1") << QStringLiteral("::ffff:127.0.0.1") << L { "203.0.113.7" }
                                          << QStringLiteral("203.0.113.7");
    }

    void client()
    {
        QFETCH(QString, trusted);
        QFETCH(QString, peer);
        QFETCH(QList<QByteArray>, forwardedFor);
        QFETCH(QString, client);
        const std::optional<TrustedProxies> proxies = TrustedProxies::parse(trusted);
        QVERIFY(proxies);
        QCOMPARE(proxies->client(QHostAddress(peer), forwardedFor), QHostAddress(client));
    }

    void refusesWhatIsNotAnAddress()
    {
        QString why;
        QVERIFY(!TrustedProxies::parse(QStringLiteral("10.0.0.0/8, balancer.local"), &why));
        QVERIFY2(why.contains(QStringLiteral("\"balancer.local\" is not an address or a subnet")), qPrintable(why));
        QVERIFY(!TrustedProxies::parse(QStringLiteral("10.0.0.0/33"), &why));
        QVERIFY(TrustedProxies::parse(QStringLiteral("none"))->isEmpty());
        QVERIFY(TrustedProxies::parse(QStringLiteral(" ::1 , 127.0.0.0/8 ")));
    }
};

QTEST_GUILESS_MAIN(tst_TrustedProxies)
#include "tst_trustedproxies.moc"
