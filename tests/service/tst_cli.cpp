// SPDX-License-Identifier: MIT
// bullpen-cli generate as a user runs it: a separate process, the built-in simulator, JSON out.
#include "config/settingstable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

const QString kStory =
    QStringLiteral("Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together.");

} // namespace

class tst_Cli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    Run cli(QStringList args, const QStringList &extraEnv = {})
    {
        args.prepend(QStringLiteral("generate"));
        return raw(args, extraEnv);
    }

    // Any command line, as typed after `bullpen-cli`.
    Run raw(const QStringList &args, const QStringList &extraEnv = {})
    {
        QProcess p;
        p.setProcessEnvironment(environment(extraEnv));
        p.start(QStringLiteral(BULLPEN_CLI), args);
        Run r;
        if (!p.waitForFinished(60'000)) {
            p.kill();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    // The environment every run gets: none of the machine user's keys, settings or store.
    QProcessEnvironment environment(const QStringList &extraEnv = {}) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys()) {
            if (k.endsWith(QLatin1StringView("_API_KEY")) || k.startsWith(QLatin1StringView("STORYBOARD_")))
                env.remove(k);
        }
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path()); // no settings or key file of the machine's user
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path()); // and no store of theirs
        env.remove(QStringLiteral("BULLPEN_DATA_DIR"));
        for (const QString &kv : extraEnv)
            env.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        return env;
    }

