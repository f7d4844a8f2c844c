// SPDX-License-Identifier: MIT
// docs/architecture.md, "The engine's providers": what a provider is belongs to one engine. Two engines in
// one process that add the same provider id with different endpoints and models, each behind its own
// proxy rules, do not see each other's: each one's requests reach its own upstream, its /v1/config
// lists its own; a replay beside them changes neither. Two engines that reach one https provider, one
// trusting the private CA that signed it (provider_ca) and one not, each keep their own trust. Real
// parts: two upstreams, a TLS simulator and a CONNECT proxy over loopback, two engines with their HTTP
// APIs, QNetworkAccessManager as the client.
#include "config/proxyrules.h"
#include "connectproxy.h"
#include "contract/providerregistry.h"
#include "engine/manualclock.h"
#include "hostileserver.h"
#include "runtime/enginesetup.h"
#include "runtime/replayrunner.h"
#include "service/engineservice.h"
#include "sim/httpserving.h"
#include "sim/simulatorthread.h"
#include "sim/simwire.h"
#include "sim/storyboardsynth.h"
#include "store/apitokens.h"
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

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

const QString kStory = QStringLiteral("A lighthouse keeper finds a letter in a bottle.");

// One engine's world: its upstream (a server over loopback, in `format`), its settings file, the engine
// and its HTTP API.
struct Side
{
    explicit Side(QString t, QString f = QStringLiteral("openai"))
        : tag(std::move(t))
        , format(std::move(f))
    {
    }

    const QString tag; // "a" or "b": in its provider's name, model and path, and in the id only it adds
    const QString format; // the dialect its settings give both its providers
    test::HostileServer upstream { test::HostileServer::Mode::KeepAlive };
    QTemporaryDir dir;
    EngineSetup setup;
    std::unique_ptr<ApiTokens> tokens;
    std::unique_ptr<EngineService> service;
    QString token; // a viewer's
    QString operatorToken;

    QString model() const { return QStringLiteral("model-") + tag; }
    QString path() const { return QStringLiteral("/upstream-") + tag + QStringLiteral("/v1"); }

    bool startUpstream(QString *error)
    {
        const QByteArray board = QJsonDocument(StoryboardSynth::fromStory(kStory).toJson()).toJson(QJsonDocument::Compact);
        const QByteArray body =
            SimWire::body(Provider::OpenAI, model(), QString::fromUtf8(board), SimWire::Ending::Stop, TokenUsage { 100, 200 });
        upstream.setAnswer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                           + "\r\n\r\n" + body);
        return upstream.start(error);
    }

    QJsonObject provider(const QString &id) const
    {
        return QJsonObject {
            { QStringLiteral("id"), id },         { QStringLiteral("name"), QString(QStringLiteral("Shared at ") + tag) },
            { QStringLiteral("format"), format }, { QStringLiteral("base_url"), QString(upstream.baseUrl().toString() + path()) },
            { QStringLiteral("model"), model() }, { QStringLiteral("stream"), false }
        };
    }

    // "shared" (the id both add) and "only-<tag>"; `proxy`: its own proxy rules.
    QString writeSettings(const QString &proxy) const
    {
        const QJsonObject root {
            { QStringLiteral("storyboard"),
              QJsonObject { { QStringLiteral("provider"), QStringLiteral("shared") },
                            { QStringLiteral("fallback_provider"), QStringLiteral("none") } } },
            { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
            { QStringLiteral("proxy"), proxy },
            { QStringLiteral("providers"), QJsonArray { provider(QStringLiteral("shared")), provider(QStringLiteral("only-") + tag) } },
        };
        const QString file = dir.filePath(QStringLiteral("bullpen.json"));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(QJsonDocument(root).toJson());
        return file;
    }

    bool start(const QString &proxy, QString *error)
    {
        SetupOptions o;
        o.dataDir = dir.filePath(QStringLiteral("data"));
        o.settingsFile = writeSettings(proxy);
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.engineThreads = 1;
        if (!setup.init(o)) {
            *error = setup.errors().isEmpty() ? QStringLiteral("refused") : setup.errors().constFirst().toString();
            return false;
        }
        tokens = ApiTokens::open(setup.store()->storeLocation(), error);
        if (!tokens)
            return false;
        const std::optional<QString> added = tokens->add(QStringLiteral("viewer"), ApiRole::Viewer, error);
        if (!added)
            return false;
        token = *added;
        const std::optional<QString> operating = tokens->add(QStringLiteral("operator"), ApiRole::Operator, error);
        if (!operating)
            return false;
        operatorToken = *operating;
        ServiceOptions options;
        options.port = 0;
        service = std::make_unique<EngineService>(setup, *tokens, options);
        return service->listen(error);
    }

    QString hostPort() const { return QStringLiteral("127.0.0.1:%1").arg(upstream.baseUrl().port()); }
};

