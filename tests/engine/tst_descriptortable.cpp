// SPDX-License-Identifier: MIT
// docs/architecture.md, "Descriptors": an engine grows its process's descriptor table once, when it
// starts, so that a burst of connections does not grow it on the way. The table is the process's and
// never shrinks, so this binary holds this one test: whatever ran before it in the process would have
// grown the table already.
#include "config/processlimits.h"
#include "runtime/enginesetup.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace bullpen;

class tst_DescriptorTable : public QObject
{
    Q_OBJECT

    // The kernel's own count of descriptor slots (FDSize), read here rather than through the code under test.
    static qint64 descriptorSlots()
    {
        QFile status(QStringLiteral("/proc/self/status"));
        if (!status.open(QIODevice::ReadOnly))
            return -1;
        const QList<QByteArray> lines = status.readAll().split('\n');
        for (const QByteArray &line : lines)
            if (line.startsWith("FDSize:"))
                return line.mid(7).trimmed().toLongLong();
        return -1;
    }

private Q_SLOTS:
    void theTableIsGrownBeforeTheFirstBurst()
    {
        QTemporaryDir dir;
        SetupOptions o;
        o.forceSimulator = true;
        o.dataDir = dir.path();
        o.settingsFile = dir.filePath(QStringLiteral("none.json"));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment.insert(QStringLiteral("BULLPEN_MAX_IN_FLIGHT"), QStringLiteral("2000"));
        o.engineThreads = 1;
        raiseOpenFileLimit(); // as init does, so that the bound below is the one init sees
        // Four built-in providers at 2,000 each, both ends in this process: far more than the table holds now.
        const qint64 expected = std::min({ qint64(2000) * 4 * 2, openFileLimit(), kMaxReservedDescriptors });
        const qint64 before = descriptorSlots();
        // Not a skip: without /proc, or with a table already this large, this test cannot judge, and says so.
        QVERIFY2(
            before > 0 && before < expected,
            qPrintable(QStringLiteral("FDSize %1 before the engine starts, %2 expected after: cannot judge").arg(before).arg(expected)));
        EngineSetup setup;
        QVERIFY(setup.init(o));
        QVERIFY2(
            descriptorSlots() >= expected,
            qPrintable(QStringLiteral("FDSize %1 after the engine started, expected at least %2").arg(descriptorSlots()).arg(expected)));
    }
};

QTEST_GUILESS_MAIN(tst_DescriptorTable)
#include "tst_descriptortable.moc"