private Q_SLOTS:
    void overloadedPrimaryFallsBackToQwen()
    {
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), QStringLiteral("primary-overloaded"),
                            QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("built-in simulator"), r.err.constData());
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
        QCOMPARE(o.value(QStringLiteral("provider_fallback_applied")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("provider_fallback_reason")).toString(), QStringLiteral("gemini_provider_unavailable"));
        QCOMPARE(o.value(QStringLiteral("primary_final_model_provider")).toString(), QStringLiteral("gemini"));
        QCOMPARE(o.value(QStringLiteral("final_model_provider")).toString(), QStringLiteral("qwen"));
        QCOMPARE(o.value(QStringLiteral("final_model_id")).toString(), QStringLiteral("qwen-plus"));
        const QJsonArray attempts = o.value(QStringLiteral("attempts")).toArray();
        QCOMPARE(attempts.size(), 4); // storyboard primary, storyboard fallback, captions, image
        QStringList stages;
        for (const QJsonValue &a : attempts)
            stages << a.toObject().value(QStringLiteral("stage")).toString();
        QCOMPARE(stages,
                 (QStringList { QStringLiteral("storyboard"), QStringLiteral("storyboard"), QStringLiteral("captions"),
                                QStringLiteral("image") }));
        QCOMPARE(o.value(QStringLiteral("captions")).toArray().size(), 4);
        QVERIFY(o.value(QStringLiteral("image_path")).toString().endsWith(QStringLiteral(".png")));
        for (const char *key : { "stage", "provider", "model", "role", "success", "kind", "http_status", "duration_ms", "deadline_ms",
                                 "requests_sent", "tokens_in", "tokens_out" })
            QVERIFY2(attempts.at(0).toObject().contains(QLatin1StringView(key)), key);
        QCOMPARE(attempts.at(0).toObject().value(QStringLiteral("http_status")).toInt(), 503);
        QCOMPARE(attempts.at(0).toObject().value(QStringLiteral("requests_sent")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("storyboard")).toObject().value(QStringLiteral("panels")).toArray().size(), 4);
        QVERIFY(o.value(QStringLiteral("events")).toArray().size() >= 7);
        // Token counts say what they cover: no ambiguous top-level tokens_in/out.
        QVERIFY(!o.contains(QStringLiteral("tokens_in")) && !o.contains(QStringLiteral("tokens_out")));
        QCOMPARE(o.value(QStringLiteral("storyboard_tokens_out")).toInteger(),
                 attempts.at(1).toObject().value(QStringLiteral("tokens_out")).toInteger());
        qint64 totalOut = 0;
        for (const QJsonValue &a : attempts)
            totalOut += std::max<qint64>(0, a.toObject().value(QStringLiteral("tokens_out")).toInteger(-1));
        QCOMPARE(o.value(QStringLiteral("total_tokens_out")).toInteger(), totalOut);
        QVERIFY(totalOut > o.value(QStringLiteral("storyboard_tokens_out")).toInteger());
        // Gemini: the failed storyboard request and the image request (its own stage and client).
        QCOMPARE(o.value(QStringLiteral("simulator"))
                     .toObject()
                     .value(QStringLiteral("gemini"))
                     .toObject()
                     .value(QStringLiteral("requests"))
                     .toInt(),
                 2);
    }

    void authFailureIsFinal()
    {
        const Run r = cli(
            { QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), QStringLiteral("primary-auth"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
        QCOMPARE(o.value(QStringLiteral("public_code")).toString(), QStringLiteral("AI_PROVIDER_CONFIG"));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("AUTH_CONFIG"));
        QCOMPARE(o.value(QStringLiteral("attempts")).toArray().size(), 1);
    }

    void hangingPrimaryTimesOutThenFallsBack()
    {
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), QStringLiteral("primary-hang"),
                            QStringLiteral("--primary-timeout"), QStringLiteral("2s"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray attempts = r.json().value(QStringLiteral("attempts")).toArray();
        QCOMPARE(attempts.size(), 4);
        const QJsonObject primary = attempts.at(0).toObject();
        QCOMPARE(primary.value(QStringLiteral("kind")).toString(), QStringLiteral("TIMEOUT"));
        QCOMPARE(primary.value(QStringLiteral("aborted_by")).toString(), QStringLiteral("deadline"));
        const double ms = primary.value(QStringLiteral("duration_ms")).toDouble();
        QVERIFY2(ms >= 2000.0 && ms < 3000.0, qPrintable(QString::number(ms)));
        QCOMPARE(attempts.at(1).toObject().value(QStringLiteral("success")).toBool(), true);
    }

    void imageOutIsAPng()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("comic.png"));
        const Run r = cli({ QStringLiteral("--story"),
                            QStringLiteral("하루가 고양이를 만난다. \"안녕,\" 하루가 말한다. 고양이가 웃는다. 둘은 친구가 된다."),
                            QStringLiteral("--image-out"), png, QStringLiteral("--fresh") });
        QCOMPARE(r.exitCode, 0);
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
        QVERIFY(bytes.size() > 20'000); // drawn, with text
    }

    void identicalRequestIsServedFromCache()
    {
        const QString story = QStringLiteral("A unique story for the cache test. It has four sentences. Really. The end.");
        const QStringList storeContent { QStringLiteral("BULLPEN_STORE_CONTENT=1") };
        // Without the operator's consent to store content, nothing can be served from cache.
        QCOMPARE(cli({ QStringLiteral("--story"), story, QStringLiteral("--json") }).json().value(QStringLiteral("from_cache")).toBool(),
                 false);
        QCOMPARE(cli({ QStringLiteral("--story"), story, QStringLiteral("--json") }).json().value(QStringLiteral("from_cache")).toBool(),
                 false);
        const Run first = cli({ QStringLiteral("--story"), story, QStringLiteral("--json"), QStringLiteral("--fresh") }, storeContent);
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.json().value(QStringLiteral("from_cache")).toBool(), false);
        const Run second = cli({ QStringLiteral("--story"), story, QStringLiteral("--json") }, storeContent);
        QCOMPARE(second.exitCode, 0);
        const QJsonObject o = second.json();
        QCOMPARE(o.value(QStringLiteral("from_cache")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("attempts")).toArray().size(), 0);
        QCOMPARE(o.value(QStringLiteral("simulator"))
                     .toObject()
                     .value(QStringLiteral("gemini"))
                     .toObject()
                     .value(QStringLiteral("requests"))
                     .toInt(),
                 0);
        QCOMPARE(o.value(QStringLiteral("storyboard")).toObject(), first.json().value(QStringLiteral("storyboard")).toObject());
        const Run third = cli({ QStringLiteral("--story"), story, QStringLiteral("--json"), QStringLiteral("--fresh") }, storeContent);
        QCOMPARE(third.json().value(QStringLiteral("from_cache")).toBool(), false);
    }

    void degradedResultIsNotCached()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("captions-down.json"));
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\":\"captions-down\",\"providers\":{\"captions\":{\"do\":\"error\",\"error\":\"server_error\"}}}");
        f.close();
        const QString story = QStringLiteral("Another story, for the degraded test. Two. Three. Four.");
        for (int i = 0; i < 2; ++i) {
            const Run r = cli({ QStringLiteral("--story"), story, QStringLiteral("--scenario"), scenario, QStringLiteral("--json") },
                              { QStringLiteral("BULLPEN_STORE_CONTENT=1") });
            QCOMPARE(r.exitCode, 0);
            const QJsonObject o = r.json();
            QCOMPARE(o.value(QStringLiteral("degraded")).toBool(), true);
            QCOMPARE(o.value(QStringLiteral("captions_defaulted")).toBool(), true);
            QCOMPARE(o.value(QStringLiteral("from_cache")).toBool(), false); // never served from cache
            QVERIFY(o.value(QStringLiteral("captions")).toArray().at(0).toString().startsWith(QStringLiteral("Panel 1:")));
        }
    }

    void imageFailureIsFinalAndNeverRerunsTheStoryboard()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("image-down.json"));
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\":\"image-down\",\"providers\":{\"image\":{\"do\":\"error\",\"error\":\"overloaded\",\"retry_after_s\":0}}}");
        f.close();
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), scenario, QStringLiteral("--json"),
                            QStringLiteral("--fresh") });
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("stage")).toString(), QStringLiteral("image"));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("TRANSIENT_SERVER"));
        int storyboardAttempts = 0, imageAttempts = 0;
        const QJsonArray attempts = o.value(QStringLiteral("attempts")).toArray();
        for (const QJsonValue &a : attempts) {
            const QString stage = a.toObject().value(QStringLiteral("stage")).toString();
            storyboardAttempts += stage == u"storyboard";
            imageAttempts += stage == u"image";
        }
        QCOMPARE(storyboardAttempts, 1);
        QCOMPARE(imageAttempts, 3); // the image stage's own inner retries: 1 + 2
        // Gemini got one storyboard request, one captions request and the three image requests, nothing more.
        QCOMPARE(o.value(QStringLiteral("simulator"))
                     .toObject()
                     .value(QStringLiteral("gemini"))
                     .toObject()
                     .value(QStringLiteral("requests"))
                     .toInt(),
                 5);
        QVERIFY(o.value(QStringLiteral("next_step"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("image stage")));
    }

    void rateLimitSaysWhenItLifts()
    {
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), QStringLiteral("primary-rate-limited"),
                            QStringLiteral("--fallback"), QStringLiteral("none"), QStringLiteral("--json"), QStringLiteral("--fresh") });
        QCOMPARE(r.exitCode, 1);
        const QJsonObject next = r.json().value(QStringLiteral("next_step")).toObject();
        QCOMPARE(next.value(QStringLiteral("action")).toString(), QStringLiteral("retry"));
        QVERIFY2(next.value(QStringLiteral("message")).toString().contains(QStringLiteral("30 s")),
                 qPrintable(next.value(QStringLiteral("message")).toString()));
        QVERIFY(!next.value(QStringLiteral("retry_after")).toString().isEmpty());
    }

    void humanOutput()
    {
        const Run r = cli({ QStringLiteral("--story"), kStory });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("SUCCEEDED"), r.out.constData());
        QVERIFY(r.out.contains("SETUP"));
        QVERIFY(r.out.contains("CONCLUSION"));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("same provider twice") << QStringList { QStringLiteral("--fallback"), QStringLiteral("gemini") }
                                             << QByteArray("STORYBOARD_FALLBACK_PROVIDER");
        QTest::newRow("zero timeout") << QStringList { QStringLiteral("--primary-timeout"), QStringLiteral("0s") }
                                      << QByteArray("STORYBOARD_PRIMARY_TIMEOUT");
        QTest::newRow("unit missing") << QStringList { QStringLiteral("--budget"), QStringLiteral("120") } << QByteArray("with a unit");
        QTest::newRow("unknown scenario") << QStringList { QStringLiteral("--scenario"), QStringLiteral("sunny") }
                                          << QByteArray("primary-overloaded");
        QTest::newRow("unknown policy") << QStringList { QStringLiteral("--policy"), QStringLiteral("yolo") }
                                        << QByteArray("STORYBOARD_POLICY");
        QTest::newRow("no story") << QStringList {} << QByteArray("--story");
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, says);
        if (!args.isEmpty() || QString::fromLatin1(QTest::currentDataTag()) != u"no story")
            args << QStringLiteral("--story") << kStory;
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void rawUserIdIsNeverPrinted()
    {
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--user"), QStringLiteral("haru.secret@example.com"),
                            QStringLiteral("--scenario"), QStringLiteral("primary-overloaded"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!r.out.contains("haru.secret"));
        QVERIFY(!r.err.contains("haru.secret"));
        static const QRegularExpression simKey(QStringLiteral("sim-[A-Za-z0-9_-]{20,}")); // the run's simulator key
        QVERIFY(!simKey.match(QString::fromUtf8(r.out)).hasMatch()); // nor a key
        QVERIFY(!simKey.match(QString::fromUtf8(r.err)).hasMatch());
    }

    // Defect 5: a result whose records did not commit exits 4 with a warning naming the store.
    void recordsNotDurableExitFour()
    {
        QTemporaryDir data;
        const Run first = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--data-dir"), data.path() });
        QCOMPARE(first.exitCode, 0);
        const QString db = QDir(data.path()).filePath(QStringLiteral("bullpen.sqlite"));
        {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("saboteur"));
            d.setDatabaseName(db);
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("DROP TABLE events")));
            q.finish();
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("saboteur"));
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--fresh"), QStringLiteral("--json"),
                            QStringLiteral("--data-dir"), data.path() });
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("record not durable") && r.err.contains(db.toUtf8()), r.err.constData());
        QVERIFY(r.json().value(QStringLiteral("store_warning")).toString().contains(u"record write"));
    }

    // Defect 10: unbounded inputs are read with a cap and refused with the limit.
    void hostileInputsAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("story file /dev/zero") << QStringList { QStringLiteral("--story-file"), QStringLiteral("/dev/zero") }
                                              << QByteArray("32 KiB");
        QTest::newRow("settings /dev/zero") << QStringList { QStringLiteral("--story"), kStory, QStringLiteral("--settings"),
                                                             QStringLiteral("/dev/zero") }
                                            << QByteArray("larger than 1 MiB");
        QTest::newRow("missing key file") << QStringList { QStringLiteral("--story"), kStory, QStringLiteral("--key-file"),
                                                           QStringLiteral("/nonexistent/keys.env") }
                                          << QByteArray("does not exist");
        QTest::newRow("story over 32 KiB") << QStringList { QStringLiteral("--story"), QString(33 * 1024, QLatin1Char('a')) }
                                           << QByteArray("32 KiB");
        QTest::newRow("flag named in a refusal") << QStringList { QStringLiteral("--story"),    kStory,
                                                                  QStringLiteral("--primary"),  QStringLiteral("gemini"),
                                                                  QStringLiteral("--fallback"), QStringLiteral("gemini") }
                                                 << QByteArray("command-line flag --fallback");
    }

    void hostileInputsAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, says);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says), r.err.constData());
    }

    // Defect 10: the console's start-up refusal under offscreen prints and exits 2 (no dialog to click).
    void helpAndUnknownCommands()
    {
        const Run help = raw({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.startsWith("Usage: bullpen-cli COMMAND"));
        for (const char *command : { "generate", "compare", "history", "export", "purge", "soak" })
            QVERIFY2(help.out.contains(QByteArray(QByteArray("  ") + command + " ")), command);
        const Run bare = raw({});
        QCOMPARE(bare.exitCode, 2);
        QVERIFY(bare.out.startsWith("Usage: bullpen-cli COMMAND")); // usage on stdout, a command is required
        const Run unknown = raw({ QStringLiteral("frobnicate") });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown command \"frobnicate\"") && unknown.err.contains("compare"), unknown.err.constData());
        // Every command the usage lists (its "Commands:" table) answers --help (replay once refused it
        // without a generation id, which the man page build found).
        const QByteArray commands = bare.out.mid(bare.out.indexOf("Commands:\n") + 10);
        QList<QByteArray> listed;
        for (const QByteArray &line : commands.left(commands.indexOf("\n\n")).split('\n'))
            listed << line.trimmed().split(' ').constFirst();
        QVERIFY2(listed.size() >= 8 && listed.contains("replay"), commands.constData());
        for (const QByteArray &command : std::as_const(listed)) {
            const Run h = raw({ QString::fromLatin1(command), QStringLiteral("--help") });
            QVERIFY2(h.exitCode == 0, QByteArray(command + ": " + h.err).constData());
            QVERIFY2(h.out.startsWith(QByteArray("Usage: bullpen-cli " + command + " [options]")), h.out.left(80).constData());
            QVERIFY2(h.out.contains("Exit codes:\n  0  "), command.constData());
        }
        // A command that runs an engine lists every setting of the settings table, key and variable,
        // in its --help and so in its man page.
        const Run generate = raw({ QStringLiteral("generate"), QStringLiteral("--help") });
        for (const bullpen::SettingRow &row : bullpen::settingRows()) {
            QVERIFY2(generate.out.contains((QStringLiteral("  ") + row.fileKey + QStringLiteral("  ") + row.envVar).toUtf8()),
                     qPrintable(row.envVar));
        }
    }

    void historyRefusesFiltersItDoesNotKnow()
    {
        const QString dir = m_home.filePath(QStringLiteral("history-filters"));
        QCOMPARE(cli({ QStringLiteral("--story"), kStory, QStringLiteral("--scenario"), QStringLiteral("primary-overloaded"),
                       QStringLiteral("--data-dir"), dir })
                     .exitCode,
                 0);
        const Run bogus =
            raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--state"), QStringLiteral("bogus") });
        QCOMPARE(bogus.exitCode, 2);
        QVERIFY2(bogus.err.contains("--state bogus: not one of running, succeeded, failed, cancelled, abandoned"), bogus.err.constData());
        const Run kind =
            raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--kind"), QStringLiteral("timeouts") });
        QCOMPARE(kind.exitCode, 2);
        QVERIFY2(kind.err.contains("TIMEOUT") && kind.err.contains("NOT_SENT"), kind.err.constData());
        // Any case, written the store's way: the generation a fallback answered is found by its state.
        const Run found = raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--state"),
                                QStringLiteral("SUCCEEDED"), QStringLiteral("--provider"), QStringLiteral("Gemini") });
        QCOMPARE(found.exitCode, 0);
        const QList<QByteArray> lines = found.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2); // the header and the one generation
        QVERIFY(lines.at(0).startsWith("started (local)"));
        // Aligned in characters (a masked id holds a 3-byte '…').
        QCOMPARE(QString::fromUtf8(lines.at(0)).indexOf(QStringLiteral("providers")),
                 QString::fromUtf8(lines.at(1)).indexOf(QStringLiteral("gemini → qwen")));
        // Without fallback, one provider name, not "gemini -> gemini".
        QCOMPARE(cli({ QStringLiteral("--story"), kStory, QStringLiteral("--data-dir"), dir }).exitCode, 0);
        const Run all = raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir });
        QVERIFY2(!all.out.contains("gemini -> gemini") && !all.out.contains("gemini → gemini"), all.out.constData());
    }

    // `generate --engine` gives up on an engine it cannot use, within its connect timeout (10 s by
    // default), with exit code 5: a refused port, an engine that accepts and never answers, one that
    // answers garbage. (Before: still reconnecting after 100 s.)
    void unusableEngineIsGivenUpOn_data()
    {
        QTest::addColumn<QByteArray>("answer"); // what the "engine" answers; empty: nothing listens
        QTest::addColumn<bool>("listens");
        QTest::addRow("refused port") << QByteArray() << false;
        QTest::addRow("hung engine") << QByteArray() << true;
        QTest::addRow("garbage engine") << QByteArray("\x16\x03\x01 not HTTP at all\r\n\r\n") << true;
    }

    void unusableEngineIsGivenUpOn()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, listens);
        QTcpServer engine;
        QVERIFY(engine.listen(QHostAddress::LocalHost));
        const quint16 port = engine.serverPort();
        if (!listens)
            engine.close(); // the port is free: connections to it are refused
        QObject::connect(&engine, &QTcpServer::newConnection, &engine, [&] {
            while (QTcpSocket *socket = engine.nextPendingConnection()) {
                if (answer.isEmpty())
                    continue; // accepted, never answered
                socket->write(answer);
                socket->disconnectFromHost();
            }
        });
        QProcess p;
        p.setProcessEnvironment(environment({ QStringLiteral("BULLPEN_ENGINE_TOKEN=bp_test") }));
        QElapsedTimer t;
        t.start();
        p.start(QStringLiteral(BULLPEN_CLI),
                { QStringLiteral("generate"), QStringLiteral("--story"), kStory, QStringLiteral("--engine"),
                  QStringLiteral("http://127.0.0.1:%1").arg(port) });
        QSignalSpy finished(&p, &QProcess::finished); // the event loop turns meanwhile: the fake engine answers
        QVERIFY2(finished.wait(15'000), "still running after 15 s");
        qInfo("gave up after %lld ms", static_cast<long long>(t.elapsed()));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 5, err.constData());
        QVERIFY2(err.contains("could not reach the engine"), err.constData());
    }

    // One SIGINT ends `generate --engine` against a hung engine at once: nothing was started there, so
    // nothing is cancelled (no cancel with an empty id), and the exit code says cancelled.
    void oneInterruptEndsAWaitForAHungEngine()
    {
        QTcpServer engine; // accepts (the kernel does), never answers
        QVERIFY(engine.listen(QHostAddress::LocalHost));
        QProcess p;
        p.setProcessEnvironment(environment({ QStringLiteral("BULLPEN_ENGINE_TOKEN=bp_test") }));
        p.start(QStringLiteral(BULLPEN_CLI),
                { QStringLiteral("generate"), QStringLiteral("--story"), kStory, QStringLiteral("--engine"),
                  QStringLiteral("http://127.0.0.1:%1").arg(engine.serverPort()) });
        QVERIFY(p.waitForStarted(5000));
        QVERIFY(engine.waitForNewConnection(10'000)); // it is waiting on the engine now
        QSignalSpy finished(&p, &QProcess::finished);
        QElapsedTimer t;
        t.start();
        QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
        QVERIFY2(finished.wait(2000), "still running 2 s after one SIGINT");
        qInfo("ended %lld ms after SIGINT", static_cast<long long>(t.elapsed()));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 3, err.constData());
        QVERIFY2(!err.contains("cancelling on the engine"), err.constData());
    }

    // A provider added by the settings file (without a key: a self-hosted server) through the CLI: it is
    // the fallback, `history --settings --provider` finds it, and `replay` plays the generation again
    // without the settings (known from the store alone).
    void addedProviderInHistoryAndReplay()
    {
        const QString dir = m_home.filePath(QStringLiteral("added-provider"));
        QVERIFY(QDir().mkpath(dir));
        const QString settings = dir + QStringLiteral("/settings.json");
        QFile f(settings);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QJsonObject entry { { QStringLiteral("id"), QStringLiteral("acme") },
                                  { QStringLiteral("name"), QStringLiteral("Acme") },
                                  { QStringLiteral("format"), QStringLiteral("openai") },
                                  { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:9/v1") },
                                  { QStringLiteral("model"), QStringLiteral("acme-7b") } };
        f.write(QJsonDocument(QJsonObject { { QStringLiteral("storyboard"),
                                              QJsonObject { { QStringLiteral("provider"), QStringLiteral("gemini") },
                                                            { QStringLiteral("fallback_provider"), QStringLiteral("acme") } } },
                                            { QStringLiteral("providers"), QJsonArray { entry } } })
                    .toJson());
        f.close();
        const Run gen = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--simulator"), QStringLiteral("--scenario"),
                              QStringLiteral("primary-overloaded"), QStringLiteral("--settings"), settings, QStringLiteral("--data-dir"),
                              dir, QStringLiteral("--json") });
        QVERIFY2(gen.exitCode == 0, gen.err.constData());
        QCOMPARE(gen.json().value(QStringLiteral("final_model_provider")).toString(), QStringLiteral("acme"));
        const QString id = gen.json().value(QStringLiteral("generation_id")).toString();
        QCOMPARE(id.size(), 36);

        // Without the settings, acme is not a provider this command knows: refused, saying how to name it.
        const Run unknown =
            raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--provider"), QStringLiteral("acme") });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("--settings"), unknown.err.constData());
        const Run found = raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--settings"), settings,
                                QStringLiteral("--provider"), QStringLiteral("acme"), QStringLiteral("--json") });
        QVERIFY2(found.exitCode == 0, found.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(found.out).array();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("generation_id")).toString(), id);

        const Run replay = raw({ QStringLiteral("replay"), id, QStringLiteral("--data-dir"), dir, QStringLiteral("--no-store") });
        QVERIFY2(!replay.err.contains("unknown provider"), replay.err.constData());
        QVERIFY2(replay.exitCode == 0, QByteArray(replay.out + replay.err).constData());
        QVERIFY2(replay.out.contains("reproduced"), replay.out.constData()); // exit 0 says it too; the verdict in words
    }

    // A replay reads a recorded generation: a store that is not there is refused, saying what to give,
    // and none is created (it once made an empty store at the mistyped path).
    void replayRefusesAStoreThatIsNotThere()
    {
        const QString missing = m_home.filePath(QStringLiteral("no-such-folder"));
        const Run r = raw(
            { QStringLiteral("replay"), QStringLiteral("gen_00000000000000000000000000000000"), QStringLiteral("--data-dir"), missing });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no store at") && r.err.contains("--data-dir") && r.err.contains("--engine"), r.err.constData());
        QVERIFY(!QFileInfo::exists(missing));
        // Its help names the scenario format's page, which exists.
        const Run help = raw({ QStringLiteral("replay"), QStringLiteral("--help") });
        const QRegularExpression doc(QStringLiteral("docs/[a-z-]+\\.md"));
        for (auto m = doc.globalMatch(QString::fromUtf8(help.out)); m.hasNext();) {
            const QString path = m.next().captured();
            QVERIFY2(QFileInfo::exists(QStringLiteral(BULLPEN_SOURCE_DIR "/") + path),
                     qPrintable(path + QStringLiteral(" does not exist")));
        }
        QVERIFY2(help.out.contains("docs/simulator.md"), help.out.constData());
    }

    // A refused provider entry is the last line's subject too: the setting that names it points at the
    // entry, never "unknown provider".
    void refusedProviderEntryIsTheLastWord()
    {
        const QString dir = m_home.filePath(QStringLiteral("refused-provider"));
        QVERIFY(QDir().mkpath(dir));
        const QString settings = dir + QStringLiteral("/settings.json");
        QFile f(settings);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QJsonObject entry { { QStringLiteral("id"), QStringLiteral("acme") },
                                  { QStringLiteral("format"), QStringLiteral("openai") },
                                  { QStringLiteral("base_url"), QStringLiteral("ftp://127.0.0.1/v1") },
                                  { QStringLiteral("model"), QStringLiteral("acme-7b") } };
        f.write(QJsonDocument(
                    QJsonObject { { QStringLiteral("storyboard"), QJsonObject { { QStringLiteral("provider"), QStringLiteral("acme") } } },
                                  { QStringLiteral("providers"), QJsonArray { entry } } })
                    .toJson());
        f.close();
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--settings"), settings, QStringLiteral("--data-dir"), dir });
        QCOMPARE(r.exitCode, 2);
        const QByteArray last = r.err.trimmed().split('\n').constLast();
        QVERIFY2(!last.contains("unknown provider"), r.err.constData());
        QVERIFY2(last.contains("base_url") && last.contains("not an http(s) URL"), r.err.constData());
    }

    // --log-format json (docs/contract.md 12.4): every stderr line, Qt's and the CLI's own, is a JSON
    // object; a wrong value is refused before anything runs.
    void logFormatJsonMakesEveryStderrLineJson()
    {
        const Run r = cli({ QStringLiteral("--log-format"), QStringLiteral("json"), QStringLiteral("--story"), kStory,
                            QStringLiteral("--json"), QStringLiteral("--data-dir"), m_home.filePath(QStringLiteral("json-log")) });
        QCOMPARE(r.exitCode, 0);
        int lines = 0;
        for (const QByteArray &line : r.err.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY2(o.value(QStringLiteral("program")).toString() == u"bullpen-cli" && o.contains(QStringLiteral("message")),
                     line.constData());
            ++lines;
        }
        QVERIFY(lines >= 1); // at least what the engine runs on
        const Run wrong = raw({ QStringLiteral("history"), QStringLiteral("--log-format"), QStringLiteral("xml") });
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("--log-format xml: text or json"), wrong.err.constData());
    }

    // `purge`: its dry run counts what it then removes; a generation made now stays.
    void purgeRemovesOnlyWhatIsOlder()
    {
        const QString dir = m_home.filePath(QStringLiteral("purge"));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(cli({ QStringLiteral("--story"), kStory, QStringLiteral("--fresh"), QStringLiteral("--data-dir"), dir }).exitCode, 0);
        {
            // Two of the three made 10 days ago.
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("ager"));
            d.setDatabaseName(QDir(dir).filePath(QStringLiteral("bullpen.sqlite")));
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("UPDATE generations SET created_at_ms = created_at_ms - 864000000 WHERE id IN "
                                          "(SELECT id FROM generations ORDER BY created_at_ms LIMIT 2)")));
            QCOMPARE(q.numRowsAffected(), 2);
            q.finish();
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("ager"));
        const Run refused =
            raw({ QStringLiteral("purge"), QStringLiteral("--data-dir"), dir, QStringLiteral("--older-than"), QStringLiteral("7") });
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--older-than") && refused.err.contains("30d"), refused.err.constData());
        const Run dry = raw({ QStringLiteral("purge"), QStringLiteral("--data-dir"), dir, QStringLiteral("--older-than"),
                              QStringLiteral("7d"), QStringLiteral("--dry-run") });
        QCOMPARE(dry.exitCode, 0);
        const QJsonObject planned = dry.json().value(QStringLiteral("would_remove")).toObject();
        QCOMPARE(planned.value(QStringLiteral("generations")).toInt(), 2);
        QVERIFY(planned.value(QStringLiteral("events")).toInt() > 10);
        const Run done =
            raw({ QStringLiteral("purge"), QStringLiteral("--data-dir"), dir, QStringLiteral("--older-than"), QStringLiteral("7d") });
        QCOMPARE(done.exitCode, 0);
        const QJsonObject removed = done.json().value(QStringLiteral("removed")).toObject();
        for (const char *what : { "generations", "attempts", "events" })
            QCOMPARE(removed.value(QLatin1StringView(what)).toInt(), planned.value(QLatin1StringView(what)).toInt());
        QVERIFY(done.json().value(QStringLiteral("file_bytes_after")).toDouble() > 0);
        const Run left = raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--json") });
        QCOMPARE(QJsonDocument::fromJson(left.out).array().size(), 1);
    }

    void generatePrintsItsIdAndCompareRunsBothSides()
    {
        const QString dir = m_home.filePath(QStringLiteral("compare"));
        const Run g = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--data-dir"), dir });
        QCOMPARE(g.exitCode, 0);
        QVERIFY2(g.out.startsWith("generation gen_"), g.out.left(80).constData());
        QCOMPARE(g.out.indexOf('\n'), qsizetype(QByteArray("generation gen_").size() + 32)); // the whole id

        const Run c = raw({ QStringLiteral("compare"), QStringLiteral("--story"), kStory, QStringLiteral("--data-dir"), dir,
                            QStringLiteral("--json"), QStringLiteral("--scenario"), QStringLiteral("primary-overloaded") });
        QCOMPARE(c.exitCode, 1); // the left side (the overloaded primary) failed: compare never falls back
        const QJsonObject o = c.json();
        QCOMPARE(o.value(QStringLiteral("primary")).toObject().value(QStringLiteral("provider")).toString(), QStringLiteral("gemini"));
        QCOMPARE(o.value(QStringLiteral("fallback")).toObject().value(QStringLiteral("provider")).toString(), QStringLiteral("qwen"));
        QCOMPARE(o.value(QStringLiteral("primary")).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("TRANSIENT_SERVER"));
        QCOMPARE(o.value(QStringLiteral("fallback")).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
        QVERIFY(o.value(QStringLiteral("comparison_id")).toString().startsWith(QStringLiteral("cmp_")));
        QCOMPARE(o.value(QStringLiteral("words_total")).toInt(), 0); // one side failed: nothing is counted as "different"

        const Run both = raw({ QStringLiteral("compare"), QStringLiteral("--story"), kStory, QStringLiteral("--data-dir"), dir });
        QCOMPARE(both.exitCode, 0);
        QVERIFY2(both.out.contains("words differ between the two storyboards") && both.out.contains("--- panel 4"), both.out.constData());
        // Both sides are real generations in the store, whole ids in --json.
        const Run history = raw({ QStringLiteral("history"), QStringLiteral("--data-dir"), dir, QStringLiteral("--json") });
        const QJsonArray rows = QJsonDocument::fromJson(history.out).array();
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("generation_id")).toString().size(), 36);
    }

    void deprecatedModelIsWarnedAbout()
    {
        // A live configuration (nothing listens on port 9: the generation fails fast, the warning comes first).
        const Run r = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--json") },
                          { QStringLiteral("ANTHROPIC_API_KEY=test-key"), QStringLiteral("ANTHROPIC_BASE_URL=http://127.0.0.1:9/v1"),
                            QStringLiteral("ANTHROPIC_MODEL=claude-sonnet-4-5"), QStringLiteral("GEMINI_API_KEY=test-key"),
                            QStringLiteral("GEMINI_BASE_URL=http://127.0.0.1:9/v1beta"), QStringLiteral("STORYBOARD_PROVIDER=anthropic"),
                            QStringLiteral("STORYBOARD_FALLBACK_PROVIDER=none") });
        QVERIFY2(r.err.contains("warning: anthropic model claude-sonnet-4-5 re"), r.err.constData());
        QVERIFY2(r.err.contains("end of life") && r.err.contains("2026-11-30") && r.err.contains("ANTHROPIC_MODEL")
                     && r.err.contains("claude-sonnet-4-6"),
                 r.err.constData());
        // The default is not on the list.
        const Run fine = cli({ QStringLiteral("--story"), kStory, QStringLiteral("--json") },
                             { QStringLiteral("ANTHROPIC_API_KEY=test-key"), QStringLiteral("ANTHROPIC_BASE_URL=http://127.0.0.1:9/v1"),
                               QStringLiteral("GEMINI_API_KEY=test-key"), QStringLiteral("GEMINI_BASE_URL=http://127.0.0.1:9/v1beta"),
                               QStringLiteral("STORYBOARD_PROVIDER=anthropic"), QStringLiteral("STORYBOARD_FALLBACK_PROVIDER=none") });
        QVERIFY2(!fine.err.contains("end of life"), fine.err.constData());
    }

    void consoleRefusalOffscreenExitsTwo()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.insert(QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT"), QStringLiteral("xyz"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BULLPEN_GUI), {});
        QVERIFY(p.waitForFinished(30'000)); // before: blocked for ever on a dialog
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("STORYBOARD_PRIMARY_TIMEOUT"));
    }

    // `bullpen --data-dir DIR` keeps the console's history there (README), and refuses it beside --engine.
    void consoleTakesADataDir()
    {
        QTemporaryDir data;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.remove(QStringLiteral("BULLPEN_DATA_DIR"));
        p.setProcessEnvironment(env);
        const QString shot = data.filePath(QStringLiteral("window.png"));
        p.start(QStringLiteral(BULLPEN_GUI), { QStringLiteral("--data-dir"), data.path(), QStringLiteral("--grab"), shot });
        QVERIFY(p.waitForFinished(60'000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(QFile::exists(shot));
        QVERIFY(QFile::exists(data.filePath(QStringLiteral("bullpen.sqlite"))));
        p.start(QStringLiteral(BULLPEN_GUI),
                { QStringLiteral("--data-dir"), data.path(), QStringLiteral("--engine"), QStringLiteral("http://127.0.0.1:9") });
        QVERIFY(p.waitForFinished(30'000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--data-dir"));
    }
};

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
