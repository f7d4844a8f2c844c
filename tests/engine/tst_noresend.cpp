// SPDX-License-Identifier: MIT
// docs/contract.md §4.4 over real HTTP/1.1: Qt's QNetworkAccessManager silently resends a POST when the server
// closes the connection after reading it (shown here with a plain QByteArray body), and Bullpen's
// adapters send exactly one request in the same situation, on a fresh and on a reused connection.
#include "config/providertrust.h"
#include "loopbackrig.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

class tst_NoResend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void plainQtResendsThePost()
    {
        // Documents the hazard the adapters guard against; if a Qt update stops resending, this
        // row says so and the guard is merely redundant.
        ProviderSimulator sim;
        QString error;
        QVERIFY2(sim.start(0, &error), qPrintable(error));
        sim.setScenario(*Scenario::load(QStringLiteral("primary-reset"), &error));
        sim.setRoles(Provider::Gemini, std::nullopt);
        QNetworkAccessManager nam;
        QNetworkRequest req(QUrl(sim.baseUrl(Provider::Gemini).toString() + QStringLiteral("/models/m:generateContent")));
        req.setRawHeader("x-goog-api-key", "k");
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = nam.post(req, QByteArray("{\"contents\":[]}"));
        int sent = 0;
        connect(reply, &QNetworkReply::requestSent, this, [&sent] { ++sent; });
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(10'000));
        QCOMPARE(sim.counters(Provider::Gemini).requests, 2);
        QCOMPARE(sent, 2);
        reply->deleteLater();
    }

    void adapterSendsOnce_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<bool>("stream");
        for (Provider p : { Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic })
            for (bool stream : { true, false })
                QTest::addRow("%s%s", qPrintable(toId(p)), stream ? "" : " (no stream)") << p << stream;
    }

    void adapterSendsOnce()
    {
        QFETCH(Provider, provider);
        QFETCH(bool, stream);
        LoopbackRig rig(QStringLiteral("primary-reset"), provider, std::nullopt, stream);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        const auto r = rig.run(StagePolicy::relief(provider, std::nullopt), QStringLiteral("A short story."));
        QVERIFY(r);
        QCOMPARE(r->attempts.size(), 1);
        QCOMPARE(r->attempts.first().failure->kind, FailureKind::NETWORK);
        QCOMPARE(r->attempts.first().requestsSent, 1);
        QCOMPARE(rig.simulator().counters(provider).requests, 1);
    }

    void reusedKeepAliveConnectionIsNotResentEither()
    {
        // First request succeeds and leaves the connection open; the second is read and dropped.
        QString error;
        auto scenario = Scenario::fromJson(
            "{\"name\":\"ok-then-reset\",\"providers\":{\"gemini\":[{\"do\":\"ok\"},{\"do\":\"reset\"},{\"do\":\"ok\"}]}}", &error);
        QVERIFY2(scenario, qPrintable(error));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, std::nullopt, false);
        QVERIFY(rig.ok());
        rig.simulator().setScenario(*scenario);
        const StagePolicy policy = StagePolicy::relief(Provider::Gemini, std::nullopt);
        const auto first = rig.run(policy, QStringLiteral("One."));
        QVERIFY(first);
        QCOMPARE(first->state, FinalState::Succeeded);
        const auto second = rig.run(policy, QStringLiteral("Two."));
        QVERIFY(second);
        QCOMPARE(second->state, FinalState::Failed);
        QCOMPARE(second->failure->kind, FailureKind::NETWORK);
        QCOMPARE(second->attempts.first().requestsSent, 1);
        QCOMPARE(rig.simulator().counters(Provider::Gemini).requests, 2); // not 3
    }

    void redirectsAreNotFollowed()
    {
        // A 307 would make a client that follows redirects re-post the body elsewhere; Bullpen follows none
        // (the egress guard here, Qt's client with redirects off for https://): a configuration error.
        QString error;
        auto scenario = Scenario::fromJson(
            "{\"name\":\"redirect\",\"providers\":{\"*\":{\"do\":\"error\",\"error\":\"server_error\",\"status\":307}}}", &error);
        QVERIFY2(scenario, qPrintable(error));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::OpenAI, std::nullopt);
        QVERIFY(rig.ok());
        rig.simulator().setScenario(*scenario);
        const auto r = rig.run(StagePolicy::relief(Provider::OpenAI, std::nullopt), QStringLiteral("x"));
        QVERIFY(r);
        QCOMPARE(r->failure->kind, FailureKind::AUTH_CONFIG);
        QCOMPARE(rig.simulator().counters(Provider::OpenAI).requests, 1);
    }

    // docs/contract.md §4.5 / 11.12: every attempt is on the wire when its budget starts. Qt keeps at most 6
    // connections per host and manager and queues the rest, deadline running; the egress guard (http://,
    // here) has no such limit and the pool of managers (https://) takes a new manager for every 6: all 40
    // hanging primaries must be at the provider well before their deadline, each sent exactly once.
    void everyConcurrentAttemptReachesTheProvider()
    {
        LoopbackRig rig(QStringLiteral("primary-hang"), Provider::Gemini, std::nullopt, false);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        StagePolicy policy = StagePolicy::relief(Provider::Gemini, std::nullopt);
        policy.primaryTimeout = 3s;
        constexpr int kConcurrent = 40;
        QSignalSpy finished(&rig.service(), &StageService::finished);
        QElapsedTimer since;
        since.start();
        for (int i = 0; i < kConcurrent; ++i)
            rig.service().start(StageRequest::forStory(QStringLiteral("Story %1.").arg(i), QStringLiteral("u")), policy);
        QTRY_COMPARE_WITH_TIMEOUT(rig.simulator().counters(Provider::Gemini).requests, kConcurrent, 2'000);
        qInfo("%d hanging requests at the provider %lld ms after their attempts started (deadline 3000 ms)", kConcurrent, since.elapsed());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), kConcurrent, 10'000);
        for (const QList<QVariant> &args : std::as_const(finished)) {
            const auto r = args.first().value<StageResult>();
            QCOMPARE(r.attempts.first().failure->kind, FailureKind::TIMEOUT);
            QCOMPARE(r.attempts.first().requestsSent, 1);
        }
        QCOMPARE(rig.simulator().counters(Provider::Gemini).requests, kConcurrent); // none resent
    }

    // §4.4 over HTTP/2, which Qt negotiates with an https provider that offers it (ALPN). A GOAWAY, or a
    // stream refused, is where an HTTP/2 client may send a request again on a new connection. A
    // provider that speaks only h2 (tests/h2/h2provider.mjs, on Node's http2) breaks the attempt each
    // way: it receives exactly one stream (so the request did go as HTTP/2), and the attempt fails
    // without a second one.
    void http2GoawayAndRefusalAreNotResent_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("GOAWAY, nothing processed") << QStringLiteral("goaway-unprocessed");
        QTest::newRow("GOAWAY after the body was read") << QStringLiteral("goaway-after-read");
        QTest::newRow("RST_STREAM REFUSED_STREAM") << QStringLiteral("refused");
    }
    void http2GoawayAndRefusalAreNotResent()
    {
        QFETCH(QString, mode);
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (node.isEmpty()) {
            QVERIFY2(qEnvironmentVariable("BULLPEN_TEST_REQUIRE_NODE") != u"1",
                     "node is not installed and BULLPEN_TEST_REQUIRE_NODE=1: the HTTP/2 provider runs on it");
            QSKIP("node is not installed (Node.js 18 or newer): the HTTP/2 provider runs on it");
        }
        const QString script = QFINDTESTDATA("../h2/h2provider.mjs");
        const QString cert = QFINDTESTDATA("../data/tls/engine.pem");
        const QString key = QFINDTESTDATA("../data/tls/engine.key");
        const QString ca = QFINDTESTDATA("../data/tls/ca.pem");
        QVERIFY(!script.isEmpty() && !cert.isEmpty() && !key.isEmpty() && !ca.isEmpty());
        QProcess provider;
        provider.start(node, { script, cert, key, mode });
        QVERIFY2(provider.waitForReadyRead(10'000), provider.readAllStandardError().constData());
        const int port = QJsonDocument::fromJson(provider.readLine()).object().value(QStringLiteral("port")).toInt();
        QVERIFY(port > 0);

        QString error;
        const auto authorities = readPemCertificates(ca, &error);
        QVERIFY2(authorities, qPrintable(error));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, std::nullopt, false, [port](Settings &s) {
            s.providers[Provider::Gemini].baseUrl = QUrl(QStringLiteral("https://127.0.0.1:%1/v1beta").arg(port));
        });
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        rig.trust().install(*authorities); // the provider's certificate comes from the test CA
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A short story."));
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        QCOMPARE(r->attempts.size(), 1);
        QVERIFY2(r->attempts.first().requestsSent <= 1, "Qt reported the request sent twice");
        // The attempt has ended: had Qt sent the request again, that second stream would have left
        // before it reported the failure. A barrier: a request of the test's own, on a connection
        // opened only now (a TLS handshake later than anything the attempt wrote), to a path of its
        // own; once the provider has logged it, it has logged every stream the attempt sent.
        QNetworkAccessManager barrierClient;
        QNetworkRequest barrier(QUrl(QStringLiteral("https://127.0.0.1:%1/barrier").arg(port)));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(*authorities);
        barrier.setSslConfiguration(tls);
        std::unique_ptr<QNetworkReply> barrierReply(barrierClient.get(barrier));
        QByteArray log;
        QTRY_VERIFY2_WITH_TIMEOUT((log += provider.readAllStandardOutput()).contains("\"/barrier\""),
                                  qPrintable(QString::fromUtf8(log) + QStringLiteral(" / the barrier: ") + barrierReply->errorString()),
                                  10'000);
        int streams = 0; // the attempt's: the barrier's own (a client may send it more than once) not counted
        for (const QByteArray &line : log.split('\n'))
            streams += line.contains("\"stream\"") && !line.contains("\"/barrier\"") ? 1 : 0;
        QVERIFY2(streams == 1, log.constData());
        qInfo("%s: one stream at the provider; the attempt ended %s (%s)", qPrintable(mode),
              qPrintable(enumName(r->attempts.first().failure->kind)), qPrintable(r->attempts.first().failure->detail));
        provider.kill();
        provider.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(tst_NoResend)
#include "tst_noresend.moc"
