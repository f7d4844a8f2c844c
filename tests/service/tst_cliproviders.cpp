// SPDX-License-Identifier: MIT
// `bullpen-cli provider list` (docs/cli.md) end to end: against a real bullpen-engine whose settings file
// adds a provider (not a built-in), after a generation that fell back to it, and from the same settings
// file with no engine. The columns come from one table and the JSON from the listing's codec
// (wire/providerlisting.h), which reads back what the CLI printed.
#include "engineprocess.h"
#include "wire/providerlisting.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

const QString kStory =
    QStringLiteral("Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together.");

// The provider the settings file adds: an OpenAI-compatible server with a price of its own.
QJsonObject acmeEntry()
{
    return QJsonObject { { QStringLiteral("id"), QStringLiteral("acme") },
                         { QStringLiteral("name"), QStringLiteral("Acme") },
                         { QStringLiteral("format"), QStringLiteral("openai") },
                         { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:9/v1") },
                         { QStringLiteral("model"), QStringLiteral("acme-7b") },
                         { QStringLiteral("price"),
                           QJsonObject { { QStringLiteral("input_per_1m"), 1.5 }, { QStringLiteral("output_per_1m"), 2 } } } };
}

// The table's row of `id` (its first cell), split on runs of spaces; empty when absent.
QStringList rowOf(const QByteArray &table, const QString &id)
{
    for (const QByteArray &line : table.split('\n')) {
        const QString text = QString::fromUtf8(line);
        if (text.startsWith(id + QLatin1Char(' ')))
            return text.split(QRegularExpression(QStringLiteral("\\s{2,}")), Qt::SkipEmptyParts);
    }
    return {};
}

// A second added provider that no policy names: the engine knows it only from its settings file.
QJsonObject betaEntry()
{
    return QJsonObject { { QStringLiteral("id"), QStringLiteral("beta") },
                         { QStringLiteral("format"), QStringLiteral("anthropic") },
                         { QStringLiteral("base_url"), QStringLiteral("https://beta.example/v1") },
                         { QStringLiteral("model"), QStringLiteral("beta-1") } };
}

} // namespace

