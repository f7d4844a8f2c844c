// SPDX-License-Identifier: MIT
// docs/contract.md §5.1: keyed hashes to group a user's records, display masks for people, a 0600 key file.
#include "contract/displaymask.h"
#include "store/masking.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

class tst_Masking : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void displayMasks_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("mask");
        QTest::newRow("handle") << QStringLiteral("haru_paul_kim") << QStringLiteral("ha****im");
        QTest::newRow("nine characters show three") << QStringLiteral("haru_paul") << QStringLiteral("ha****l");
        QTest::newRow("short address") << QStringLiteral("a@b") << QStringLiteral("a***@***");
        QTest::newRow("two characters") << QStringLiteral("ab") << QStringLiteral("****");
        QTest::newRow("control characters dropped") << QStringLiteral("\x1b]0;haru_paul_kim\x07") << QStringLiteral("]0****im");
        QTest::newRow("email") << QStringLiteral("haru@example.com") << QStringLiteral("h***@e***.com");
        QTest::newRow("korean") << QStringLiteral("하루들사용자") << QStringLiteral("하****자");
        QTest::newRow("short") << QStringLiteral("abc") << QStringLiteral("a****");
        QTest::newRow("empty") << QString() << QStringLiteral("(anonymous)");
    }
    void displayMasks()
    {
        QFETCH(QString, raw);
        QFETCH(QString, mask);
        const QString shown = DisplayMask::user(raw);
        QCOMPARE(shown, mask);
        if (raw.size() > 4)
            QVERIFY(!shown.contains(raw.mid(2, raw.size() - 4)));
        // Never more than a third of the characters ('*', '@' and '.' are the mask's shape).
        const qsizetype revealed = std::count_if(shown.cbegin(), shown.cend(), [](QChar c) { return c != u'*' && c != u'@' && c != u'.'; });
        if (!raw.isEmpty())
            QVERIFY2(revealed <= raw.size() / 3, qPrintable(shown));
        for (const QChar c : shown)
            QVERIFY(c.category() != QChar::Other_Control);
    }

    void generationIds()
    {
        QCOMPARE(DisplayMask::generationId(QStringLiteral("gen_7f3a0123456789abcdef0123456789c91e")), QStringLiteral("gen_7f3a…c91e"));
    }

    void keyedHashIsStablePerInstallation()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("masking.key"));
        QString error;
        const auto a = Masking::loadOrCreate(path, &error);
        QVERIFY2(a, qPrintable(error));
        QCOMPARE(QFileInfo(path).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        const auto again = Masking::loadOrCreate(path, &error);
        QVERIFY(again);
        QCOMPARE(again->userKey(QStringLiteral("haru@example.com")), a->userKey(QStringLiteral("haru@example.com")));
        QVERIFY(a->userKey(QStringLiteral("haru@example.com")) != a->userKey(QStringLiteral("haru@example.org")));
        QCOMPARE(a->userKey(QStringLiteral("x")).size(), 64);
        QVERIFY(!a->userKey(QStringLiteral("haru@example.com")).contains(QStringLiteral("haru")));
        QTemporaryDir other;
        const auto b = Masking::loadOrCreate(other.filePath(QStringLiteral("masking.key")), &error);
        QVERIFY(b->userKey(QStringLiteral("haru@example.com")) != a->userKey(QStringLiteral("haru@example.com")));
    }

    void refusesAWideOrDamagedKey()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("masking.key"));
        QString error;
        QVERIFY(Masking::loadOrCreate(path, &error));
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
        QVERIFY(!Masking::loadOrCreate(path, &error));
        QVERIFY2(error.contains(QStringLiteral("chmod 600")), qPrintable(error));
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("short");
        f.close();
        QVERIFY(!Masking::loadOrCreate(path, &error));
        QVERIFY2(error.contains(QStringLiteral("32 bytes")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(tst_Masking)
#include "tst_masking.moc"
