// SPDX-License-Identifier: MIT
// `bullpen-cli purge`'s parts (ops/storepurge.h): the retention a purge applies, from the configured one
// and the flags (pure rows), and a purge of a real store filled with ten days of synthetic history: the
// dry run counts exactly what the purge then removes, and what is newer than the cut-off stays. Runs on
// SQLite (tst_storepurge) and PostgreSQL (tst_storepurge_postgres).
#include "devsupport/historyfiller.h"
#include "ops/storepurge.h"
#include "store/store.h"
#include "teststore.h"

#include <QDateTime>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::ops;
using namespace bullpen::test;
using namespace std::chrono;

namespace {

constexpr qint64 kDay = 86'400'000;
using Period = std::optional<milliseconds>;

QString text(Period p)
{
    return formatRetention(p);
}

} // namespace

class tst_StorePurge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void policyFromSettingsAndFlags_data()
    {
        QTest::addColumn<bool>("configuredOff");
        QTest::addColumn<std::optional<QString>>("olderThan");
        QTest::addColumn<std::optional<QString>>("aggregatesOlderThan");
        QTest::addColumn<QString>("generations"); // formatRetention, or "refused: <part of why>"
        QTest::addColumn<QString>("aggregates");
        using S = std::optional<QString>;
        QTest::addRow("the configured one") << false << S() << S() << QStringLiteral("30d") << QStringLiteral("400d");
        QTest::addRow("--older-than 7d") << false << S(QStringLiteral("7d")) << S() << QStringLiteral("7d") << QStringLiteral("400d");
        QTest::addRow("a bare number is refused")
            << false << S(QStringLiteral("7")) << S() << QStringLiteral("refused: --older-than: ") << QString();
        QTest::addRow("a bad aggregate period names its flag")
            << false << S() << S(QStringLiteral("soon")) << QStringLiteral("refused: --aggregates-older-than: ") << QString();
        QTest::addRow("aggregates never before the rows they count")
            << false << S(QStringLiteral("14d")) << S(QStringLiteral("2d")) << QStringLiteral("14d") << QStringLiteral("14d");
        QTest::addRow("--older-than off leaves nothing to do")
            << false << S(QStringLiteral("off")) << S() << QStringLiteral("refused: retention is off, nothing to remove; give --older-than")
            << QString();
        QTest::addRow("configured off says where")
            << true << S() << S() << QStringLiteral("refused: retention is off (BULLPEN_RETENTION=off)") << QString();
        QTest::addRow("configured off, a flag turns it on")
            << true << S(QStringLiteral("3d")) << S() << QStringLiteral("3d") << QStringLiteral("off");
    }

    void policyFromSettingsAndFlags()
    {
        QFETCH(bool, configuredOff);
        QFETCH(std::optional<QString>, olderThan);
        QFETCH(std::optional<QString>, aggregatesOlderThan);
        QFETCH(QString, generations);
        QFETCH(QString, aggregates);
        RetentionPolicy configured;
        if (configuredOff)
            configured.generations = configured.aggregates = std::nullopt;
        QString why;
        const std::optional<RetentionPolicy> policy = StorePurge::policy(configured, olderThan, aggregatesOlderThan, &why);
        if (generations.startsWith(QStringLiteral("refused: "))) {
            QVERIFY(!policy);
            QVERIFY2(why.startsWith(generations.mid(9)), qPrintable(why));
            return;
        }
        QVERIFY2(policy, qPrintable(why));
        QCOMPARE(text(policy->generations), generations);
        QCOMPARE(text(policy->aggregates), aggregates);
    }

    // Ten days of history, a purge of what is older than five: the dry run's count is what goes.
    void dryRunCountsWhatThePurgeRemoves()
    {
        BULLPEN_REQUIRE_TEST_STORE();
        QTemporaryDir dir;
        QString error;
        std::unique_ptr<Store> store = Store::open(TestStore::fresh(dir.path()), &error);
        QVERIFY2(store, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        HistoryFillOptions fill;
        fill.attempts = 300;
        fill.fromMs = now - 10 * kDay;
        fill.toMs = now;
        fill.eventsPerGeneration = 1;
        const HistoryFillResult filled = HistoryFiller::fill(store->storeLocation(), fill);
        QVERIFY2(filled.error.isEmpty(), qPrintable(filled.error));

        StorePurge::Request request;
        request.policy.generations = hours(24 * 5);
        request.imagesDir = QDir(dir.path()).filePath(QStringLiteral("images"));
        request.nowMs = now;
        request.dryRun = true;
        const StorePurge::Outcome dry = StorePurge::run(store->storeLocation(), request);
        QCOMPARE(dry.code, StorePurge::Code::Done);
        const QJsonObject planned = dry.report.value(QStringLiteral("would_remove")).toObject();
        const qint64 older = planned.value(QStringLiteral("generations")).toInteger();
        QVERIFY2(older > 0 && older < filled.generations, qPrintable(QString::number(older)));
        // Rows as read (count() may answer from the hourly aggregates, which a 5-day purge keeps).
        const auto rows = [&store](const HistoryFilter &filter) {
            return qint64(store->generations(filter, 100'000).size());
        };
        QCOMPARE(rows({}), filled.generations); // a dry run removes nothing
        QCOMPARE(dry.report.value(QStringLiteral("retention")).toString(), QStringLiteral("5d"));

        request.dryRun = false;
        request.vacuum = true;
        const StorePurge::Outcome done = StorePurge::run(store->storeLocation(), request);
        QVERIFY2(done.code == StorePurge::Code::Done, qPrintable(done.error));
        const QJsonObject removed = done.report.value(QStringLiteral("removed")).toObject();
        for (const char *what : { "generations", "attempts", "events" })
            QCOMPARE(removed.value(QLatin1StringView(what)).toInteger(), planned.value(QLatin1StringView(what)).toInteger());
        QCOMPARE(rows({}), filled.generations - older);
        HistoryFilter before;
        before.toMs = now - 5 * kDay;
        QCOMPARE(rows(before), 0);
        QCOMPARE(dry.report.contains(QStringLiteral("file_bytes_after")), !store->storeLocation().isPostgres());

        // Again: nothing left to remove.
        const StorePurge::Outcome again = StorePurge::run(store->storeLocation(), request);
        QCOMPARE(again.code, StorePurge::Code::Done);
        QCOMPARE(again.report.value(QStringLiteral("removed")).toObject().value(QStringLiteral("generations")).toInteger(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_StorePurge)
#include "tst_storepurge.moc"
