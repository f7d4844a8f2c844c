// SPDX-License-Identifier: MIT
// docs/configuration.md, "Providers": a provider added by the settings file is a provider everywhere a
// built-in one is: settings and their refusals, the wire (its URL shape, auth header and query), the
// simulator (its own path), the engine's fallback, the history filter, the metrics and health.
#include "config/providerentries.h"
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "contract/providertable.h"
#include "engineprocess.h"
#include "history/historyreader.h"
#include "hostileserver.h"
#include "pipeline/nextstep.h"
#include "providers/wireformat.h"
#include "replay/replayscenario.h"
#include "runtime/enginesetup.h"
#include "sim/providersimulator.h"
#include "sim/simwire.h"
#include "sim/storyboardsynth.h"
#include "store/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace bullpen;

namespace {

QJsonObject localVllm()
{
    return QJsonObject { { QStringLiteral("id"), QStringLiteral("local-vllm") },
                         { QStringLiteral("name"), QStringLiteral("Local vLLM") },
                         { QStringLiteral("format"), QStringLiteral("openai") },
                         { QStringLiteral("base_url"), QStringLiteral("http://10.0.0.5:8000/v1") },
                         { QStringLiteral("model"), QStringLiteral("Qwen/Qwen2.5-7B-Instruct") } };
}

QJsonObject azure()
{
    return QJsonObject { { QStringLiteral("id"), QStringLiteral("azure") },
                         { QStringLiteral("name"), QStringLiteral("Azure OpenAI") },
                         { QStringLiteral("format"), QStringLiteral("openai") },
                         { QStringLiteral("base_url"), QStringLiteral("https://contoso.openai.azure.com/openai/deployments/storyboard") },
                         { QStringLiteral("model"), QStringLiteral("gpt-4.1-mini") },
                         { QStringLiteral("key_variable"), QStringLiteral("AZURE_OPENAI_API_KEY") },
                         { QStringLiteral("auth_header"), QStringLiteral("api-key") },
                         { QStringLiteral("query"), QJsonObject { { QStringLiteral("api-version"), QStringLiteral("2024-10-21") } } } };
}

QJsonObject with(QJsonObject o, const QString &key, const QJsonValue &value)
{
    if (value.isUndefined())
        o.remove(key);
    else
        o.insert(key, value);
    return o;
}

QString writeSettings(const QTemporaryDir &dir, const QJsonObject &root)
{
    const QString path = dir.filePath(QStringLiteral("bullpen.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(QJsonDocument(root).toJson());
    return path;
}

QJsonObject settingsWith(const QJsonArray &providers, const QString &fallback = QStringLiteral("local-vllm"))
{
    return QJsonObject { { QStringLiteral("storyboard"),
                           QJsonObject { { QStringLiteral("provider"), QStringLiteral("gemini") },
                                         { QStringLiteral("fallback_provider"), fallback } } },
                         { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
                         { QStringLiteral("providers"), providers } };
}

// An attached connection's table (RemoteConnection, from GET /v1/config) for an engine whose
// settings add azure().
ProviderTable engineAddingAzure(QList<ConfigError> *errors)
{
    ProviderTable table;
    table.adopt(ProviderEntries::read(QJsonArray { azure() }, QStringLiteral("engine"), errors).added);
    return table;
}

} // namespace

class tst_AddedProviders : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    // Every refusal names the entry and the field, and says what to do.
    void refusals_data()
    {
        QTest::addColumn<QJsonArray>("providers");
        QTest::addColumn<QString>("setting"); // a part of the refusal's setting
        QTest::addColumn<QString>("message"); // a part of its message
        QTest::newRow("duplicate id") << QJsonArray { localVllm(), localVllm() } << QStringLiteral("providers[1] (local-vllm).id")
                                      << QStringLiteral("listed twice");
        QTest::newRow("malformed id") << QJsonArray { with(localVllm(), QStringLiteral("id"), QStringLiteral("Local vLLM!")) }
                                      << QStringLiteral("providers[0] (Local vLLM!).id") << QStringLiteral("is not an id");
        QTest::newRow("unknown format") << QJsonArray { with(localVllm(), QStringLiteral("format"), QStringLiteral("cohere")) }
                                        << QStringLiteral("providers[0] (local-vllm).format")
                                        << QStringLiteral("use openai, gemini or anthropic");
        QTest::newRow("missing base_url") << QJsonArray { with(localVllm(), QStringLiteral("base_url"), QJsonValue::Undefined) }
                                          << QStringLiteral("providers[0] (local-vllm).base_url") << QStringLiteral("is required");
        QTest::newRow("ftp base_url") << QJsonArray { with(localVllm(), QStringLiteral("base_url"), QStringLiteral("ftp://10.0.0.5/v1")) }
                                      << QStringLiteral("providers[0] (local-vllm).base_url") << QStringLiteral("not an http(s) URL");
        QTest::newRow("key variable named but empty")
            << QJsonArray { with(localVllm(), QStringLiteral("key_variable"), QStringLiteral("LOCAL_VLLM_KEY")) }
            << QStringLiteral("(local-vllm).key_variable") << QStringLiteral("LOCAL_VLLM_KEY, which is empty");
        QTest::newRow("key in the file") << QJsonArray { with(localVllm(), QStringLiteral("api_key"), QStringLiteral("sk-123")) }
                                         << QStringLiteral("providers[0] (local-vllm).api_key") << QStringLiteral("do not belong");
        QTest::newRow("image without gemini") << QJsonArray { with(localVllm(), QStringLiteral("stages"),
                                                                   QJsonArray { QStringLiteral("image") }) }
                                              << QStringLiteral("providers[0] (local-vllm).stages") << QStringLiteral("gemini format");
        QTest::newRow("header without key") << QJsonArray { with(localVllm(), QStringLiteral("auth_header"), QStringLiteral("api-key")) }
                                            << QStringLiteral("providers[0] (local-vllm).auth_header") << QStringLiteral("no key_variable");
        QTest::newRow("built-in's key variable") << QJsonArray { QJsonObject { { QStringLiteral("id"), QStringLiteral("openai") },
                                                                               { QStringLiteral("key_variable"), QStringLiteral("K") } } }
                                                 << QStringLiteral("providers[0] (openai).key_variable") << QStringLiteral("built-in");
        QTest::newRow("not serving the storyboard")
            << QJsonArray { with(localVllm(), QStringLiteral("stages"), QJsonArray { QStringLiteral("captions") }) }
            << QStringLiteral("STORYBOARD_FALLBACK_PROVIDER") << QStringLiteral("does not serve the storyboard stage");
    }

    void refusals()
    {
        QFETCH(QJsonArray, providers);
        QFETCH(QString, setting);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = writeSettings(dir, settingsWith(providers));
        QProcessEnvironment env;
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("AIza-test-key"));
        const SettingsLoad load = SettingsLoader::load(path, {}, env, /*requireKeys=*/true);
        QStringList seen;
        for (const ConfigError &e : load.errors)
            seen << e.toString();
        bool found = false;
        for (const ConfigError &e : load.errors)
            found = found || (e.setting.contains(setting) && e.message.contains(message));
        QVERIFY2(found, qPrintable(seen.join(QStringLiteral("\n"))));
    }

    // The settings' table lists what the settings file adds, and forgets nothing it named before; the
    // process's registry learns the ids and nothing else (reading a settings file publishes nothing).
    void tableFollowsTheSettings()
    {
        QTemporaryDir dir;
        SettingsLoad load = SettingsLoader::load(writeSettings(dir, settingsWith({ localVllm(), azure() })), {}, {}, false);
        QVERIFY2(load.ok(), load.ok() ? "" : qPrintable(load.errors.constFirst().toString()));
        const std::optional<Provider> vllm = providerFromId(u"local-vllm");
        QVERIFY(vllm);
        const ProviderTable &table = load.settings.providerTable;
        QVERIFY(table.all().contains(*vllm));
        QCOMPARE(table.all().size(), 6);
        QCOMPARE(*load.settings.storyboard.fallback, *vllm);
        QCOMPARE(load.settings.provider(*vllm).model, QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        QCOMPARE(table.name(*vllm), QStringLiteral("Local vLLM"));
        QCOMPARE(apiKeyVariable(table, *vllm), QString()); // takes no key
        QVERIFY(!load.settings.noProviderConfigured()); // an added provider is meant to be called
        QVERIFY2(ProviderRegistry::spec(*vllm).baseUrl.isEmpty(), "the process knows the id, not the provider");
        QCOMPARE(ProviderRegistry::name(*vllm), QStringLiteral("local-vllm"));

        // Saved by the Settings view and read back: the same providers.
        QVERIFY(SettingsFile::save(load.settings, dir.filePath(QStringLiteral("saved.json")), nullptr));
        load = SettingsLoader::load(dir.filePath(QStringLiteral("saved.json")), {}, {}, false);
        QVERIFY2(load.ok(), load.ok() ? "" : qPrintable(load.errors.constFirst().toString()));
        QCOMPARE(load.settings.providerTable.spec(*providerFromId(u"azure")).query.value(0).second, QStringLiteral("2024-10-21"));

        // Removed from the file: no longer listed, still the same provider for the history that names it.
        load = SettingsLoader::load(writeSettings(dir, settingsWith({}, QStringLiteral("none"))), {}, {}, false);
        QVERIFY(load.ok());
        QVERIFY(!load.settings.providerTable.all().contains(*vllm));
        QCOMPARE(providerFromId(u"local-vllm"), vllm);
        QCOMPARE(providerFromStored(u"from-another-engine"), providerFromStored(u"from-another-engine"));
        QVERIFY(!providerFromStored(u"Not An Id"));
    }

    // A stored id that cannot be read is shown as "(unknown)", never as a real provider (it read "gemini").
    void unreadableStoredIdIsUnknown()
    {
        const Provider unknown = storedProviderOrUnknown(u"Not An Id");
        QCOMPARE(toId(unknown), QStringLiteral("(unknown)"));
        QCOMPARE(storedProviderOrUnknown(u""), unknown);
        QVERIFY(!ProviderTable().all().contains(unknown));
        QCOMPARE(storedProviderOrUnknown(u"qwen"), Provider::Qwen);

        GenerationRow row;
        row.id = QStringLiteral("gen_unreadable");
        row.primaryProvider = QStringLiteral("Gem ini!");
        row.state = QStringLiteral("running");
        const QList<Event> events =
            HistoryReader::eventsFromAttempts(row,
                                              { QJsonObject { { QStringLiteral("provider"), QString() },
                                                              { QStringLiteral("role"), QStringLiteral("primary") },
                                                              { QStringLiteral("stage"), QStringLiteral("storyboard") },
                                                              { QStringLiteral("attempt_id"), 1 } } });
        QCOMPARE(std::get<GenerationStarted>(events.first().body).primary, unknown);
        for (const Event &e : events)
            if (const auto *started = std::get_if<AttemptStarted>(&e.body))
                QCOMPARE(started->provider, unknown);
        QVERIFY(std::any_of(events.begin(), events.end(), [](const Event &e) { return std::holds_alternative<AttemptStarted>(e.body); }));
    }

    // An attached console holds its engine's providers in its connection's table (RemoteConnection,
    // from GET /v1/config): reading the local settings file (the Settings view does on every edit)
    // neither unlists them there nor lists them in the process.
    void enginesProvidersOutliveLocalSettings()
    {
        QList<ConfigError> errors;
        const ProviderTable attached = engineAddingAzure(&errors);
        QVERIFY(errors.isEmpty());
        const Provider p = *providerFromId(u"azure");
        QTemporaryDir dir;
        QVERIFY(SettingsLoader::load(writeSettings(dir, settingsWith({ localVllm() })), {}, {}, false).ok());
        QVERIFY(attached.all().contains(p));
        QVERIFY(!attached.all().contains(*providerFromId(u"local-vllm"))); // the local file's, not the engine's
        QVERIFY(ProviderRegistry::spec(p).baseUrl.isEmpty()); // the process knows the id, not the provider
        QVERIFY(SettingsLoader::load(writeSettings(dir, settingsWith({}, QStringLiteral("none"))), {}, {}, false).ok());
        QVERIFY(attached.all().contains(p));
        QCOMPARE(attached.spec(p).authHeader, QByteArray("api-key"));
    }

    // A replay asked from an attached console names the engine's added providers as the engine
    // describes them (the connection's table): a fallback chosen among them is accepted by the replay's
    // settings, with its own auth header. From the process's registry alone it would be refused.
    void replaySettingsNameTheEnginesProviders()
    {
        QList<ConfigError> errors;
        const ProviderTable attached = engineAddingAzure(&errors);
        QVERIFY(errors.isEmpty());
        const Provider p = *providerFromId(u"azure");
        QVERIFY(ProviderRegistry::spec(p).baseUrl.isEmpty()); // the process knows the id, not the provider
        RecordedPolicy policy;
        policy.primary = Provider::Gemini;
        policy.primaryTimeout = std::chrono::seconds(60);
        policy.fallbackTimeout = std::chrono::seconds(60);
        QJsonObject settings = policy.settingsJson(attached);
        QJsonObject storyboard = settings.value(QLatin1StringView("storyboard")).toObject();
        storyboard.insert(QStringLiteral("fallback_provider"), QStringLiteral("azure")); // the dialog's choice
        settings.insert(QStringLiteral("storyboard"), storyboard);
        QTemporaryDir dir;
        const SettingsLoad load = SettingsLoader::load(writeSettings(dir, settings), {}, {}, false);
        QVERIFY2(load.ok(), load.ok() ? "" : qPrintable(load.errors.constFirst().toString()));
        QCOMPARE(load.settings.storyboard.fallback, std::optional<Provider>(p));
        QCOMPARE(load.settings.providerTable.spec(p).authHeader, QByteArray("api-key"));
        // What this process's registry alone writes (the replay's settings before the connection's
        // table was used): no row for azure, so the same choice is refused.
        QJsonObject bare = policy.settingsJson(ProviderTable());
        bare.insert(QStringLiteral("storyboard"), storyboard);
        QVERIFY(!SettingsLoader::load(writeSettings(dir, bare), {}, {}, false).ok());
    }

    // Azure's shape: the deployment URL with api-version, the key in api-key, never in Authorization.
    void azureRequestShape()
    {
        QTemporaryDir dir;
        QProcessEnvironment env;
        env.insert(QStringLiteral("AZURE_OPENAI_API_KEY"), QStringLiteral("azure-secret"));
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("AIza-test-key"));
        const SettingsLoad load =
            SettingsLoader::load(writeSettings(dir, settingsWith({ azure() }, QStringLiteral("azure"))), {}, env, true);
        QVERIFY2(load.ok(), load.ok() ? "" : qPrintable(load.errors.constFirst().toString()));
        const Provider p = *providerFromId(u"azure");
        ProviderEndpoint e;
        e.provider = p;
        e.baseUrl = load.settings.provider(p).baseUrl;
        e.model = load.settings.provider(p).model;
        e.apiKey = load.settings.provider(p).apiKey;
        e.spec = load.settings.providerTable.spec(p); // what azure is: the settings', not the process's
        const QNetworkRequest r = WireFormat::create(e.dialect(), p)->request(e);
        QCOMPARE(r.url().toString(),
                 QStringLiteral("https://contoso.openai.azure.com/openai/deployments/storyboard/chat/completions?api-version=2024-10-21"));
        QCOMPARE(r.rawHeader("api-key"), QByteArray("azure-secret"));
        QVERIFY(!r.hasRawHeader("Authorization"));
    }

    // The whole path in one engine on the simulator: gemini overloaded, local-vllm (no key) answers; the
    // fallback metadata, the history filter and the simulator's own count name it.
    void localFallbackBehindGemini()
    {
        QTemporaryDir dir;
        SetupOptions o;
        o.forceSimulator = true;
        o.scenario = QStringLiteral("primary-overloaded");
        o.dataDir = dir.path();
        o.settingsFile = writeSettings(dir, settingsWith({ localVllm() }));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.engineThreads = 1;
        EngineSetup setup;
        QVERIFY2(setup.init(o), setup.errors().isEmpty() ? "" : qPrintable(setup.errors().constFirst().toString()));
        const Provider vllm = *providerFromId(u"local-vllm");
        QVERIFY(setup.simulator()->baseUrl(vllm).path().startsWith(QStringLiteral("/p/local-vllm/v1")));

        std::optional<GenerationResult> finished;
        connect(&setup.engine(), &EngineClient::finished, this, [&](const GenerationResult &r) { finished = r; });
        GenerationRequest g;
        g.story = QStringLiteral("A lighthouse keeper finds a letter in a bottle.");
        g.fresh = true;
        setup.engine().start(g);
        QTRY_VERIFY_WITH_TIMEOUT(finished.has_value(), 30'000);
        const GenerationResult result = *finished;
        QCOMPARE(result.state, FinalState::Succeeded);
        QVERIFY(result.storyboard.fallback.applied);
        QCOMPARE(result.storyboard.fallback.finalProvider, std::optional<Provider>(vllm));
        QCOMPARE(result.storyboard.fallback.reason, QStringLiteral("gemini_provider_unavailable"));
        QCOMPARE(setup.simulator()->counters(vllm).requests, 1); // exactly one request, on its own path
        QVERIFY(!setup.simulator()->counters(vllm).lastHeaders.contains(QStringLiteral("authorization")));
        QCOMPARE(setup.simulator()->counters(Provider::Qwen).requests, 0);

        QVERIFY(setup.store()->flush());
        HistoryFilter f;
        f.provider = vllm;
        QCOMPARE(setup.store()->count(f), qint64(1));
    }

    // A keyless added provider (a self-hosted vLLM or Ollama) on its own, without the simulator: gemini
    // answers 503, and the fallback is a plain OpenAI-format server over loopback that sees exactly one
    // request and no Authorization header.
    void keylessFallbackAgainstAPlainServer()
    {
        const QString story = QStringLiteral("A lighthouse keeper finds a letter in a bottle.");
        test::HostileServer gemini(test::HostileServer::Mode::Fixed);
        gemini.setAnswer("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        const QByteArray board = QJsonDocument(StoryboardSynth::fromStory(story).toJson()).toJson(QJsonDocument::Compact);
        const QByteArray body = SimWire::body(Provider::OpenAI, QStringLiteral("Qwen/Qwen2.5-7B-Instruct"), QString::fromUtf8(board),
                                              SimWire::Ending::Stop, TokenUsage { 100, 200 });
        test::HostileServer vllm(test::HostileServer::Mode::KeepAlive);
        vllm.setAnswer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                       + "\r\n\r\n" + body);
        QString error;
        QVERIFY2(gemini.start(&error) && vllm.start(&error), qPrintable(error));

        QTemporaryDir dir;
        QJsonObject entry = with(localVllm(), QStringLiteral("base_url"), QString(vllm.baseUrl().toString() + QStringLiteral("/v1")));
        entry.insert(QStringLiteral("stream"), false);
        SetupOptions o;
        o.dataDir = dir.path();
        o.settingsFile = writeSettings(dir, settingsWith({ entry }));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.environment.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("AIza-test-key"));
        o.environment.insert(QStringLiteral("GEMINI_BASE_URL"), gemini.baseUrl().toString() + QStringLiteral("/v1beta"));
        o.environment.insert(QStringLiteral("GEMINI_STREAM"), QStringLiteral("false"));
        o.useStore = false;
        o.engineThreads = 1;
        EngineSetup setup;
        QVERIFY2(setup.init(o), setup.errors().isEmpty() ? "" : qPrintable(setup.errors().constFirst().toString()));
        QVERIFY(!setup.usingSimulator());

        std::optional<GenerationResult> finished;
        connect(&setup.engine(), &EngineClient::finished, this, [&](const GenerationResult &r) { finished = r; });
        GenerationRequest g;
        g.story = story;
        g.fresh = true;
        setup.engine().start(g);
        QTRY_VERIFY_WITH_TIMEOUT(finished.has_value(), 30'000);
        // The storyboard stage is judged (the image stage asks gemini, which keeps answering 503).
        const StageResult &storyboard = finished->storyboard;
        const AttemptRecord *last = storyboard.attempts.isEmpty() ? nullptr : &storyboard.attempts.constLast();
        QVERIFY2(storyboard.state == FinalState::Succeeded,
                 qPrintable(last && last->failure ? last->failure->detail : QStringLiteral("no failed attempt")));
        QCOMPARE(storyboard.attempts.size(), 2);
        QCOMPARE(storyboard.fallback.finalProvider, providerFromId(u"local-vllm"));
        QCOMPARE(vllm.record().requests, 1);
        const QByteArray head = vllm.record().lastRequestHead.toLower();
        QVERIFY2(head.startsWith("post /v1/chat/completions"), head.constData());
        QCOMPARE(head.count("\r\nauthorization:"), 0);
    }

    // When a keyless provider's server does ask for a key, the next step names where a key would go,
    // never an empty variable ("Check  (the key)").
    void keylessAuthFailureNamesWhereAKeyGoes()
    {
        QTemporaryDir dir;
        const SettingsLoad load = SettingsLoader::load(writeSettings(dir, settingsWith({ localVllm() })), {}, {}, false);
        QVERIFY(load.ok());
        const Provider vllm = *load.settings.providerTable.find(u"local-vllm");
        Failure unauthorized;
        unauthorized.kind = FailureKind::AUTH_CONFIG;
        unauthorized.detail = QStringLiteral("401");
        const NextStep step = NextStep::forFailure(unauthorized, load.settings.providerTable, vllm, Stage::Storyboard, QDateTime());
        QVERIFY2(!step.message.contains(QStringLiteral("Check  (")), qPrintable(step.message));
        QVERIFY2(step.message.contains(QStringLiteral("providers.local-vllm.key_variable")), qPrintable(step.message));
        QVERIFY2(step.message.contains(QStringLiteral("providers.local-vllm.base_url")), qPrintable(step.message));
    }

    // The service: the metrics carry provider="local-vllm", the health row is there, and the history
    // filter accepts the id (an unknown one is refused with the valid ids).
    void serviceNamesIt()
    {
        test::Engine engine(m_dir.filePath(QStringLiteral("service")));
        const QString token = engine.token(QStringLiteral("ops"), QStringLiteral("operator"));
        QVERIFY(!token.isEmpty());
        const QString settings = writeSettings(m_dir, settingsWith({ localVllm() }));
        QVERIFY(
            engine.start({ QStringLiteral("--settings"), settings, QStringLiteral("--scenario"), QStringLiteral("primary-overloaded") }));
        QNetworkAccessManager network;
        auto call = [&](const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {}) {
            QUrl url = engine.url;
            url.setPath(pathAndQuery.section(QLatin1Char('?'), 0, 0));
            url.setQuery(pathAndQuery.section(QLatin1Char('?'), 1));
            QNetworkRequest r(url);
            r.setRawHeader("Authorization", "Bearer " + token.toLatin1());
            r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            QNetworkReply *reply = network.sendCustomRequest(r, method, body);
            QSignalSpy done(reply, &QNetworkReply::finished);
            if (!reply->isFinished())
                done.wait(30'000);
            const std::pair<int, QByteArray> out { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll() };
            reply->deleteLater();
            return out;
        };
        const auto [started, startBody] =
            call("POST", QStringLiteral("/v1/generations"), R"({"story":"A fox learns to sail.","user_id":"u-1"})");
        QCOMPARE(started, 202);
        const QString id = QJsonDocument::fromJson(startBody).object().value(QLatin1StringView("generation_id")).toString();
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", QStringLiteral("/v1/generations/") + id).first, 200, 30'000);
        const auto [status, result] = call("GET", QStringLiteral("/v1/generations/") + id);
        QVERIFY2(result.contains(R"("final_model_provider":"local-vllm")"), result.constData());

        const QByteArray metrics = call("GET", QStringLiteral("/metrics")).second;
        QVERIFY2(metrics.contains(R"(provider="local-vllm")"), metrics.left(2000).constData());
        QTRY_VERIFY_WITH_TIMEOUT(call("GET", QStringLiteral("/v1/history?provider=local-vllm")).second.contains(id.toLatin1()), 10'000);
        const auto [refused, why] = call("GET", QStringLiteral("/v1/history?provider=nope"));
        QCOMPARE(refused, 400);
        QVERIFY2(why.contains("local-vllm"), why.constData());
        QTRY_VERIFY_WITH_TIMEOUT(call("GET", QStringLiteral("/v1/stats/health")).second.contains(R"("provider":"local-vllm")"), 10'000);
        const QByteArray config = call("GET", QStringLiteral("/v1/config")).second;
        QVERIFY2(config.contains(R"("id":"local-vllm")"), config.constData());
        engine.stop();
    }
};

QTEST_GUILESS_MAIN(tst_AddedProviders)
#include "tst_addedproviders.moc"
