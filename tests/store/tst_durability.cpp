// SPDX-License-Identifier: MIT
// The store as a user would lose it: bullpen-cli killed with SIGKILL mid-run, then reopened; and every
// file Bullpen writes searched for the raw user ids and keys of a run.
#include "store/store.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

class tst_Durability : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    QProcessEnvironment cleanEnv() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys()) {
            if (k.endsWith(QLatin1StringView("_API_KEY")) || k.startsWith(QLatin1StringView("STORYBOARD_")) || k == u"BULLPEN_DATA_DIR")
                env.remove(k);
        }
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        return env;
    }

private Q_SLOTS:
    void sigkillMidRunLosesNothingReported()
    {
        QTemporaryDir data;
        QProcess soak;
        soak.setProcessEnvironment(cleanEnv());
        soak.start(QStringLiteral(BULLPEN_CLI),
                   { QStringLiteral("soak"), QStringLiteral("--count"), QStringLiteral("100000"), QStringLiteral("--concurrency"),
                     QStringLiteral("16"), QStringLiteral("--scenario-mix"), QStringLiteral("healthy,primary-overloaded,primary-auth"),
                     QStringLiteral("--progress"), QStringLiteral("--data-dir"), data.path() });
        QVERIFY(soak.waitForStarted());
        QStringList committed;
        QByteArray pending;
        while (committed.size() < 200) {
            QVERIFY2(soak.waitForReadyRead(20'000), "soak printed no progress");
            pending += soak.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                if (line.startsWith("committed "))
                    committed << QString::fromLatin1(line.mid(10));
            }
        }
        soak.kill(); // SIGKILL: no cleanup of any kind
        QVERIFY(soak.waitForFinished(10'000));
        QCOMPARE(soak.exitStatus(), QProcess::CrashExit);

        QString error;
        auto store = Store::open(data.path(), &error);
        QVERIFY2(store, qPrintable(error));
        QCOMPARE(store->integrityCheck(), QStringLiteral("ok"));
        for (const QString &id : std::as_const(committed)) {
            const auto row = store->generation(id);
            QVERIFY2(row, qPrintable(id + QStringLiteral(" was reported committed but is missing")));
            QVERIFY2(row->state != u"running", qPrintable(id));
        }
        // Whatever was mid-flight is finished once, as abandoned, by this open: nothing stays running.
        QVERIFY(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations")) >= committed.size());
        QCOMPARE(store->scalar(
                     QStringLiteral("SELECT COUNT(*) FROM generations WHERE state NOT IN ('succeeded','failed','cancelled','abandoned')")),
                 0);
        QVERIFY(store->abandonedAtOpen() > 0); // 16 were in flight
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'abandoned' AND kind = 'INTERNAL' "
                                              "AND public_code = 'INTERNAL_ERROR' AND detail LIKE '%ended before it finished%'")),
                 store->abandonedAtOpen());
        const int abandoned = store->abandonedAtOpen();
        store.reset();
        auto again = Store::open(data.path(), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->abandonedAtOpen(), 0); // written once
        QCOMPARE(again->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'abandoned'")), abandoned);
    }

    // SIGTERM (or SIGINT) is an operator cancel: cancel handlers run, the record is written CANCELLED,
    // --json still prints, exit 3.
    void sigtermCancelsGenerate()
    {
        QTemporaryDir data;
        QProcess gen;
        gen.setProcessEnvironment(cleanEnv());
        gen.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("generate"), QStringLiteral("--scenario"), QStringLiteral("primary-hang"), QStringLiteral("--story"),
                    QStringLiteral("A cat."), QStringLiteral("--json"), QStringLiteral("--data-dir"), data.path() });
        QVERIFY(gen.waitForStarted());
        gen.setReadChannel(QProcess::StandardError);
        QByteArray errText;
        while (!errText.contains("built-in simulator")) { // started: the generation is under way
            QVERIFY(gen.waitForReadyRead(20'000));
            errText += gen.readAllStandardError();
        }
        gen.terminate(); // SIGTERM
        QVERIFY(gen.waitForFinished(20'000));
        QCOMPARE(gen.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gen.exitCode(), 3);
        const QJsonObject o = QJsonDocument::fromJson(gen.readAllStandardOutput()).object();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("cancelled"));
        QString error;
        auto store = Store::open(data.path(), &error);
        QVERIFY2(store, qPrintable(error));
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'cancelled'")), 1);
        QCOMPARE(store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running'")), 0);
    }

    void noRawUserIdOrKeyAnywhere()
    {
        QTemporaryDir data;
        const QString rawUser = QStringLiteral("very.private.person@example.com");
        const QString secretKey = QStringLiteral("AIzaSy-THIS-IS-A-SECRET-KEY-0123456789");
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("GEMINI_API_KEY"), secretKey); // configured, though --simulator runs instead
        QByteArray everything;
        for (const char *scenario : { "primary-overloaded", "primary-auth", "primary-hang" }) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BULLPEN_CLI),
                    { QStringLiteral("generate"), QStringLiteral("--story"), QStringLiteral("A cat finds a key."), QStringLiteral("--user"),
                      rawUser, QStringLiteral("--simulator"), QStringLiteral("--scenario"), QString::fromLatin1(scenario),
                      QStringLiteral("--primary-timeout"), QStringLiteral("500ms"), QStringLiteral("--data-dir"), data.path(),
                      QStringLiteral("--json") });
            QVERIFY(p.waitForFinished(30'000));
            everything += p.readAllStandardOutput() + p.readAllStandardError();
        }
        for (const char *table : { "generations", "attempts", "events" }) {
            for (const char *format : { "jsonl", "csv" }) {
                const QString out = data.filePath(QStringLiteral("export-%1.%2").arg(QLatin1StringView(table), QLatin1StringView(format)));
                QProcess p;
                p.setProcessEnvironment(env);
                p.start(QStringLiteral(BULLPEN_CLI),
                        { QStringLiteral("export"), QStringLiteral("--table"), QString::fromLatin1(table), QStringLiteral("--format"),
                          QString::fromLatin1(format), QStringLiteral("--out"), out, QStringLiteral("--data-dir"), data.path() });
                QVERIFY(p.waitForFinished(30'000));
                QCOMPARE(p.exitCode(), 0);
                everything += p.readAllStandardError();
            }
        }
        {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BULLPEN_CLI),
                    { QStringLiteral("history"), QStringLiteral("--json"), QStringLiteral("--data-dir"), data.path() });
            QVERIFY(p.waitForFinished(30'000));
            const QByteArray history = p.readAllStandardOutput();
            QVERIFY2(history.contains("v***@e***.com"), history.constData()); // the mask is there
            everything += history + p.readAllStandardError();
        }
        QDirIterator it(data.path(), QDir::Files | QDir::Hidden);
        int files = 0;
        QByteArray written; // what Bullpen wrote to disk: store, key, exports
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            written += f.readAll();
            ++files;
        }
        everything += written;
        // Without BULLPEN_STORE_CONTENT, nothing derived from the story is kept (docs/contract.md §5.1).
        QVERIFY(written.contains("storyboard_attempt_completed"));
        QVERIFY2(!written.contains("finds a key"), "story content was stored without the operator turning that on");
        QVERIFY(files >= 8); // database, WAL, key, six exports
        QVERIFY(everything.contains("generation_started")); // the search did read the records
        QVERIFY2(!everything.contains(rawUser.toUtf8()), "a raw user id was written");
        QVERIFY2(!everything.contains("very.private"), "part of a raw user id was written");
        QVERIFY2(!everything.contains(secretKey.toUtf8()), "an API key was written");
        static const QRegularExpression simKey(QStringLiteral("sim-[A-Za-z0-9_-]{20,}")); // a run's simulator key
        QVERIFY2(!simKey.match(QString::fromLatin1(everything)).hasMatch(), "a simulator key was written");
    }
};

QTEST_GUILESS_MAIN(tst_Durability)
#include "tst_durability.moc"