class tst_CliProviders : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_settings;
    std::unique_ptr<test::Engine> m_engine;
    QString m_operator;

    Run cli(const QStringList &args)
    {
        Run r;
        QProcess p;
        QProcessEnvironment env = m_engine->environment();
        env.insert(QStringLiteral("BULLPEN_ENGINE_TOKEN"), m_operator);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BULLPEN_CLI), args);
        if (!p.waitForFinished(60'000))
            return r;
        r.exitCode = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    QStringList engineArgs() const { return { QStringLiteral("--engine"), m_engine->url.toString() }; }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_settings = m_home.filePath(QStringLiteral("settings.json"));
        QFile f(m_settings);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject { { QStringLiteral("storyboard"),
                                              QJsonObject { { QStringLiteral("provider"), QStringLiteral("gemini") },
                                                            { QStringLiteral("fallback_provider"), QStringLiteral("acme") } } },
                                            { QStringLiteral("providers"), QJsonArray { acmeEntry(), betaEntry() } } })
                    .toJson());
        f.close();
        m_engine = std::make_unique<test::Engine>(m_home.filePath(QStringLiteral("engine")));
        m_operator = m_engine->token(QStringLiteral("ops"), QStringLiteral("operator"));
        QVERIFY(!m_operator.isEmpty());
        QVERIFY2(m_engine->start({ QStringLiteral("--settings"), m_settings }), m_engine->stderrText().constData());
        // One generation whose primary is overloaded: gemini fails, acme (the added fallback) answers.
        const Run gen = cli(QStringList { QStringLiteral("generate"), QStringLiteral("--story"), kStory, QStringLiteral("--scenario"),
                                          QStringLiteral("primary-overloaded"), QStringLiteral("--json") }
                            + engineArgs());
        QVERIFY2(gen.exitCode == 0, gen.err.constData());
        QCOMPARE(QJsonDocument::fromJson(gen.out).object().value(QStringLiteral("final_model_provider")).toString(),
                 QStringLiteral("acme"));
    }
    void cleanupTestCase() { m_engine.reset(); }

    // The table: one row per provider the engine knows, the added one with its dialect, host, stages,
    // role in the policy and price, and the last minutes' attempts the engine counted.
    void engineTableListsTheAddedProvider()
    {
        const Run r = cli(QStringList { QStringLiteral("provider"), QStringLiteral("list") } + engineArgs());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList header = rowOf(r.out, QStringLiteral("ID"));
        QVERIFY2(header.contains(QStringLiteral("5M ATTEMPTS")) && header.contains(QStringLiteral("STATE")), r.out.constData());
        const QStringList acme = rowOf(r.out, QStringLiteral("acme"));
        QVERIFY2(acme.size() == header.size(), r.out.constData());
        const auto cell = [&](const QStringList &row, const char *column) {
            return row.value(header.indexOf(QLatin1StringView(column)));
        };
        QCOMPARE(cell(acme, "DIALECT"), QStringLiteral("openai"));
        QVERIFY2(cell(acme, "HOST").startsWith(QStringLiteral("127.0.0.1:")), r.out.constData());
        QCOMPARE(cell(acme, "STAGES"), QStringLiteral("storyboard,captions"));
        QVERIFY2(cell(acme, "ROLES").startsWith(QStringLiteral("fallback/storyboard")), r.out.constData()); // then its breakers' roles
        QCOMPARE(cell(acme, "PRICE"), QStringLiteral("1.50/2.00 per 1M USD"));
        QVERIFY2(cell(acme, "5M ATTEMPTS").toInt() >= 1, r.out.constData());
        const QStringList gemini = rowOf(r.out, QStringLiteral("gemini"));
        QVERIFY2(cell(gemini, "ROLES").split(QLatin1Char(',')).contains(QStringLiteral("primary/image")), r.out.constData());
        QVERIFY2(cell(gemini, "ROLES").startsWith(QStringLiteral("primary/storyboard")), r.out.constData());
        QVERIFY2(cell(gemini, "5M ERR%").toDouble() > 0, r.out.constData()); // overloaded
        for (const char *id : { "qwen", "openai", "anthropic" })
            QVERIFY2(!rowOf(r.out, QString::fromLatin1(id)).isEmpty(), id);
    }

    // A drain of the provider no policy names shows on its row: its id is known to the CLI from the
    // engine's list alone, so the engine's drain rows that name it read.
    void drainOfAnUnnamedAddedProvider()
    {
        const Run drain = cli(QStringList { QStringLiteral("provider"), QStringLiteral("drain"), QStringLiteral("beta"),
                                            QStringLiteral("--reason"), QStringLiteral("vendor maintenance") }
                              + engineArgs());
        QVERIFY2(drain.exitCode == 0, drain.err.constData());
        const Run r = cli(QStringList { QStringLiteral("provider"), QStringLiteral("list") } + engineArgs());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList header = rowOf(r.out, QStringLiteral("ID"));
        const QStringList beta = rowOf(r.out, QStringLiteral("beta"));
        QCOMPARE(beta.value(header.indexOf(QStringLiteral("DIALECT"))), QStringLiteral("anthropic"));
        QCOMPARE(beta.value(header.indexOf(QStringLiteral("STATE"))), QStringLiteral("DRAINED"));
        QVERIFY2(r.out.contains("vendor maintenance"), r.out.constData());
        const Run restore =
            cli(QStringList { QStringLiteral("provider"), QStringLiteral("restore"), QStringLiteral("beta") } + engineArgs());
        QVERIFY2(restore.exitCode == 0, restore.err.constData());
    }

    // --json: the listing as its codec writes it, read back by the same codec.
    void engineJsonReadsBackThroughTheCodec()
    {
        const Run r = cli(QStringList { QStringLiteral("provider"), QStringLiteral("list"), QStringLiteral("--json") } + engineArgs());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto read = ProviderListingJson::fromJson(QJsonDocument::fromJson(r.out).object());
        QVERIFY2(std::holds_alternative<QList<ProviderListing>>(read),
                 qPrintable(std::holds_alternative<FieldError>(read) ? std::get<FieldError>(read).toString() : QString()));
        const QList<ProviderListing> listing = std::get<QList<ProviderListing>>(read);
        const auto acme = std::find_if(listing.begin(), listing.end(), [](const ProviderListing &l) { return l.spec.id == u"acme"; });
        QVERIFY2(acme != listing.end(), r.out.constData());
        QVERIFY(!acme->spec.builtIn);
        QCOMPARE(acme->spec.model, QStringLiteral("acme-7b"));
        QCOMPARE(acme->roles.value(0), QStringLiteral("fallback/storyboard"));
        QVERIFY(acme->last5m && acme->last5m->attempts >= 1);
        QVERIFY(!acme->breakers.isEmpty()); // the engine's breaker of acme as fallback of the storyboard
        QCOMPARE(listing.size(), 6);
    }

    // Without an engine: the same settings file's providers, from the same table less the engine's columns.
    void settingsFileWithoutAnEngine()
    {
        const Run r = cli({ QStringLiteral("provider"), QStringLiteral("list"), QStringLiteral("--settings"), m_settings });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList header = rowOf(r.out, QStringLiteral("ID"));
        QVERIFY2(!header.contains(QStringLiteral("STATE")) && !header.contains(QStringLiteral("5M ATTEMPTS")), r.out.constData());
        const QStringList acme = rowOf(r.out, QStringLiteral("acme"));
        QCOMPARE(acme.value(header.indexOf(QStringLiteral("HOST"))), QStringLiteral("127.0.0.1:9"));
        QCOMPARE(acme.value(header.indexOf(QStringLiteral("ROLES"))), QStringLiteral("fallback/storyboard")); // no engine, no breakers
    }

    // Refusals say what to do next.
    void refusals()
    {
        const Run missing = cli({ QStringLiteral("provider"), QStringLiteral("list"), QStringLiteral("--settings"),
                                  m_home.filePath(QStringLiteral("nothing.json")) });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("no such file"), missing.err.constData());
        const Run both = cli(QStringList { QStringLiteral("provider"), QStringLiteral("list"), QStringLiteral("--settings"), m_settings }
                             + engineArgs());
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("not both"), both.err.constData());
    }
};

QTEST_GUILESS_MAIN(tst_CliProviders)
#include "tst_cliproviders.moc"
