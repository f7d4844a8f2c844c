// SPDX-License-Identifier: MIT
// `bullpen-cli export`'s writer (ops/historydump.h) over a real store filled with synthetic history:
// every row once, across pages, as JSON Lines and as CSV, for each of the three tables. Runs on SQLite
// (tst_historydump) and PostgreSQL (tst_historydump_postgres).
#include "devsupport/historyfiller.h"
#include "ops/historydump.h"
#include "store/store.h"
#include "teststore.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace bullpen;
using namespace bullpen::ops;
using namespace bullpen::test;

namespace {

constexpr qint64 kHour = 3'600'000;
constexpr int kEventsEach = 2;

QStringList lines(const QString &text)
{
    return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class tst_HistoryDump : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BULLPEN_REQUIRE_TEST_STORE();
        QVERIFY(m_dir.isValid());
        QString error;
        m_store = Store::open(TestStore::fresh(m_dir.path()), &error);
        QVERIFY2(m_store, qPrintable(error));
        HistoryFillOptions fill;
        fill.attempts = 80;
        fill.toMs = QDateTime::currentMSecsSinceEpoch();
        fill.fromMs = fill.toMs - kHour;
        fill.eventsPerGeneration = kEventsEach;
        m_filled = HistoryFiller::fill(m_store->storeLocation(), fill);
        QVERIFY2(m_filled.error.isEmpty(), qPrintable(m_filled.error));
        QVERIFY(m_filled.generations > 10);
    }

    void namesAreParsed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("table");
        QTest::addColumn<bool>("format");
        QTest::addRow("generations") << QStringLiteral("generations") << true << false;
        QTest::addRow("attempts") << QStringLiteral("attempts") << true << false;
        QTest::addRow("events") << QStringLiteral("events") << true << false;
        QTest::addRow("jsonl") << QStringLiteral("jsonl") << false << true;
        QTest::addRow("csv") << QStringLiteral("csv") << false << true;
        QTest::addRow("upper case") << QStringLiteral("CSV") << false << false;
        QTest::addRow("empty") << QString() << false << false;
    }

    void namesAreParsed()
    {
        QFETCH(QString, name);
        QFETCH(bool, table);
        QFETCH(bool, format);
        QCOMPARE(HistoryDump::tableFrom(name).has_value(), table);
        QCOMPARE(HistoryDump::formatFrom(name).has_value(), format);
    }

    // Pages of 7 rows: every generation exactly once, newest first.
    void everyRowOnceAcrossPages_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::addRow("pages of 7") << 7;
        QTest::addRow("one page") << HistoryDump::kPage;
    }

    void everyRowOnceAcrossPages()
    {
        QFETCH(int, pageSize);
        QString text;
        QTextStream out(&text);
        const HistoryDump::Outcome written =
            HistoryDump(HistoryDump::Table::Generations, HistoryDump::Format::JsonLines, pageSize).write(*m_store, {}, out);
        QVERIFY2(written.error.isEmpty(), qPrintable(written.error));
        QCOMPARE(written.rows, m_filled.generations);
        std::set<QString> ids;
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const QString &line : lines(text)) {
            const QJsonObject row = QJsonDocument::fromJson(line.toUtf8()).object();
            QVERIFY2(ids.insert(row.value(QStringLiteral("generation_id")).toString()).second, qPrintable(line));
            const qint64 at =
                QDateTime::fromString(row.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
            QVERIFY(at <= previous);
            previous = at;
        }
        QCOMPARE(qint64(ids.size()), m_filled.generations);
    }

    // Attempts and events of every generation; CSV with one header line.
    void eachTableInEachFormat()
    {
        for (const auto &[table, expected] : { std::pair { HistoryDump::Table::Attempts, m_filled.attempts },
                                               std::pair { HistoryDump::Table::Events, m_filled.generations * kEventsEach } }) {
            QString jsonl;
            QTextStream jsonOut(&jsonl);
            QCOMPARE(HistoryDump(table, HistoryDump::Format::JsonLines, 9).write(*m_store, {}, jsonOut).rows, expected);
            QCOMPARE(qint64(lines(jsonl).size()), expected);
            QString csv;
            QTextStream csvOut(&csv);
            QCOMPARE(HistoryDump(table, HistoryDump::Format::Csv, 9).write(*m_store, {}, csvOut).rows, expected);
            QCOMPARE(qint64(lines(csv).size()), expected + 1); // the header
            if (table == HistoryDump::Table::Attempts) {
                // One time format in every table: `at` as ISO 8601 with milliseconds, never at_ms.
                const QJsonObject first = QJsonDocument::fromJson(lines(jsonl).constFirst().toUtf8()).object();
                QVERIFY(!first.contains(QStringLiteral("at_ms")));
                QVERIFY(QDateTime::fromString(first.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs).isValid());
            }
        }
    }

    // The filter is the caller's: an hour that holds nothing gives nothing.
    void filterSelects()
    {
        HistoryFilter empty;
        empty.toMs = QDateTime::currentMSecsSinceEpoch() - 2 * kHour;
        QString text;
        QTextStream out(&text);
        QCOMPARE(HistoryDump(HistoryDump::Table::Generations, HistoryDump::Format::Csv).write(*m_store, empty, out).rows, 0);
        QVERIFY(text.isEmpty()); // no header without a row
    }

    void cleanupTestCase() { m_store.reset(); }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    HistoryFillResult m_filled;
};

QTEST_GUILESS_MAIN(tst_HistoryDump)
#include "tst_historydump.moc"