// One request to `side`'s API (a POST when there is a body, as its operator; else a GET, as its
// viewer): the status and the answer.
std::pair<int, QJsonObject> exchange(Side &side, const QString &path, const std::optional<QJsonObject> &body = std::nullopt)
{
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest request(side.service->url().resolved(QUrl(path)));
    request.setRawHeader("Authorization", "Bearer " + (body ? side.operatorToken : side.token).toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = body ? network.post(request, QJsonDocument(*body).toJson(QJsonDocument::Compact)) : network.get(request);
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !done.wait(10'000))
        return {};
    const std::pair<int, QJsonObject> out { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                                            QJsonDocument::fromJson(reply->readAll()).object() };
    reply->deleteLater();
    return out;
}

QJsonObject getJson(Side &side, const QString &path)
{
    return exchange(side, path).second;
}

// The ids of a list's rows ({"providers": [{"id": …}, …]}).
QStringList idsOf(const QJsonArray &rows)
{
    QStringList ids;
    for (const QJsonValue &v : rows)
        ids << v[u"id"].toString();
    return ids;
}

// GET /v1/config's providers, by id.
QMap<QString, QJsonObject> configuredProviders(Side &side)
{
    QMap<QString, QJsonObject> out;
    for (const QJsonValue &v : getJson(side, QStringLiteral("/v1/config")).value(QLatin1StringView("providers")).toArray())
        out.insert(v[u"id"].toString(), v.toObject());
    return out;
}

// One generation on `side`'s engine: its storyboard stage's result, once finished.
void generate(Side &side, std::optional<StageResult> *storyboard)
{
    QObject scope;
    QObject::connect(&side.setup.engine(), &EngineClient::finished, &scope,
                     [storyboard](const GenerationResult &r) { *storyboard = r.storyboard; });
    GenerationRequest g;
    g.story = kStory;
    g.fresh = true;
    side.setup.engine().start(g);
    QTRY_VERIFY_WITH_TIMEOUT(storyboard->has_value(), 30'000);
}

// A replay's settings: "shared" once more, as a third meaning.
QString writeReplaySettings(const QString &file)
{
    const QJsonObject shared { { QStringLiteral("id"), QStringLiteral("shared") },
                               { QStringLiteral("name"), QStringLiteral("Shared in the replay") },
                               { QStringLiteral("format"), QStringLiteral("openai") },
                               { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1/replay/v1") },
                               { QStringLiteral("model"), QStringLiteral("model-replay") } };
    const QJsonObject root {
        { QStringLiteral("storyboard"),
          QJsonObject { { QStringLiteral("provider"), QStringLiteral("shared") },
                        { QStringLiteral("fallback_provider"), QStringLiteral("none") } } },
        { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
        { QStringLiteral("providers"), QJsonArray { shared } },
    };
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(QJsonDocument(root).toJson());
    return file;
}

// An engine whose one provider is the https simulator at `base`; with `ca`, its provider_ca.
struct TrustSide
{
    QTemporaryDir dir;
    EngineSetup setup;

    bool start(const QUrl &base, const QString &ca, QString *error)
    {
        const QJsonObject provider {
            { QStringLiteral("id"), QStringLiteral("tls") },
            { QStringLiteral("name"), QStringLiteral("Behind a private CA") },
            { QStringLiteral("format"), QStringLiteral("openai") },
            { QStringLiteral("base_url"), base.toString() },
            { QStringLiteral("model"), QStringLiteral("model-tls") },
            { QStringLiteral("key_variable"), QStringLiteral("TLS_TEST_API_KEY") },
            { QStringLiteral("stream"), false },
        };
        QJsonObject root {
            { QStringLiteral("storyboard"),
              QJsonObject { { QStringLiteral("provider"), QStringLiteral("tls") },
                            { QStringLiteral("fallback_provider"), QStringLiteral("none") } } },
            { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
            { QStringLiteral("proxy"), QStringLiteral("none") },
            { QStringLiteral("providers"), QJsonArray { provider } },
        };
        if (!ca.isEmpty())
            root.insert(QStringLiteral("provider_ca"), ca);
        QFile f(dir.filePath(QStringLiteral("bullpen.json")));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = f.errorString();
            return false;
        }
        f.write(QJsonDocument(root).toJson());
        f.close();
        SetupOptions o;
        o.dataDir = dir.filePath(QStringLiteral("data"));
        o.settingsFile = f.fileName();
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.environment.insert(QStringLiteral("TLS_TEST_API_KEY"), QStringLiteral("sim-key")); // the simulator wants a key
        o.engineThreads = 1;
        if (!setup.init(o)) {
            *error = setup.errors().isEmpty() ? QStringLiteral("refused") : setup.errors().constFirst().toString();
            return false;
        }
        return true;
    }
};

// The storyboard stage of one generation on `setup`'s engine, once finished.
std::optional<StageResult> generateOn(EngineSetup &setup)
{
    std::optional<StageResult> storyboard;
    QObject scope;
    QObject::connect(&setup.engine(), &EngineClient::finished, &scope,
                     [&storyboard](const GenerationResult &r) { storyboard = r.storyboard; });
    QSignalSpy done(&setup.engine(), &EngineClient::finished);
    GenerationRequest g;
    g.story = kStory;
    g.fresh = true;
    setup.engine().start(g);
    if (!storyboard)
        done.wait(30'000);
    return storyboard;
}

} // namespace

class tst_EngineContext : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoEnginesKeepTheirOwnProvidersAndProxies()
    {
        QString error;
        Side a(QStringLiteral("a"));
        Side b(QStringLiteral("b"));
        test::ConnectProxy proxyOfB;
        QVERIFY2(a.startUpstream(&error) && b.startUpstream(&error) && proxyOfB.start(&error), qPrintable(error));

        // A first, then B: B's settings are read after A's engine is built, as a second engine's are.
        QVERIFY2(a.start(QStringLiteral("none"), &error), qPrintable(error));
        QVERIFY2(b.start(proxyOfB.url(), &error), qPrintable(error));
        const Provider shared = *ProviderRegistry::find(u"shared"); // one id for the process, two meanings
        // Nothing of either is published process-wide: the id is interned, what it is stays in each engine.
        QVERIFY(ProviderRegistry::spec(shared).baseUrl.isEmpty());
        QCOMPARE(ProviderRegistry::name(shared), QStringLiteral("shared"));

        // Each /v1/config lists its own providers, as its own settings describe them.
        for (Side *side : { &a, &b }) {
            const Side &other = side == &a ? b : a;
            const QMap<QString, QJsonObject> listed = configuredProviders(*side);
            QVERIFY2(listed.contains(QStringLiteral("shared")), qPrintable(QStringList(listed.keys()).join(u',')));
            QCOMPARE(listed[QStringLiteral("shared")][u"model"].toString(), side->model());
            QCOMPARE(listed[QStringLiteral("shared")][u"name"].toString(), QStringLiteral("Shared at ") + side->tag);
            QCOMPARE(listed[QStringLiteral("shared")][u"base_url"].toString(), side->upstream.baseUrl().toString() + side->path());
            QVERIFY(listed.contains(QStringLiteral("only-") + side->tag));
            QVERIFY2(!listed.contains(QStringLiteral("only-") + other.tag), qPrintable(QStringList(listed.keys()).join(u',')));
            QCOMPARE(side->setup.settings().providerTable.spec(shared).model, side->model());
            // A request may choose only among its providers: the other's is refused, naming its own.
            const auto [status, refusal] =
                exchange(*side, QStringLiteral("/v1/generations"),
                         QJsonObject { { QStringLiteral("story"), kStory }, { QStringLiteral("primary"), QString(u"only-" + other.tag) } });
            const QString message = refusal.value(u"error").toObject().value(u"message").toString();
            QCOMPARE(status, 400);
            QVERIFY2(message.contains(QString(u"only-" + side->tag)) && message.count(QString(u"only-" + other.tag)) == 1,
                     qPrintable(message)); // named once: as the choice refused
            // Nor can the other's provider be drained here.
            QCOMPARE(exchange(*side, QString(u"/v1/providers/only-" + other.tag + u"/drain"),
                              QJsonObject { { QStringLiteral("reason"), QStringLiteral("not ours") } })
                         .first,
                     404);
            // Its breakers and drains (GET /v1/providers) are of its own providers.
            const QStringList rows = idsOf(getJson(*side, QStringLiteral("/v1/providers")).value(QLatin1StringView("providers")).toArray());
            QVERIFY2(rows.contains(QStringLiteral("shared")) && rows.contains(QStringLiteral("only-") + side->tag)
                         && !rows.contains(QStringLiteral("only-") + other.tag),
                     qPrintable(rows.join(u',')));
        }

        // A replay beside them (its own engine on the simulator, its own settings) changes neither.
        const QString replaySettings = writeReplaySettings(a.dir.filePath(QStringLiteral("replay.json")));
        QVERIFY(!replaySettings.isEmpty());
        ReplayRunner replay;
        ReplayRunner::Options ro;
        ro.settingsFile = replaySettings;
        ro.keyFile = a.dir.filePath(QStringLiteral("none.env"));
        QVERIFY2(replay.start(ro, &error), qPrintable(error));
        QSignalSpy replayed(&replay, &ReplayRunner::finished);

        // Each one's request reaches its own upstream, on its own path; B's goes
        // through B's proxy, A's never does.
        for (Side *side : { &a, &b }) {
            std::optional<StageResult> storyboard;
            generate(*side, &storyboard);
            QVERIFY(storyboard);
            QCOMPARE(storyboard->state, FinalState::Succeeded);
            QCOMPARE(side->upstream.record().requests, 1);
            const QByteArray head = side->upstream.record().lastRequestHead.toLower();
            QVERIFY2(head.startsWith(QByteArray("post " + side->path().toUtf8() + "/chat/completions")), head.constData());
        }
        QCOMPARE(proxyOfB.target(b.hostPort()).requests, 1);
        QCOMPARE(proxyOfB.target(a.hostPort()).tunnels, 0);
        // Each one's health windows (GET /v1/stats/providers) count the attempt on its own "shared".
        for (Side *side : { &a, &b }) {
            const QJsonObject last5m = getJson(*side, QStringLiteral("/v1/stats/providers")).value(QLatin1StringView("last_5m")).toObject();
            QVERIFY2(last5m.contains(QStringLiteral("shared")), QJsonDocument(last5m).toJson().constData());
        }

        QVERIFY(replayed.count() > 0 || replayed.wait(30'000));
        for (Side *side : { &a, &b }) {
            const QMap<QString, QJsonObject> listed = configuredProviders(*side);
            QCOMPARE(listed[QStringLiteral("shared")][u"model"].toString(), side->model());
            QCOMPARE(side->setup.settings().providerTable.spec(shared).name, QStringLiteral("Shared at ") + side->tag);
        }
    }

    // What a provider's error body means is read in the dialect its engine's settings give it: one id,
    // OpenAI's words to A and Anthropic's to B. Both upstreams answer Anthropic's "credit balance is too
    // low" (HTTP 400, invalid_request_error): to B that is QUOTA_EXHAUSTED, to A a rejected request.
    void twoEnginesReadFailuresInTheirOwnDialects()
    {
        QString error;
        Side a(QStringLiteral("a"));
        Side b(QStringLiteral("b"), QStringLiteral("anthropic"));
        const QByteArray body =
            R"({"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}})";
        for (Side *side : { &a, &b }) {
            side->upstream.setAnswer("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: "
                                     + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            QVERIFY2(side->upstream.start(&error), qPrintable(error));
        }
        // B first, then A: the engine set up last must not decide what B's provider speaks.
        QVERIFY2(b.start(QStringLiteral("none"), &error), qPrintable(error));
        QVERIFY2(a.start(QStringLiteral("none"), &error), qPrintable(error));
        for (const auto &[side, kind] :
             { std::pair { &a, FailureKind::REQUEST_REJECTED }, std::pair { &b, FailureKind::QUOTA_EXHAUSTED } }) {
            std::optional<StageResult> storyboard;
            generate(*side, &storyboard);
            QVERIFY(storyboard);
            QCOMPARE(storyboard->state, FinalState::Failed);
            QVERIFY(storyboard->failure);
            QCOMPARE(storyboard->failure->kind, kind);
            QCOMPARE(side->upstream.record().requests, 1);
        }
    }

    // provider_ca is an engine's: set up in either order, the engine trusting the private CA reaches
    // the https provider it signed, the other refuses the certificate (TLS) before sending anything.
    void twoEnginesKeepTheirOwnTrustedAuthorities_data()
    {
        QTest::addColumn<bool>("trustingFirst");
        QTest::newRow("the trusting engine set up first") << true;
        QTest::newRow("the trusting engine set up second") << false;
    }
    void twoEnginesKeepTheirOwnTrustedAuthorities()
    {
        QFETCH(bool, trustingFirst);
        const QString tlsDir = QStringLiteral(BULLPEN_SOURCE_DIR "/tests/data/tls/");
        QTemporaryDir keys;
        const QString key = keys.filePath(QStringLiteral("engine.key")); // 0600: a readable key is refused
        QVERIFY(QFile::copy(tlsDir + QStringLiteral("engine.key"), key));
        QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QString error;
        const std::optional<QSslConfiguration> tls = loadServerTls(tlsDir + QStringLiteral("engine.pem"), key, &error);
        QVERIFY2(tls, qPrintable(error));
        SimulatorThread sim;
        QVERIFY2(sim.start(0, &error, tls), qPrintable(error));
        const QUrl base = sim.simulator().baseUrl(Provider::OpenAI);
        QCOMPARE(base.scheme(), QStringLiteral("https"));

        TrustSide trusting;
        TrustSide other;
        for (bool first : { true, false }) {
            if (first == trustingFirst)
                QVERIFY2(trusting.start(base, tlsDir + QStringLiteral("ca.pem"), &error), qPrintable(error));
            else
                QVERIFY2(other.start(base, QString(), &error), qPrintable(error));
        }

        const std::optional<StageResult> refused = generateOn(other.setup);
        QVERIFY(refused);
        QCOMPARE(refused->state, FinalState::Failed);
        QVERIFY(!refused->attempts.isEmpty() && refused->attempts.first().failure);
        QCOMPARE(refused->attempts.first().failure->kind, FailureKind::TLS);
        QCOMPARE(sim.simulator().counters(Provider::OpenAI).requests, 0); // refused at the handshake

        const std::optional<StageResult> reached = generateOn(trusting.setup);
        QVERIFY(reached);
        QVERIFY2(reached->state == FinalState::Succeeded,
                 qPrintable(reached->failure ? reached->failure->detail : QStringLiteral("no failure recorded")));
        QCOMPARE(sim.simulator().counters(Provider::OpenAI).requests, 1);
    }

    // The engine's time is its context's (EngineContext::clock): a primary that never answers is cut at
    // its 60 s timeout when the engine's clock says so, not when the steady clock does, and the fallback
    // answers. Its alerts are judged on the same clock.
    void engineRunsOnItsContextsClock()
    {
        QTemporaryDir dir;
        const QJsonObject root {
            { QStringLiteral("storyboard"),
              QJsonObject { { QStringLiteral("provider"), QStringLiteral("gemini") },
                            { QStringLiteral("fallback_provider"), QStringLiteral("qwen") },
                            { QStringLiteral("primary_timeout"), QStringLiteral("60s") } } },
            { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
        };
        QFile f(dir.filePath(QStringLiteral("bullpen.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(root).toJson());
        f.close();
        ManualClock clock;
        SetupOptions o;
        o.forceSimulator = true;
        o.scenario = QStringLiteral("primary-hang");
        o.dataDir = dir.filePath(QStringLiteral("data"));
        o.settingsFile = f.fileName();
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.environment = QProcessEnvironment();
        o.useStore = false;
        o.engineThreads = 0; // on this thread: the manual clock's timers fire here, in advance()
        o.clock = &clock;
        EngineSetup setup;
        QVERIFY2(setup.init(o), qPrintable(setup.errors().isEmpty() ? QString() : setup.errors().constFirst().toString()));
        QCOMPARE(setup.context().clock, static_cast<Clock *>(&clock));
        QCOMPARE(&setup.alertClock(), static_cast<const Clock *>(&clock));

        std::optional<StageResult> storyboard;
        QObject scope;
        QObject::connect(&setup.engine(), &EngineClient::finished, &scope,
                         [&storyboard](const GenerationResult &r) { storyboard = r.storyboard; });
        GenerationRequest g;
        g.story = kStory;
        g.fresh = true;
        setup.engine().start(g);
        // A stage starts on the engine's clock too (scheduled for now): advancing by nothing runs what is due.
        const auto waitFor = [&clock](const auto &done) {
            return QTest::qWaitFor(
                [&] {
                    clock.advance(0s);
                    return done();
                },
                10'000);
        };
        QVERIFY(waitFor([&] { return setup.simulator()->counters(Provider::Gemini).requests == 1; }));
        QVERIFY(!storyboard); // hanging: the engine's clock has not moved
        clock.advance(60s);
        QVERIFY2(waitFor([&] { return storyboard.has_value(); }), "the primary was not cut at the engine's 60 s");
        QCOMPARE(storyboard->state, FinalState::Succeeded);
        QCOMPARE(storyboard->attempts.size(), 2);
        QCOMPARE(storyboard->attempts.first().failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(storyboard->fallback.finalProvider, std::optional<Provider>(Provider::Qwen));
    }
};

QTEST_GUILESS_MAIN(tst_EngineContext)
#include "tst_enginecontext.moc"
