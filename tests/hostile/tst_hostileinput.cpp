// SPDX-License-Identifier: MIT
// Hostile input: what the fuzzers found, kept as regression rows, and files opened from disk
// that are truncated, oversized, wrongly typed or wrongly encoded. Each gives a clear error that names
// the file and the problem, and loses nothing.
#include "config/settings.h"
#include "failure/failureclassifier.h"
#include "providers/wireformat.h"
#include "sim/scenario.h"
#include "store/store.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(bytes);
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return path;
}

QString joined(const QList<ConfigError> &errors)
{
    QStringList lines;
    for (const ConfigError &e : errors)
        lines << e.toString();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class tst_HostileInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // fuzz_provider_body: a token count of 8.9e94 was cast to an integer (undefined behaviour).
    void hugeTokenCountsAreNotCounts_data()
    {
        QTest::addColumn<int>("provider");
        QTest::addColumn<QByteArray>("body");
        const QByteArray text = "{\\\"title\\\":\\\"t\\\"}";
        QTest::newRow("gemini 8.9e94") << Provider::Gemini.index()
                                       << "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"" + text
                + "\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":8.88889e94,"
                  "\"candidatesTokenCount\":-3}}";
        QTest::newRow("openai inf-like") << Provider::OpenAI.index()
                                         << QByteArray(
                                                "{\"choices\":[{\"message\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}],\"usage\":"
                                                "{\"prompt_tokens\":1e308,\"completion_tokens\":2.5}}");
        QTest::newRow("anthropic huge") << Provider::Anthropic.index()
                                        << QByteArray(
                                               "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"stop_reason\":\"end_turn\",\"usage\":"
                                               "{\"input_tokens\":1e300,\"output_tokens\":9007199254740993e10}}");
    }

    void hugeTokenCountsAreNotCounts()
    {
        QFETCH(int, provider);
        QFETCH(QByteArray, body);
        ProviderResponse r;
        r.httpStatus = 200;
        WireFormat::create(Provider::atIndex(provider))->parseBody(body, r);
        QVERIFY2(r.malformedBody.isEmpty(), qPrintable(r.malformedBody));
        QCOMPARE(r.usage.input, -1);
        QCOMPARE(r.usage.output, -1);
    }

    // fuzz_scenario: a seed of 8.9e94 was cast to an integer (undefined behaviour).
    void scenarioSeedOutOfRangeIsRefused()
    {
        QString error;
        QVERIFY(!Scenario::fromJson("{\"name\":\"x\",\"seed\":8.88889e94,\"providers\":{}}", &error));
        QVERIFY2(error.contains(QStringLiteral("seed")), qPrintable(error));
        QVERIFY(!Scenario::fromJson("{\"name\":\"x\",\"seed\":1.5,\"providers\":{}}", &error));
        QVERIFY2(Scenario::fromJson("{\"name\":\"x\",\"seed\":42,\"providers\":{\"*\":{\"do\":\"ok\"}}}", &error), qPrintable(error));
    }

    void settingsFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("truncated") << QByteArray("{\"storyboard\": {\"provider\": \"gem") << QStringLiteral("not valid JSON");
        QTest::newRow("oversized") << QByteArray(2 * 1024 * 1024, ' ') << QStringLiteral("larger than 1 MiB");
        QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("must hold a JSON object");
        QTest::newRow("section wrongly typed") << QByteArray("{\"storyboard\": [\"gemini\"]}")
                                               << QStringLiteral("storyboard: must be a JSON object");
        QTest::newRow("provider wrongly typed")
            << QByteArray("{\"providers\": {\"qwen\": \"https://x\"}}") << QStringLiteral("providers.qwen: must be a JSON object");
        QTest::newRow("number for a string") << QByteArray("{\"storyboard\": {\"primary_timeout\": 60}}")
                                             << QStringLiteral("must be a string");
        QTest::newRow("retries out of range") << QByteArray("{\"pipeline\": {\"image_retries\": 1e300}}") << QStringLiteral("0 to 5");
        QTest::newRow("latin-1") << QByteArray("{\"storyboard\": {\"policy\": \"caf\xe9\"}}") << QStringLiteral("not UTF-8");
        QTest::newRow("utf-16") << QByteArray("\xff\xfe{\0}\0", 6) << QStringLiteral("UTF-16");
        QTest::newRow("api key in the file") << QByteArray("{\"providers\": {\"gemini\": {\"api_key\": \"k\"}}}")
                                             << QStringLiteral("do not belong");
    }

    void settingsFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("bullpen.json"), bytes);
        const SettingsLoad load = SettingsLoader::load(path, QString(), QProcessEnvironment(), false);
        QVERIFY(!load.ok());
        const QString all = joined(load.errors);
        QVERIFY2(all.contains(says), qPrintable(all));
        QVERIFY2(all.contains(path), qPrintable(all)); // names the file
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), bytes); // never rewritten by reading
    }

    void keyFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("latin-1") << QByteArray("GEMINI_API_KEY=caf\xe9\n") << QStringLiteral("not UTF-8");
        QTest::newRow("nul byte") << QByteArray("GEMINI_API_KEY=a\0b\n", 19) << QStringLiteral("not UTF-8");
        QTest::newRow("oversized") << QByteArray(100 * 1024, 'A') << QStringLiteral("larger than 64 KiB");
        QTest::newRow("no equals") << QByteArray("GEMINI_API_KEY\n") << QStringLiteral("expected NAME=value");
    }

    void keyFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("keys.env"), bytes);
        const SettingsLoad load = SettingsLoader::load(QString(), path, QProcessEnvironment(), false);
        const QString all = joined(load.errors);
        QVERIFY2(all.contains(says), qPrintable(all));
        QVERIFY2(all.contains(path), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("caf")), qPrintable(all)); // the key's bytes are not echoed
    }

    void scenarioFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("truncated") << QByteArray("{\"name\": \"x\", \"providers\": {\"gemini\": {\"action\": \"o")
                                   << QStringLiteral("not valid JSON");
        QTest::newRow("oversized") << QByteArray(2 * 1024 * 1024, ' ') << QStringLiteral("larger than 1 MiB");
        QTest::newRow("wrongly typed") << QByteArray("{\"name\": 7, \"providers\": {}}") << QStringLiteral("\"name\"");
        QTest::newRow("latin-1") << QByteArray("{\"name\": \"caf\xe9\", \"providers\": {}}") << QStringLiteral("not valid JSON");
        QTest::newRow("unknown action") << QByteArray("{\"name\": \"x\", \"providers\": {\"gemini\": {\"do\": \"explode\"}}}")
                                        << QStringLiteral("explode");
    }

    void scenarioFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("scenario.json"), bytes);
        QString error;
        QVERIFY(!Scenario::load(path, &error));
        QVERIFY2(error.contains(says), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }

    void storeFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("truncated store") << QStringLiteral("truncated");
        QTest::newRow("text file") << QStringLiteral("text");
        QTest::newRow("schema version not a number") << QStringLiteral("badversion");
    }

    void storeFiles()
    {
        QFETCH(QString, kind);
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("bullpen.sqlite"));
        if (kind == u"truncated") {
            // A real store, cut to its first page and a half (a copy interrupted, a disk that filled).
            QTemporaryDir source;
            QString error;
            {
                auto store = Store::open(source.path(), &error);
                QVERIFY2(store, qPrintable(error));
            }
            QFile full(source.filePath(QStringLiteral("bullpen.sqlite")));
            QVERIFY(full.open(QIODevice::ReadOnly));
            writeFile(dir, QStringLiteral("bullpen.sqlite"), full.readAll().left(6000));
        } else if (kind == u"text") {
            writeFile(dir, QStringLiteral("bullpen.sqlite"), QByteArray("these are my notes, not a database\n").repeated(200));
        } else {
            {
                QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("prep"));
                d.setDatabaseName(db);
                QVERIFY(d.open());
                QSqlQuery q(d);
                QVERIFY(q.exec(QStringLiteral("CREATE TABLE bullpen_schema (version TEXT)")));
                QVERIFY(q.exec(QStringLiteral("INSERT INTO bullpen_schema (version) VALUES ('two')")));
                d.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("prep"));
        }
        QFile before(db);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray bytes = before.readAll();
        before.close();
        QString error;
        QVERIFY(!Store::open(dir.path(), &error));
        QVERIFY2(error.contains(db), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("move it aside")) || error.contains(QStringLiteral("schema")), qPrintable(error));
        QFile after(db);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), bytes); // nothing lost
    }
};

QTEST_GUILESS_MAIN(tst_HostileInput)
#include "tst_hostileinput.moc"
