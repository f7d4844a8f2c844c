// SPDX-License-Identifier: MIT
// docs/contract.md §4.6: environment over settings file over defaults; start-up refusals that name the setting.
#include "config/eventloops.h"
#include "config/keytransport.h"
#include "config/modeldeprecations.h"
#include "config/settings.h"
#include "config/settingstable.h"

#include <QAbstractEventDispatcher>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

QProcessEnvironment env(std::initializer_list<std::pair<const char *, const char *>> vars)
{
    QProcessEnvironment e;
    for (const auto &[k, v] : vars)
        e.insert(QString::fromLatin1(k), QString::fromUtf8(v));
    return e;
}

QString writeFile(const QTemporaryDir &dir, const char *name, const QByteArray &content, QFileDevice::Permissions perms)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(content);
    f.close();
    f.setPermissions(perms);
    return path;
}

QString joined(const QList<ConfigError> &errors)
{
    QStringList out;
    for (const ConfigError &e : errors)
        out << e.toString();
    return out.join(u'\n');
}

constexpr auto kOwnerRw = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

} // namespace

class tst_Settings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A key over plain http to another host can be read on the way: said (not refused), with what to do.
    void plainHttpKeyToAnotherHostIsWarned_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("withKey");
        QTest::addColumn<bool>("warned");
        QTest::addRow("https elsewhere") << "https://api.example.com/v1" << true << false;
        QTest::addRow("http elsewhere") << "http://api.example.com/v1" << true << true;
        QTest::addRow("HTTP by address") << "HTTP://10.0.0.7:8000/v1" << true << true;
        QTest::addRow("http without a key") << "http://api.example.com/v1" << false << false;
        QTest::addRow("http loopback v4") << "http://127.0.0.1:8000/v1" << true << false;
        QTest::addRow("http loopback 127/8") << "http://127.1.2.3:8000/v1" << true << false;
        QTest::addRow("http loopback v6") << "http://[::1]:8000/v1" << true << false;
        QTest::addRow("http localhost") << "http://localhost:11434/v1" << true << false;
        QTest::addRow("http localhost lookalike") << "http://localhost.example.com/v1" << true << true;
    }
    void plainHttpKeyToAnotherHostIsWarned()
    {
        QFETCH(QString, url);
        QFETCH(bool, withKey);
        QFETCH(bool, warned);
        Settings s = Settings::defaults();
        ProviderSettings &openai = s.providers[Provider::OpenAI];
        openai.baseUrl = QUrl(url);
        openai.apiKey = withKey ? QStringLiteral("sk-test-0123456789abcdef") : QString();
        const QList<KeyTransportWarning> warnings = keyTransportWarnings(s);
        QCOMPARE(warnings.size(), warned ? 1 : 0);
        if (warned) {
            QCOMPARE(warnings.first().provider, Provider::OpenAI);
            QVERIFY2(warnings.first().text.contains(QLatin1StringView("https://")), qPrintable(warnings.first().text));
            QVERIFY2(!warnings.first().text.contains(openai.apiKey), "the key itself is never in the warning");
        }
    }

    void defaults()
    {
        const SettingsLoad load = SettingsLoader::load({}, {}, env({ { "GEMINI_API_KEY", "g-key" } }));
        QVERIFY2(load.ok(), qPrintable(joined(load.errors)));
        const Settings &s = load.settings;
        QCOMPARE(s.storyboard.primary, Provider::Gemini);
        QVERIFY(!s.storyboard.fallback); // fallback defaults to none
        QCOMPARE(s.storyboard.primaryTimeout, 60s);
        QCOMPARE(s.storyboard.fallbackTimeout, 60s);
        QCOMPARE(s.storyboardPolicy().effectiveBudget(), 60s); // primary timeout alone without a fallback
        QCOMPARE(s.provider(Provider::Gemini).keySource, SettingSource::Environment);
        QVERIFY(!s.noProviderConfigured());
    }

    void environmentFromTheSourceDocument()
    {
        const SettingsLoad load = SettingsLoader::load({}, {},
                                                       env({ { "STORYBOARD_PROVIDER", "gemini" },
                                                             { "STORYBOARD_FALLBACK_PROVIDER", "qwen" },
                                                             { "STORYBOARD_PRIMARY_TIMEOUT", "60s" },
                                                             { "STORYBOARD_FALLBACK_TIMEOUT", "45s" },
                                                             { "GEMINI_API_KEY", "g" },
                                                             { "DASHSCOPE_API_KEY", "d" },
                                                             { "DASHSCOPE_BASE_URL", "http://127.0.0.1:8080/compatible-mode/v1" } }));
        QVERIFY2(load.ok(), qPrintable(joined(load.errors)));
        const StagePolicy p = load.settings.storyboardPolicy();
        QCOMPARE(p.fallback, Provider::Qwen);
        QCOMPARE(p.fallbackTimeout, 45s);
        QCOMPARE(p.effectiveBudget(), 105s);
        QCOMPARE(load.settings.provider(Provider::Qwen).baseUrl.port(), 8080);
    }

    void refusals_data()
    {
        QTest::addColumn<QProcessEnvironment>("environment");
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("says");

        QTest::newRow("same provider twice") << env({ { "STORYBOARD_FALLBACK_PROVIDER", "gemini" }, { "GEMINI_API_KEY", "g" } })
                                             << QStringLiteral("STORYBOARD_FALLBACK_PROVIDER") << QStringLiteral("same provider");
        QTest::newRow("missing primary key") << env({}) << QStringLiteral("GEMINI_API_KEY") << QStringLiteral("STORYBOARD_PROVIDER=gemini");
        QTest::newRow("missing fallback key") << env({ { "STORYBOARD_FALLBACK_PROVIDER", "qwen" }, { "GEMINI_API_KEY", "g" } })
                                              << QStringLiteral("DASHSCOPE_API_KEY") << QStringLiteral("STORYBOARD_FALLBACK_PROVIDER=qwen");
        QTest::newRow("empty key counts as missing")
            << env({ { "GEMINI_API_KEY", "  " } }) << QStringLiteral("GEMINI_API_KEY") << QStringLiteral("needs an API key");
        QTest::newRow("timeout without unit") << env({ { "STORYBOARD_PRIMARY_TIMEOUT", "60" }, { "GEMINI_API_KEY", "g" } })
                                              << QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT") << QStringLiteral("with a unit");
        QTest::newRow("zero timeout") << env({ { "STORYBOARD_FALLBACK_TIMEOUT", "0s" }, { "GEMINI_API_KEY", "g" } })
                                      << QStringLiteral("STORYBOARD_FALLBACK_TIMEOUT") << QStringLiteral("greater than zero");
        QTest::newRow("negative timeout") << env({ { "STORYBOARD_PRIMARY_TIMEOUT", "-5s" }, { "GEMINI_API_KEY", "g" } })
                                          << QStringLiteral("STORYBOARD_PRIMARY_TIMEOUT") << QStringLiteral("not a duration");
        QTest::newRow("garbage budget") << env({ { "STORYBOARD_TOTAL_BUDGET", "two minutes" }, { "GEMINI_API_KEY", "g" } })
                                        << QStringLiteral("STORYBOARD_TOTAL_BUDGET") << QStringLiteral("not a duration");
        QTest::newRow("unknown provider") << env({ { "STORYBOARD_PROVIDER", "bard" }, { "GEMINI_API_KEY", "g" } })
                                          << QStringLiteral("STORYBOARD_PROVIDER") << QStringLiteral("unknown provider \"bard\"");
        QTest::newRow("bad base URL") << env({ { "GEMINI_BASE_URL", "ftp://x" }, { "GEMINI_API_KEY", "g" } })
                                      << QStringLiteral("GEMINI_BASE_URL") << QStringLiteral("http(s) endpoint");
        QTest::newRow("unknown policy") << env({ { "STORYBOARD_POLICY", "yolo" }, { "GEMINI_API_KEY", "g" } })
                                        << QStringLiteral("STORYBOARD_POLICY") << QStringLiteral("relief, capacity, rounds");
    }

    void refusals()
    {
        QFETCH(QProcessEnvironment, environment);
        QFETCH(QString, setting);
        QFETCH(QString, says);
        const SettingsLoad load = SettingsLoader::load({}, {}, environment);
        QVERIFY(!load.ok());
        const QString all = joined(load.errors);
        const bool found = std::any_of(load.errors.cbegin(), load.errors.cend(),
                                       [&](const ConfigError &e) { return e.setting.startsWith(setting) && e.toString().contains(says); });
        QVERIFY2(found, qPrintable(all));
    }

    void fallbackNoneAndSimulatorMode()
    {
        const SettingsLoad load = SettingsLoader::load({}, {}, env({ { "STORYBOARD_FALLBACK_PROVIDER", "none" } }), /*requireKeys=*/false);
        QVERIFY2(load.ok(), qPrintable(joined(load.errors)));
        QVERIFY(!load.settings.storyboard.fallback);
        QVERIFY(load.settings.noProviderConfigured());
    }

    void fileThenEnvironment()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = writeFile(dir, "bullpen.json", R"({
            "storyboard": {"policy": "capacity", "provider": "gemini", "fallback_provider": "openai",
                           "primary_timeout": "30s", "fallback_timeout": "1500ms", "total_budget": "40s"},
            "providers": {"openai": {"base_url": "http://127.0.0.1:9/v1", "model": "gpt-test"}}})",
                                       kOwnerRw | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        const SettingsLoad load = SettingsLoader::load(
            file, {}, env({ { "STORYBOARD_PRIMARY_TIMEOUT", "20s" }, { "GEMINI_API_KEY", "g" }, { "OPENAI_API_KEY", "o" } }));
        QVERIFY2(load.ok(), qPrintable(joined(load.errors)));
        const StagePolicy p = load.settings.storyboardPolicy();
        QCOMPARE(p.preset, QStringLiteral("capacity"));
        QCOMPARE(p.fallback, Provider::OpenAI);
        QCOMPARE(p.primaryTimeout, 20s); // the environment wins
        QCOMPARE(p.fallbackTimeout, 1500ms);
        QCOMPARE(p.effectiveBudget(), 40s);
        QCOMPARE(load.settings.provider(Provider::OpenAI).model, QStringLiteral("gpt-test"));
    }

    void brokenFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("says");
        QTest::newRow("not JSON") << QByteArray("{\"storyboard\": ") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[]") << QStringLiteral("JSON object");
        QTest::newRow("timeout as number") << QByteArray(R"({"storyboard":{"primary_timeout":60}})") << QStringLiteral("must be a string");
        QTest::newRow("bad timeout text") << QByteArray(R"({"storyboard":{"primary_timeout":"soon"}})")
                                          << QStringLiteral("storyboard.primary_timeout");
        QTest::newRow("key in settings file") << QByteArray(R"({"providers":{"gemini":{"api_key":"AIza-secret"}}})")
                                              << QStringLiteral("do not belong in the settings file");
        QTest::newRow("unknown provider section") << QByteArray(R"({"providers":{"bard":{}}})") << QStringLiteral("providers.bard");
        QTest::newRow("same provider from file")
            << QByteArray(R"({"storyboard":{"provider":"qwen","fallback_provider":"qwen"}})") << QStringLiteral("settings file");
    }

    void brokenFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString file = writeFile(dir, "bullpen.json", content, kOwnerRw);
        const SettingsLoad load = SettingsLoader::load(file, {}, env({ { "GEMINI_API_KEY", "g" }, { "DASHSCOPE_API_KEY", "d" } }));
        QVERIFY(!load.ok());
        const QString all = joined(load.errors);
        QVERIFY2(all.contains(says), qPrintable(all));
        QVERIFY2(all.contains(file), qPrintable(all)); // names the file
        QVERIFY2(!all.contains(QStringLiteral("AIza-secret")), "a key must never be echoed back");
    }

    void keyFile()
    {
        QTemporaryDir dir;
        const QString keys = writeFile(dir, "keys.env", "# Bullpen keys\nGEMINI_API_KEY = from-file\nDASHSCOPE_API_KEY=d\n", kOwnerRw);
        const SettingsLoad load =
            SettingsLoader::load({}, keys, env({ { "STORYBOARD_FALLBACK_PROVIDER", "qwen" }, { "DASHSCOPE_API_KEY", "env-wins" } }));
        QVERIFY2(load.ok(), qPrintable(joined(load.errors)));
        QCOMPARE(load.settings.provider(Provider::Gemini).apiKey, QStringLiteral("from-file"));
        QCOMPARE(load.settings.provider(Provider::Gemini).keySource, SettingSource::KeyFile);
        QCOMPARE(load.settings.provider(Provider::Qwen).apiKey, QStringLiteral("env-wins"));
    }

    void keyFileReadableByOthersIsRefused()
    {
        QTemporaryDir dir;
        const QString keys =
            writeFile(dir, "keys.env", "GEMINI_API_KEY=leaky\n", kOwnerRw | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        const SettingsLoad load = SettingsLoader::load({}, keys, env({}));
        QVERIFY(!load.ok());
        const QString all = joined(load.errors);
        QVERIFY2(all.contains(QStringLiteral("chmod 600")), qPrintable(all));
        QVERIFY(load.settings.provider(Provider::Gemini).apiKey.isEmpty()); // not read
        QVERIFY(!all.contains(QStringLiteral("leaky")));
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("60s") << QStringLiteral("60s") << qint64(60'000);
        QTest::newRow("1500ms") << QStringLiteral("1500ms") << qint64(1500);
        QTest::newRow("2m") << QStringLiteral("2m") << qint64(120'000);
        QTest::newRow("1.5s") << QStringLiteral(" 1.5s ") << qint64(1500);
        QTest::newRow("1h") << QStringLiteral("1h") << qint64(3'600'000);
        QTest::newRow("bare number") << QStringLiteral("60") << qint64(-1);
        QTest::newRow("zero") << QStringLiteral("0ms") << qint64(-1);
        QTest::newRow("too long") << QStringLiteral("48h") << qint64(-1);
        QTest::newRow("empty") << QString() << qint64(-1);
    }

    void durations()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ms);
        QString why;
        const auto d = parseDuration(text, &why);
        QCOMPARE(d ? d->count() : qint64(-1), ms);
        QCOMPARE(why.isEmpty(), d.has_value());
    }

    // Every row of the settings table, whatever its type and section: a value other than its default is
    // read from the environment and from the settings file (under its section), written by the
    // settings file writer and read back the same; a value that does not parse is refused naming the
    // variable, or the file and the row's key.
    void everySettingRowReadsWritesAndRefuses_data()
    {
        QTest::addColumn<int>("index");
        for (qsizetype i = 0; i < settingRows().size(); ++i)
            QTest::newRow(qPrintable(settingRows().at(i).envVar)) << int(i);
    }

    void everySettingRowReadsWritesAndRefuses() // and its variable overrides the file's value
    {
        QFETCH(int, index);
        const SettingRow &row = settingRows().at(index);
        const QVariant before = row.get(Settings::defaults());
        QString text; // a value other than the default, as a user types it
        QString bad; // one the row refuses
        switch (row.type) {
        case SettingType::Switch:
            text = before.toBool() ? QStringLiteral("off") : QStringLiteral("on");
            bad = QStringLiteral("maybe");
            break;
        case SettingType::Duration:
            text = QStringLiteral("7s");
            bad = QStringLiteral("7");
            break;
        case SettingType::Count:
            text = QString::number(before.toInt() == int(row.low) + 1 ? int(row.low) + 2 : int(row.low) + 1);
            bad = QString::number(row.high + 1, 'f', 0);
            break;
        case SettingType::Ratio:
            text = QStringLiteral("25%");
            bad = QStringLiteral("0");
            break;
        case SettingType::Text:
            text = row.envVar == u"STORYBOARD_POLICY" ? StagePolicy::presetNames().last() : QStringLiteral("none");
            break;
        }
        // As the file and the docs write it, the value reads back as typed ("off", "7s", "25%").
        QVERIFY(text != row.format(before));
        const auto check = [&](const SettingsLoad &load, const char *where) {
            const QVariant got = row.get(load.settings);
            QVERIFY2(got.isValid() && row.format(got) == text,
                     qPrintable(QStringLiteral("%1 from %2: %3, not %4").arg(row.envVar, QLatin1StringView(where), row.format(got), text)));
        };
        QProcessEnvironment environment;
        environment.insert(row.envVar, text);
        const SettingsLoad fromEnv = SettingsLoader::load({}, {}, environment, /*requireKeys=*/false);
        check(fromEnv, "the environment");

        // Written by the settings file writer, then read back: the key sits in its section.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("bullpen.json"));
        QString error;
        QVERIFY2(SettingsFile::save(fromEnv.settings, file, &error), qPrintable(error));
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(written.readAll()).object();
        const QStringList path = row.fileKey.split(QLatin1Char('.'));
        const QJsonValue atKey = path.size() == 1 ? root.value(path.at(0)) : root.value(path.at(0)).toObject().value(path.at(1));
        QVERIFY2(!atKey.isUndefined(), qPrintable(row.fileKey + QStringLiteral(" not written")));
        check(SettingsLoader::load(file, {}, {}, false), "the settings file");

        // Both at once: the file holds `text`, the environment another value, and the environment wins.
        // The other value: the default, or for a row unset by default another of its type.
        const auto another = [&]() -> QString {
            if (before.isValid() && row.format(before) != text)
                return row.format(before);
            switch (row.type) {
            case SettingType::Switch:
                return text == u"on" ? QStringLiteral("off") : QStringLiteral("on");
            case SettingType::Duration:
                return QStringLiteral("9s");
            case SettingType::Count:
                return QString::number(int(row.low) + 3);
            case SettingType::Ratio:
                return QStringLiteral("40%");
            case SettingType::Text:
                return QStringLiteral("env-") + text; // read as typed; what it must name is validate()'s (refusals())
            }
            return QString();
        };
        const QString envText = another();
        QVERIFY2(envText != text, qPrintable(row.envVar + QStringLiteral(": no second value to set in the environment")));
        QProcessEnvironment overriding;
        overriding.insert(row.envVar, envText);
        const SettingsLoad both = SettingsLoader::load(file, {}, overriding, false);
        QVERIFY2(row.format(row.get(both.settings)) == envText,
                 qPrintable(QStringLiteral("%1 = %2 over the file's %3 = %4: read %5")
                                .arg(row.envVar, envText, row.fileKey, text, row.format(row.get(both.settings)))));

        if (bad.isEmpty())
            return; // a string takes any text; what it must name is validate()'s to say (refusals())
        QProcessEnvironment wrong;
        wrong.insert(row.envVar, bad);
        const SettingsLoad refused = SettingsLoader::load({}, {}, wrong, false);
        QVERIFY2(!refused.errors.isEmpty() && refused.errors.first().setting.startsWith(row.envVar), qPrintable(joined(refused.errors)));
        QJsonObject badRoot;
        QJsonObject section;
        if (path.size() == 1) {
            badRoot.insert(path.at(0), bad);
        } else {
            section.insert(path.at(1), bad);
            badRoot.insert(path.at(0), section);
        }
        const QString badFile = writeFile(dir, "bad.json", QJsonDocument(badRoot).toJson(), kOwnerRw);
        const SettingsLoad fileRefused = SettingsLoader::load(badFile, {}, {}, false);
        QVERIFY2(!fileRefused.errors.isEmpty(), qPrintable(row.fileKey));
        QCOMPARE(fileRefused.errors.first().setting, QStringLiteral("%1: %2").arg(badFile, row.fileKey));
    }

    void deprecatedModelsAreNamedWithTheirDate()
    {
        const QString past = deprecationWarning(Provider::Anthropic, QStringLiteral("claude-sonnet-4-5"), QDate(2026, 12, 1));
        QVERIFY2(past.contains(QStringLiteral("reached its end of life on 2026-11-30")), qPrintable(past));
        QVERIFY(past.contains(QStringLiteral("ANTHROPIC_MODEL")) && past.contains(QStringLiteral("claude-sonnet-4-6")));
        const QString ahead = deprecationWarning(Provider::Anthropic, QStringLiteral("claude-opus-4-5"), QDate(2027, 1, 12));
        QVERIFY2(ahead.contains(QStringLiteral("on 2027-01-22, in 10 days")), qPrintable(ahead));
        QVERIFY(deprecationWarning(Provider::OpenAI, QStringLiteral("claude-sonnet-4-5")).isEmpty()); // per provider
        // No default model is on the list.
        const Settings d = Settings::defaults();
        for (const auto &[p, ps] : d.providers)
            QVERIFY2(!deprecationOf(p, ps.model), qPrintable(ps.model));
    }

    // The programs give every thread but the GUI thread Qt's own event loop (config/eventloops.h): a
    // thread started after the choice, as the engine's and Qt's network threads are, gets it; a choice
    // the user made in the environment, even an empty one, is left alone.
    void threadsStartedAfterTheChoiceRunQtsOwnEventLoop()
    {
        const QByteArray noGlib = qgetenv("QT_NO_GLIB");
        const bool noGlibSet = qEnvironmentVariableIsSet("QT_NO_GLIB");
        const QByteArray noThreaded = qgetenv("QT_NO_THREADED_GLIB");
        const bool noThreadedSet = qEnvironmentVariableIsSet("QT_NO_THREADED_GLIB");
        const auto dispatcherOfANewThread = [] {
            QByteArray name;
            std::unique_ptr<QThread> thread(QThread::create([&name] {
                QEventLoop loop; // makes the thread's dispatcher
                name = QAbstractEventDispatcher::instance()->metaObject()->className();
            }));
            thread->start();
            thread->wait();
            return name;
        };

        qunsetenv("QT_NO_GLIB");
        qputenv("QT_NO_THREADED_GLIB", QByteArray()); // the user's: GLib everywhere
        chooseEventLoops(GlibLoops::GuiThreadOnly);
        QCOMPARE(qgetenv("QT_NO_THREADED_GLIB"), QByteArray());
        QVERIFY(!qEnvironmentVariableIsSet("QT_NO_GLIB"));

        qunsetenv("QT_NO_THREADED_GLIB");
        chooseEventLoops(GlibLoops::GuiThreadOnly);
        QCOMPARE(qgetenv("QT_NO_THREADED_GLIB"), QByteArrayLiteral("1"));
        QVERIFY(!qEnvironmentVariableIsSet("QT_NO_GLIB"));
        QCOMPARE(dispatcherOfANewThread(), QByteArrayLiteral("QEventDispatcherUNIX"));

        qunsetenv("QT_NO_THREADED_GLIB");
        chooseEventLoops(GlibLoops::None);
        QCOMPARE(qgetenv("QT_NO_GLIB"), QByteArrayLiteral("1"));
        QCOMPARE(dispatcherOfANewThread(), QByteArrayLiteral("QEventDispatcherUNIX"));

        noGlibSet ? qputenv("QT_NO_GLIB", noGlib) : qunsetenv("QT_NO_GLIB");
        noThreadedSet ? qputenv("QT_NO_THREADED_GLIB", noThreaded) : qunsetenv("QT_NO_THREADED_GLIB");
    }
};

QTEST_GUILESS_MAIN(tst_Settings)
#include "tst_settings.moc"
