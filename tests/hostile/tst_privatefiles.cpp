// SPDX-License-Identifier: MIT
// Hostile neighbours (a second local user): secret files are 0600 from the open(2) that creates them,
// the data folder is 0700, store files are owner-only, and a folder or file another user could have
// planted is refused with the command that fixes it.
#include "store/masking.h"
#include "store/privatefiles.h"
#include "store/store.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace bullpen;

namespace {
mode_t modeOf(const QString &path)
{
    struct stat st
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & 07777) : 0;
}
} // namespace

class tst_PrivateFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { ::umask(022); } // the usual umask, under which 0666 means world-readable

    // A watcher stats the key path in a tight loop while keys are created: it must never see a mode
    // that lets others read (a create-then-chmod would show 0644 for a moment).
    void maskingKeyIsNeverReadableByOthers()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("masking.key"));
        std::atomic<bool> stop { false };
        std::atomic<int> exposed { 0 }, seen { 0 };
        std::thread watcher([&] {
            const QByteArray native = QFile::encodeName(path);
            while (!stop) {
                struct stat st
                {
                };
                if (::stat(native.constData(), &st) == 0) {
                    ++seen;
                    if (st.st_mode & 077)
                        ++exposed;
                }
            }
        });
        for (int i = 0; i < 300; ++i) {
            QString error;
            QVERIFY2(Masking::loadOrCreate(path, &error), qPrintable(error));
            QFile::remove(path);
        }
        stop = true;
        watcher.join();
        qInfo("watcher saw the key %d times, readable by others %d times", seen.load(), exposed.load());
        QCOMPARE(exposed.load(), 0);
    }

    void dataFolderAndStoreAreOwnerOnly()
    {
        QTemporaryDir root;
        const QString dataDir = root.filePath(QStringLiteral("data"));
        QString error;
        auto store = Store::open(dataDir, &error);
        QVERIFY2(store, qPrintable(error));
        QCOMPARE(modeOf(dataDir), mode_t(0700));
        QCOMPARE(modeOf(QDir(dataDir).filePath(QStringLiteral("bullpen.sqlite"))), mode_t(0600));
        const QString wal = QDir(dataDir).filePath(QStringLiteral("bullpen.sqlite-wal"));
        if (QFile::exists(wal))
            QCOMPARE(modeOf(wal), mode_t(0600));
        QVERIFY(PrivateFiles::replace(QDir(dataDir).filePath(QStringLiteral("x.png")), "png", &error));
        QCOMPARE(modeOf(QDir(dataDir).filePath(QStringLiteral("x.png"))), mode_t(0600));
    }

    void plantedThingsAreRefused_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("says");
        QTest::newRow("data folder writable by others") << QStringLiteral("open-dir") << QStringLiteral("chmod 700");
        QTest::newRow("masking key is a symlink") << QStringLiteral("key-symlink") << QStringLiteral("rm ");
        QTest::newRow("masking key readable by others") << QStringLiteral("key-0644") << QStringLiteral("chmod 600");
        QTest::newRow("store file is a symlink") << QStringLiteral("db-symlink") << QStringLiteral("symlink");
    }

    void plantedThingsAreRefused()
    {
        QFETCH(QString, setup);
        QFETCH(QString, says);
        QTemporaryDir root;
        const QString dataDir = root.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(dataDir));
        QFile::setPermissions(dataDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const QString key = QDir(dataDir).filePath(QStringLiteral("masking.key"));
        const QString target = root.filePath(QStringLiteral("elsewhere"));
        QString error;
        bool refused = false;
        if (setup == u"open-dir") {
            QVERIFY(::chmod(QFile::encodeName(dataDir).constData(), 0777) == 0);
            refused = !Store::open(dataDir, &error);
        } else if (setup == u"key-symlink") {
            QVERIFY(QFile::link(target, key));
            refused = !Masking::loadOrCreate(key, &error);
            QVERIFY(!QFile::exists(target)); // nothing written through the link
        } else if (setup == u"key-0644") {
            QVERIFY(PrivateFiles::createNew(key, QByteArray(32, 'k'), &error));
            QVERIFY(::chmod(QFile::encodeName(key).constData(), 0644) == 0);
            refused = !Masking::loadOrCreate(key, &error);
        } else if (setup == u"db-symlink") {
            QVERIFY(QFile::link(target, QDir(dataDir).filePath(QStringLiteral("bullpen.sqlite"))));
            refused = !Store::open(dataDir, &error);
            QVERIFY(!QFile::exists(target));
        }
        QVERIFY(refused);
        QVERIFY2(error.contains(says), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(tst_PrivateFiles)
#include "tst_privatefiles.moc"
