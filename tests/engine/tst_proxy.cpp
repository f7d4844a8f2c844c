// SPDX-License-Identifier: MIT
// Proxies (core/providers/proxyrules.h, docs/contract.md "Proxies"): the rules read the environment as
// curl does; every provider call then goes through a real CONNECT proxy on loopback
// (support/connectproxy.h) as a tunnel, is sent once, and is cancelled at its deadline through it; and
// `bullpen-cli generate` works through it end to end, with no_proxy honoured.
#include "config/proxyrules.h"
#include "connectproxy.h"
#include "loopbackrig.h"
#include "remote/remotehistory.h"
#include "sim/httpserving.h"
#include "sim/simulatorthread.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

QProcessEnvironment environment(std::initializer_list<std::pair<const char *, const char *>> vars)
{
    QProcessEnvironment env;
    for (const auto &[k, v] : vars)
        env.insert(QLatin1StringView(k), QLatin1StringView(v));
    return env;
}

QString hostPort(const QUrl &url)
{
    return QStringLiteral("%1:%2").arg(url.host()).arg(url.port());
}

} // namespace

class tst_Proxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rulesReadTheEnvironmentAsCurlDoes_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QProcessEnvironment>("env");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("proxy"); // empty: direct
        const auto both = environment({ { "https_proxy", "http://secure:3128" }, { "http_proxy", "plain:8080" } });
        QTest::newRow("https target") << QString() << both << "https://api.example.com/v1"
                                      << "http://secure:3128";
        QTest::newRow("http target, no scheme given") << QString() << both << "http://api.example.com/v1"
                                                      << "http://plain:8080";
        QTest::newRow("upper case HTTPS_PROXY") << QString() << environment({ { "HTTPS_PROXY", "http://up:1" } }) << "https://a.b/"
                                                << "http://up:1";
        QTest::newRow("upper case HTTP_PROXY ignored (httpoxy)")
            << QString() << environment({ { "HTTP_PROXY", "http://up:1" } }) << "http://a.b/"
            << "";
        QTest::newRow("nothing set") << QString() << QProcessEnvironment() << "https://a.b/"
                                     << "";
        QTest::newRow("setting wins") << "http://chosen:9" << both << "https://a.b/"
                                      << "http://chosen:9";
        QTest::newRow("none wins") << "none" << both << "https://a.b/"
                                   << "";
        const auto except = [&](const char *list) {
            auto e = both;
            e.insert(QStringLiteral("no_proxy"), QLatin1StringView(list));
            return e;
        };
        QTest::newRow("no_proxy subdomain") << QString() << except("example.com") << "https://api.example.com/"
                                            << "";
        QTest::newRow("no_proxy leading dot") << QString() << except(".example.com") << "https://example.com/"
                                              << "";
        QTest::newRow("no_proxy not a suffix") << QString() << except("example.com") << "https://notexample.com/"
                                               << "http://secure:3128";
        QTest::newRow("no_proxy port matches") << QString() << except("a.b:443") << "https://a.b/"
                                               << "";
        QTest::newRow("no_proxy port differs") << QString() << except("a.b:8443") << "https://a.b/"
                                               << "http://secure:3128";
        QTest::newRow("no_proxy cidr") << QString() << except("10.0.0.0/8, 192.168.1.1") << "https://10.2.3.4/"
                                       << "";
        QTest::newRow("no_proxy ip") << QString() << except("10.0.0.0/8 192.168.1.1") << "http://192.168.1.1:80/"
                                     << "";
        QTest::newRow("no_proxy ipv6") << QString() << except("::1") << "http://[::1]:8700/"
                                       << "";
        QTest::newRow("no_proxy star") << QString() << except("*") << "https://anything/"
                                       << "";
        QTest::newRow("NO_PROXY upper case") << QString() <<
            [&] {
                auto e = both;
                e.insert(QStringLiteral("NO_PROXY"), QStringLiteral("a.b"));
                return e;
            }() << "https://x.a.b/"
                                             << "";
    }
    void rulesReadTheEnvironmentAsCurlDoes()
    {
        QFETCH(QString, setting);
        QFETCH(QProcessEnvironment, env);
        QFETCH(QString, target);
        QFETCH(QString, proxy);
        QString error;
        const auto rules = ProxyRules::from(setting, env, &error);
        QVERIFY2(rules, qPrintable(error));
        const auto chosen = rules->proxyFor(QUrl(target));
        QCOMPARE(chosen ? chosen->toString() : QString(), proxy);
    }

    void refusalsAndSecrets()
    {
        QString error;
        QVERIFY(!ProxyRules::from(QStringLiteral("ftp://proxy:21"), {}, &error));
        QVERIFY2(error.contains(u"ftp://proxy:21") && error.contains(u"http://host:port"), qPrintable(error));
        QVERIFY(!ProxyRules::from({}, environment({ { "https_proxy", "https://proxy:443" } }), &error));
        QVERIFY2(error.startsWith(u"https_proxy"), qPrintable(error));
        const auto rules = ProxyRules::from({}, environment({ { "https_proxy", "http://ops:hunter2@proxy:3128" } }), &error);
        QVERIFY(rules);
        QVERIFY2(!rules->describe().contains(u"hunter2") && rules->describe().contains(u"proxy:3128"), qPrintable(rules->describe()));
        const QNetworkProxy qt = RulesProxyFactory::toQt(*rules->proxyFor(QUrl(QStringLiteral("https://a.b/"))));
        QCOMPARE(qt.user(), QStringLiteral("ops"));
        QCOMPARE(qt.password(), QStringLiteral("hunter2"));
        QVERIFY(!(qt.capabilities() & QNetworkProxy::CachingCapability)); // plain http is tunnelled too
    }

    // docs/contract.md §4.4 through a proxy: the call goes through a tunnel, and a connection the provider drops
    // after reading the request is not resent, on a fresh and on a reused tunnel.
    void sentOnceThroughTheProxy()
    {
        ConnectProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        const std::optional<ProxyRules> rules = ProxyRules::from(proxy.url(), {}, &error);
        QVERIFY2(rules, qPrintable(error));
        QString scenarioError;
        auto scenario = Scenario::fromJson(
            "{\"name\":\"ok-then-reset\",\"providers\":{\"gemini\":[{\"do\":\"ok\"},{\"do\":\"reset\"},{\"do\":\"ok\"}]}}", &scenarioError);
        QVERIFY2(scenario, qPrintable(scenarioError));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, std::nullopt, false);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        rig.proxyRoutes().install(*rules); // the rig's engine's routes
        rig.simulator().setScenario(*scenario);
        const StagePolicy policy = StagePolicy::relief(Provider::Gemini, std::nullopt);
        const auto first = rig.run(policy, QStringLiteral("One."));
        QVERIFY(first);
        QCOMPARE(first->state, FinalState::Succeeded);
        const auto second = rig.run(policy, QStringLiteral("Two."));
        QVERIFY(second);
        QCOMPARE(second->failure->kind, FailureKind::NETWORK);
        QCOMPARE(second->attempts.first().requestsSent, 1);
        QCOMPARE(rig.simulator().counters(Provider::Gemini).requests, 2); // not 3
        const auto target = proxy.target(hostPort(rig.simulator().baseUrl(Provider::Gemini)));
        QVERIFY2(target.tunnels >= 1, "the calls went through the proxy");
        QCOMPARE(target.requests, 2);
        QCOMPARE(proxy.refused(), 0); // every call was a CONNECT, plain http included
    }

    // The deadline holds through a proxy, and the cancelled attempt's tunnel is closed at once: the
    // abort reaches the wire through the proxy; the fallback provider answers through its own tunnel.
    void deadlineCancelsThroughTheProxy()
    {
        ConnectProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        const std::optional<ProxyRules> rules = ProxyRules::from(proxy.url(), {}, &error);
        QVERIFY2(rules, qPrintable(error));
        // Qwen at "localhost": its own tunnel target, told apart from gemini's at the proxy.
        LoopbackRig rig(QStringLiteral("primary-hang"), Provider::Gemini, Provider::Qwen, false, [](Settings &s) {
            QUrl u = s.providers[Provider::Qwen].baseUrl;
            u.setHost(QStringLiteral("localhost"));
            s.providers[Provider::Qwen].baseUrl = u;
        });
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        rig.proxyRoutes().install(*rules);
        StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        policy.primaryTimeout = 1500ms;
        const QString gemini = hostPort(rig.simulator().baseUrl(Provider::Gemini));
        QElapsedTimer clock;
        clock.start();
        const auto r = rig.run(policy, QStringLiteral("A story through a proxy."));
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Succeeded);
        QCOMPARE(r->attempts.size(), 2);
        const AttemptRecord &primary = r->attempts.first();
        QCOMPARE(primary.failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(primary.requestsSent, 1);
        const double ms = double(std::chrono::duration_cast<std::chrono::microseconds>(primary.duration).count()) / 1000.0;
        QVERIFY2(ms >= 1500 && ms < 1500 + 250, qPrintable(QStringLiteral("primary ended after %1 ms").arg(ms)));
        QTRY_COMPARE_WITH_TIMEOUT(proxy.target(gemini).closed, proxy.target(gemini).tunnels, 1000); // the hanging call's tunnel closed
        QCOMPARE(proxy.target(gemini).requests, 1);
        const QString qwen = QStringLiteral("localhost:%1").arg(rig.simulator().baseUrl(Provider::Qwen).port());
        QCOMPARE(proxy.target(qwen).requests, 1);
        QCOMPARE(rig.simulator().counters(Provider::Gemini).requests, 1);
        QCOMPARE(rig.simulator().counters(Provider::Qwen).requests, 1);
    }

    // Two attached clients in one process, each on its own endpoint's routes (EngineEndpoint::routes):
    // one reaches its engine through the proxy, the other directly. No routes belong to the process, so
    // neither sees the other's.
    void attachedClientsFollowTheirOwnEndpoints()
    {
        ConnectProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        SimulatorThread engine; // any HTTP server on loopback: the calls' route is what is judged
        QVERIFY2(engine.start(0, &error), qPrintable(error));
        const quint16 port = quint16(engine.simulator().baseUrl(Provider::Gemini).port());
        const std::optional<ProxyRules> rules = ProxyRules::from(proxy.url(), {}, &error);
        QVERIFY2(rules, qPrintable(error));
        auto proxied = std::make_shared<ProxyRoutes>();
        proxied->install(*rules);

        EngineEndpoint throughProxy;
        throughProxy.base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
        throughProxy.token = "t";
        throughProxy.routes = proxied;
        EngineEndpoint direct;
        direct.base = QUrl(QStringLiteral("http://localhost:%1").arg(port));
        direct.token = "t";
        RemoteHistory a(throughProxy);
        RemoteHistory b(direct);
        QString whyA, whyB;
        a.count({}, &whyA);
        b.count({}, &whyB);
        QCOMPARE(proxy.target(QStringLiteral("127.0.0.1:%1").arg(port)).requests, 1);
        QCOMPARE(proxy.target(QStringLiteral("localhost:%1").arg(port)).tunnels, 0);
        QCOMPARE(proxy.target(QStringLiteral("localhost:%1").arg(port)).requests, 0);
        QVERIFY2(!whyB.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(whyB)); // answered, directly
    }

    // The whole CLI through the proxy: storyboard (fallback), captions and image. Every request the
    // simulator saw went through a tunnel; no_proxy sends one provider direct.
    void cliGeneratesThroughTheProxy_data()
    {
        QTest::addColumn<bool>("bypassGemini");
        QTest::newRow("everything proxied") << false;
        QTest::newRow("no_proxy for gemini's host") << true;
    }
    void cliGeneratesThroughTheProxy()
    {
        QFETCH(bool, bypassGemini);
        ConnectProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        SimulatorThread sim;
        QVERIFY2(sim.start(0, &error), qPrintable(error));
        QTemporaryDir home;
        QProcessEnvironment env = cliEnvironment(sim, home);
        env.insert(QStringLiteral("http_proxy"), proxy.url());
        if (bypassGemini)
            env.insert(QStringLiteral("no_proxy"), QStringLiteral("127.0.0.1"));
        const CliRun run = generate(env, home);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.result.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
        QVERIFY(run.result.value(QStringLiteral("provider_fallback_applied")).toBool());

        const QString gemini = hostPort(sim.simulator().baseUrl(Provider::Gemini));
        const QString qwen = hostPort(qwenUrl(sim));
        const int geminiRequests = sim.simulator().counters(Provider::Gemini).requests;
        const int qwenRequests = sim.simulator().counters(Provider::Qwen).requests;
        QVERIFY(geminiRequests >= 2); // the overloaded storyboard attempt, and the image (captions, if any)
        QVERIFY(qwenRequests >= 1); // the fallback (and captions, where they go to it)
        QCOMPARE(proxy.target(qwen).requests, qwenRequests);
        QVERIFY(proxy.target(qwen).tunnels >= 1);
        if (bypassGemini) {
            QCOMPARE(proxy.target(gemini).tunnels, 0);
        } else {
            QCOMPARE(proxy.target(gemini).requests, geminiRequests); // each sent once, all through tunnels
            QVERIFY(proxy.target(gemini).tunnels >= 1 && proxy.target(gemini).tunnels <= geminiRequests);
        }
        QCOMPARE(proxy.refused(), 0);
    }

    // Providers speak https, and there Qt keeps its connections: through https_proxy each provider gets
    // one tunnel, not one per request or per stage (the storyboard and image clients share the engine
    // stack's connections); each attempt reached the simulator once. The simulator's certificate
    // comes from a private CA, trusted through BULLPEN_PROVIDER_CA: without it, the handshake fails, no
    // request reaches the provider, and the failure is TLS, naming the setting.
    void cliGeneratesOverHttpsThroughTheProxy_data()
    {
        QTest::addColumn<bool>("trusted");
        QTest::newRow("private CA trusted") << true;
        QTest::newRow("private CA not trusted") << false;
    }
    void cliGeneratesOverHttpsThroughTheProxy()
    {
        QFETCH(bool, trusted);
        const QString cert = QFINDTESTDATA("../data/tls/engine.pem");
        const QString ca = QFINDTESTDATA("../data/tls/ca.pem");
        const QString keySource = QFINDTESTDATA("../data/tls/engine.key");
        QVERIFY(!cert.isEmpty() && !ca.isEmpty() && !keySource.isEmpty());
        QTemporaryDir home;
        const QString key = home.filePath(QStringLiteral("sim.key"));
        QVERIFY(QFile::copy(keySource, key));
        QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QString error;
        const std::optional<QSslConfiguration> tls = loadServerTls(cert, key, &error);
        QVERIFY2(tls, qPrintable(error));

        ConnectProxy proxy;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        SimulatorThread sim;
        QVERIFY2(sim.start(0, &error, tls), qPrintable(error));
        QCOMPARE(sim.simulator().baseUrl(Provider::Gemini).scheme(), QStringLiteral("https"));
        QProcessEnvironment env = cliEnvironment(sim, home);
        env.insert(QStringLiteral("https_proxy"), proxy.url());
        if (trusted)
            env.insert(QStringLiteral("BULLPEN_PROVIDER_CA"), ca);
        const CliRun run = generate(env, home);

        const QString gemini = hostPort(sim.simulator().baseUrl(Provider::Gemini));
        const QString qwen = hostPort(qwenUrl(sim));
        const ProviderSimulator::Counters geminiSeen = sim.simulator().counters(Provider::Gemini);
        const ProviderSimulator::Counters qwenSeen = sim.simulator().counters(Provider::Qwen);
        QCOMPARE(proxy.refused(), 0);
        if (!trusted) {
            QCOMPARE(run.exitCode, 1);
            QCOMPARE(run.result.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
            QCOMPARE(run.result.value(QStringLiteral("kind")).toString(), QStringLiteral("TLS"));
            QVERIFY2(run.stdoutText.contains("BULLPEN_PROVIDER_CA"), run.stdoutText.constData()); // what to do next
            QCOMPARE(geminiSeen.requests + qwenSeen.requests, 0); // nothing reached a provider
            QVERIFY(proxy.target(gemini).tunnels >= 1); // the handshake went through the tunnel
            return;
        }
        QVERIFY2(run.exitCode == 0, run.stderrText.constData());
        QCOMPARE(run.result.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
        QVERIFY(run.result.value(QStringLiteral("provider_fallback_applied")).toBool());
        // What reached the simulator is what the engine recorded sending, one request per attempt:
        // gemini's overloaded storyboard attempt and the image, qwen's fallback (and the captions).
        QCOMPARE(geminiSeen.requests, run.requestsSent.value(QStringLiteral("gemini")));
        QCOMPARE(qwenSeen.requests, run.requestsSent.value(QStringLiteral("qwen")));
        QVERIFY(geminiSeen.requests >= 2);
        QVERIFY(qwenSeen.requests >= 2); // the fallback and the captions: two requests, below, one tunnel
        // One tunnel per provider: gemini's storyboard attempt and its image went through one, as did
        // qwen's fallback and captions.
        QCOMPARE(run.clients.value(QStringLiteral("gemini")).size(), 2); // both clients called gemini
        QCOMPARE(proxy.target(gemini).tunnels, 1);
        QCOMPARE(proxy.target(qwen).tunnels, 1);
        QCOMPARE(proxy.target(gemini).requests, 0); // encrypted: the proxy saw no request line
    }

private:
    static QUrl qwenUrl(const SimulatorThread &sim)
    {
        // Qwen at "localhost": its own tunnel target, told apart from gemini's at the proxy.
        QUrl url = sim.simulator().baseUrl(Provider::Qwen);
        url.setHost(QStringLiteral("localhost"));
        return url;
    }

    // The CLI's environment: the simulator's gemini as primary (overloaded) and qwen as fallback, no
    // provider or proxy setting from the caller's environment, and a home of its own.
    static QProcessEnvironment cliEnvironment(SimulatorThread &sim, const QTemporaryDir &home)
    {
        QString error;
        sim.simulator().setScenario(*Scenario::load(QStringLiteral("primary-overloaded"), &error));
        sim.simulator().setRoles(Provider::Gemini, Provider::Qwen);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys()) {
            if (k.endsWith(QLatin1StringView("_API_KEY")) || k.startsWith(QLatin1StringView("STORYBOARD_"))
                || k.endsWith(QLatin1StringView("_BASE_URL")) || k.compare(QLatin1StringView("no_proxy"), Qt::CaseInsensitive) == 0
                || k.endsWith(QLatin1StringView("_proxy"), Qt::CaseInsensitive) || k.startsWith(QLatin1StringView("BULLPEN_")))
                env.remove(k);
        }
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.insert(QStringLiteral("GEMINI_BASE_URL"), sim.simulator().baseUrl(Provider::Gemini).toString());
        env.insert(QStringLiteral("DASHSCOPE_BASE_URL"), qwenUrl(sim).toString());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("sim-key"));
        env.insert(QStringLiteral("DASHSCOPE_API_KEY"), QStringLiteral("sim-key"));
        env.insert(QStringLiteral("STORYBOARD_FALLBACK_PROVIDER"), QStringLiteral("qwen"));
        return env;
    }

    struct CliRun
    {
        int exitCode = -1;
        QByteArray stdoutText;
        QByteArray stderrText;
        QJsonObject result;
        QHash<QString, int> requestsSent; // by provider, summed over the generation's recorded attempts
        QHash<QString, QSet<QString>> clients; // by provider: the clients that called it
    };
    static CliRun generate(const QProcessEnvironment &env, const QTemporaryDir &home)
    {
        CliRun run;
        QProcess cli;
        cli.setProcessEnvironment(env);
        const QString dataDir = home.filePath(QStringLiteral("data"));
        cli.start(QStringLiteral(BULLPEN_CLI),
                  { QStringLiteral("generate"), QStringLiteral("--json"), QStringLiteral("--story"),
                    QStringLiteral("Mina walks to school. A cat follows her. They walk home together."), QStringLiteral("--data-dir"),
                    dataDir });
        if (!cli.waitForFinished(60'000))
            return run;
        run.exitCode = cli.exitCode();
        run.stdoutText = cli.readAllStandardOutput();
        run.stderrText = cli.readAllStandardError();
        run.result = QJsonDocument::fromJson(run.stdoutText).object();
        for (const QJsonValue &value : run.result.value(QStringLiteral("attempts")).toArray()) {
            const QJsonObject a = value.toObject();
            const QString provider = a.value(QStringLiteral("provider")).toString();
            run.requestsSent[provider] += a.value(QStringLiteral("requests_sent")).toInt();
            // The image stage has a client of its own; storyboard and captions share one.
            run.clients[provider].insert(a.value(QStringLiteral("stage")).toString() == u"image" ? QStringLiteral("image")
                                                                                                 : QStringLiteral("storyboard"));
        }
        return run;
    }
};

QTEST_GUILESS_MAIN(tst_Proxy)
#include "tst_proxy.moc"
