// SPDX-License-Identifier: MIT
// Every built-in scenario × each provider format as the primary, over real loopback HTTP: the expected
// kind, the expected fallback decision, and exactly one simulator request per attempt (also for
// primary-reset, where Qt would otherwise resend the POST).
#include "loopbackrig.h"
#include "sim/providersimulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <atomic>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono_literals;

namespace {

const QString kStory =
    QStringLiteral("Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together.");

Provider fallbackFor(Provider p)
{
    if (p == Provider::Gemini)
        return Provider::Qwen;
    if (p == Provider::Qwen)
        return Provider::OpenAI;
    if (p == Provider::OpenAI)
        return Provider::Anthropic;
    return Provider::Gemini;
}

struct Expected
{
    const char *scenario;
    FailureKind primaryKind; // UNKNOWN here means "the primary succeeds"
    bool fallback;
    FinalState state;
    std::optional<FailureKind> fallbackKind; // when the fallback provider fails too
    bool clientCloses = false; // the simulator must see the primary's connection closed by us
};

const Expected kMatrix[] = {
    { "healthy", FailureKind::UNKNOWN, false, FinalState::Succeeded, {} },
    { "instant", FailureKind::UNKNOWN, false, FinalState::Succeeded, {} },
    { "primary-overloaded", FailureKind::TRANSIENT_SERVER, true, FinalState::Succeeded, {} },
    { "primary-rate-limited", FailureKind::RATE_LIMITED, true, FinalState::Succeeded, {} },
    { "primary-hang", FailureKind::TIMEOUT, true, FinalState::Succeeded, {}, true },
    { "primary-slow-drip", FailureKind::TIMEOUT, true, FinalState::Succeeded, {}, true },
    { "primary-truncated", FailureKind::OUTPUT_TRUNCATED, true, FinalState::Succeeded, {} },
    { "primary-malformed", FailureKind::OUTPUT_INVALID, true, FinalState::Succeeded, {} },
    { "primary-invalid-storyboard", FailureKind::OUTPUT_INVALID, true, FinalState::Succeeded, {} },
    { "primary-auth", FailureKind::AUTH_CONFIG, false, FinalState::Failed, {} },
    { "primary-refused", FailureKind::REFUSED, false, FinalState::Failed, {} },
    { "primary-reset", FailureKind::NETWORK, true, FinalState::Succeeded, {} },
    { "primary-stream-cut", FailureKind::NETWORK, true, FinalState::Succeeded, {} },
    { "primary-stream-error", FailureKind::TRANSIENT_SERVER, true, FinalState::Succeeded, {} },
    { "both-down", FailureKind::TRANSIENT_SERVER, true, FinalState::Failed, FailureKind::TRANSIENT_SERVER },
    { "fallback-hang", FailureKind::TRANSIENT_SERVER, true, FinalState::Failed, FailureKind::TIMEOUT },
};

} // namespace

class tst_SimulatorMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matrix_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<Provider>("primary");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<int>("row");
        for (int i = 0; i < int(std::size(kMatrix)); ++i) {
            for (Provider p : { Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic }) {
                QTest::addRow("%s / %s", kMatrix[i].scenario, qPrintable(toId(p)))
                    << QString::fromLatin1(kMatrix[i].scenario) << p << true << i;
                const QString s = QString::fromLatin1(kMatrix[i].scenario);
                if (s == u"healthy" || s == u"primary-reset" || s == u"primary-truncated" || s == u"primary-malformed"
                    || s == u"primary-refused" || s == u"primary-stream-cut")
                    QTest::addRow("%s / %s / no stream", kMatrix[i].scenario, qPrintable(toId(p))) << s << p << false << i;
            }
        }
    }

    void matrix()
    {
        QFETCH(QString, scenario);
        QFETCH(Provider, primary);
        QFETCH(bool, stream);
        QFETCH(int, row);
        const Expected &want = kMatrix[row];
        const Provider fallback = fallbackFor(primary);

        LoopbackRig rig(scenario, primary, fallback, stream);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        QSignalSpy closed(&rig.simulator(), &ProviderSimulator::clientClosed);
        StagePolicy policy = StagePolicy::relief(primary, fallback);
        policy.primaryTimeout = 1200ms;
        policy.fallbackTimeout = 1200ms;
        const auto result = rig.run(policy, kStory);
        QVERIFY(result);
        const StageResult &r = *result;

        QCOMPARE(r.state, want.state);
        const AttemptRecord &first = r.attempts.first();
        QCOMPARE(first.provider, primary);
        if (want.primaryKind == FailureKind::UNKNOWN) {
            QVERIFY2(first.success, first.failure ? qPrintable(first.failure->detail) : "");
        } else {
            QVERIFY(!first.success);
            QVERIFY2(first.failure->kind == want.primaryKind,
                     qPrintable(enumName(first.failure->kind) + QStringLiteral(": ") + first.failure->detail));
        }
        QCOMPARE(r.attempts.size(), want.fallback ? 2 : 1);
        if (want.fallback) {
            QCOMPARE(r.attempts.at(1).provider, fallback);
            QCOMPARE(r.attempts.at(1).success, !want.fallbackKind.has_value());
            if (want.fallbackKind)
                QCOMPARE(r.attempts.at(1).failure->kind, *want.fallbackKind);
        }
        if (r.state == FinalState::Succeeded) {
            QVERIFY(r.storyboard);
            QCOMPARE(r.storyboard->panels.size(), 4);
            QVERIFY2(r.storyboard->panels.first().scene.contains(QStringLiteral("Mina")), "the storyboard must come from the story");
            QCOMPARE(r.fallback.applied, want.fallback);
            QVERIFY(r.tokens.known());
        }

        // docs/contract.md §4.4 / 11.1: one HTTP request per attempt, counted on both sides.
        QCOMPARE(rig.simulator().counters(primary).requests, 1);
        QCOMPARE(rig.simulator().counters(fallback).requests, want.fallback ? 1 : 0);
        for (const AttemptRecord &a : r.attempts)
            QCOMPARE(a.requestsSent, 1);

        // Cancellation on the wire: our abort reached the simulator as a closed connection.
        if (want.clientCloses)
            QTRY_COMPARE_WITH_TIMEOUT(rig.simulator().counters(primary).closedByClient, 1, 5000);
        if (want.fallbackKind == FailureKind::TIMEOUT)
            QTRY_COMPARE_WITH_TIMEOUT(rig.simulator().counters(fallback).closedByClient, 1, 5000);
    }

    // The scenario travels with each request (x-bullpen-scenario / x-bullpen-roles): three generations
    // at once on one simulator, each playing its own scenario and roles, and the simulator itself unchanged.
    void scenarioTravelsWithTheRequest()
    {
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, Provider::Qwen);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        QSignalSpy finished(&rig.service(), &StageService::finished);
        auto start = [&](const QString &scenario, Provider primary, Provider fallback) {
            StageRequest request = StageRequest::forStory(kStory, QStringLiteral("tester@example.com"));
            if (!scenario.isEmpty())
                request.scenario = ScenarioChoice { scenario, primary, fallback };
            StagePolicy policy = StagePolicy::relief(primary, fallback);
            policy.primaryTimeout = 5s;
            policy.fallbackTimeout = 5s;
            return rig.service().start(request, policy);
        };
        const QString overloaded = start(QStringLiteral("primary-overloaded"), Provider::Gemini, Provider::Qwen);
        const QString healthy = start(QString(), Provider::Gemini, Provider::Qwen);
        const QString auth = start(QStringLiteral("primary-auth"), Provider::Qwen, Provider::Gemini); // roles swapped
        const QString unknown = start(QStringLiteral("no-such-scenario"), Provider::Gemini, Provider::Qwen);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 4, 15000);
        std::map<QString, StageResult> results;
        for (const QList<QVariant> &args : std::as_const(finished)) {
            const auto r = args.first().value<StageResult>();
            results[r.generationId] = r;
        }
        const StageResult &o = results.at(overloaded);
        QCOMPARE(o.state, FinalState::Succeeded);
        QCOMPARE(o.attempts.first().failure->kind, FailureKind::TRANSIENT_SERVER); // gemini played primary-overloaded's primary
        QVERIFY(o.fallback.applied);
        QCOMPARE(*o.fallback.finalProvider, Provider::Qwen);
        const StageResult &h = results.at(healthy);
        QCOMPARE(h.state, FinalState::Succeeded);
        QCOMPARE(h.attempts.size(), 1);
        QVERIFY(!h.fallback.applied);
        const StageResult &a = results.at(auth);
        QCOMPARE(a.state, FinalState::Failed);
        QCOMPARE(a.attempts.first().provider, Provider::Qwen); // qwen was this request's primary, so it got the auth fault
        QCOMPARE(a.attempts.first().failure->kind, FailureKind::AUTH_CONFIG);
        const StageResult &u = results.at(unknown);
        QCOMPARE(u.state, FinalState::Failed);
        QVERIFY2(u.attempts.first().failure->detail.contains(QStringLiteral("unknown simulator scenario")),
                 qPrintable(u.attempts.first().failure->detail));
        QCOMPARE(rig.simulator().scenario().name, QStringLiteral("healthy"));
    }

    // An outage in time (a scenario's phases): healthy, then overloaded from 10 s to 20 s after the
    // first request, then healthy again; /_sim/reset (resetCounters) restarts the clock.
    void phasesScriptAnOutageInTime()
    {
        QString error;
        const auto scenario = Scenario::fromJson(R"({"name": "outage", "providers": {"primary": {"latency_ms": 5,
            "phases": [{"from_s": 10, "to_s": 20, "do": "error", "error": "overloaded"}]}, "*": {"do": "ok"}}})",
                                                 &error);
        QVERIFY2(scenario, qPrintable(error));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, Provider::Qwen);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        std::atomic<qint64> now { 1'000'000 };
        rig.simulator().setClock([&now] { return now.load(); });
        rig.simulator().setScenario(*scenario);
        QSignalSpy finished(&rig.service(), &StageService::finished);
        const auto primaryKindAt = [&](qint64 ms) -> std::optional<FailureKind> {
            now = 1'000'000 + ms;
            StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
            policy.primaryTimeout = 5s;
            policy.fallbackTimeout = 5s;
            finished.clear();
            rig.service().start(StageRequest::forStory(kStory, QStringLiteral("tester@example.com")), policy);
            if (!finished.wait(10'000))
                return FailureKind::INTERNAL; // reported below as a wrong kind
            const auto r = finished.first().first().value<StageResult>();
            return r.attempts.first().failure ? std::optional(r.attempts.first().failure->kind) : std::nullopt;
        };
        QCOMPARE(primaryKindAt(0), std::nullopt); // the first request starts the clock
        QCOMPARE(primaryKindAt(9'999), std::nullopt); // before the phase
        QCOMPARE(primaryKindAt(10'000), std::optional(FailureKind::TRANSIENT_SERVER)); // from_s is inclusive
        QCOMPARE(primaryKindAt(19'999), std::optional(FailureKind::TRANSIENT_SERVER));
        QCOMPARE(primaryKindAt(20'000), std::nullopt); // to_s is not
        rig.simulator().resetCounters();
        QCOMPARE(primaryKindAt(30'000), std::nullopt); // the clock starts again here …
        QCOMPARE(primaryKindAt(40'000), std::optional(FailureKind::TRANSIENT_SERVER)); // … so 10 s later is the outage

        // Malformed phases are refused naming the field.
        for (const char *bad :
             { R"({"name":"x","providers":{"primary":{"phases":[{"from_s":5,"to_s":5,"do":"hang"}]}}})",
               R"({"name":"x","providers":{"primary":{"phases":[{"from_s":0,"to_s":9,"do":"hang"},{"from_s":5,"to_s":20,"do":"ok"}]}}})",
               R"({"name":"x","providers":{"primary":{"phases":[{"to_s":9,"do":"hang"}]}}})",
               R"({"name":"x","providers":{"primary":{"phases":[]}}})" }) {
            QVERIFY2(!Scenario::fromJson(bad, &error), bad);
            QVERIFY2(error.contains(QStringLiteral("phases")), qPrintable(error));
        }
    }

    void eachProvidersOwnDialect()
    {
        // What the official SDKs see of the wire (docs/simulator-fidelity.md), checked without them.
        ProviderSimulator sim;
        QVERIFY(sim.start());
        QNetworkAccessManager nam;
        const QByteArray body = R"({"model":"m","contents":[{"role":"user","parts":[{"text":"Story:\nA cat."}]}],)"
                                R"("messages":[{"role":"user","content":"Story:\nA cat."}],"max_tokens":100})";
        struct Reply
        {
            int status = 0;
            QByteArray body;
            QNetworkReply *raw = nullptr;
        };
        auto post = [&](const QString &path, const QList<std::pair<QByteArray, QByteArray>> &headers, const QByteArray &payload) {
            QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(sim.port()).arg(path)));
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            for (const auto &[name, value] : headers)
                request.setRawHeader(name, value);
            QNetworkReply *reply = nam.post(request, payload);
            QSignalSpy done(reply, &QNetworkReply::finished);
            if (!reply->isFinished())
                done.wait(10'000);
            Reply r { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll(), reply };
            reply->deleteLater();
            return r;
        };
        // Gemini: no key at all is 403 PERMISSION_DENIED, its body saying the same code.
        const Reply noKey = post(QStringLiteral("/v1beta/models/m:generateContent"), {}, body);
        QCOMPARE(noKey.status, 403);
        const QJsonObject err = QJsonDocument::fromJson(noKey.body).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(err.value(QStringLiteral("code")).toInt(), 403);
        QCOMPARE(err.value(QStringLiteral("status")).toString(), QStringLiteral("PERMISSION_DENIED"));
        // ?key= is a key; :streamGenerateContent without alt=sse is one JSON array of chunks.
        const Reply array = post(QStringLiteral("/v1beta/models/m:streamGenerateContent?key=k"), {}, body);
        QCOMPARE(array.status, 200);
        const QJsonArray chunks = QJsonDocument::fromJson(array.body).array();
        QVERIFY2(chunks.size() >= 2, array.body.left(200).constData());
        QVERIFY(chunks.last().toObject().contains(QStringLiteral("usageMetadata")));
        // Anthropic: a bearer token is a key; every reply names its request id.
        const Reply anthropic =
            post(QStringLiteral("/v1/messages"), { { "authorization", "Bearer k" }, { "anthropic-version", "2023-06-01" } }, body);
        QCOMPARE(anthropic.status, 200);
        QVERIFY(anthropic.raw->rawHeader("request-id").startsWith("req_"));
        // OpenAI: LF framing, `created` on chunks, no usage chunk unless asked for.
        QByteArray stream = body;
        stream.replace(R"("max_tokens":100)", R"("max_tokens":100,"stream":true)");
        const Reply plain = post(QStringLiteral("/v1/chat/completions"), { { "authorization", "Bearer k" } }, stream);
        QCOMPARE(plain.status, 200);
        QVERIFY(!plain.body.contains('\r'));
        QVERIFY(plain.body.contains("\"created\""));
        QVERIFY(!plain.body.contains("\"usage\""));
        QVERIFY(!plain.raw->rawHeader("x-request-id").isEmpty());
        QByteArray withUsage = stream;
        withUsage.replace(R"("stream":true)", R"("stream":true,"stream_options":{"include_usage":true})");
        const Reply usage = post(QStringLiteral("/v1/chat/completions"), { { "authorization", "Bearer k" } }, withUsage);
        QVERIFY(usage.body.contains("\"choices\":[],"));
        QVERIFY(usage.body.contains("\"usage\""));
    }

    void flakyKeepsTheInvariants()
    {
        LoopbackRig rig(QStringLiteral("flaky"), Provider::Gemini, Provider::Qwen);
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        policy.primaryTimeout = 800ms;
        policy.fallbackTimeout = 800ms;
        int attempts[2] = { 0, 0 };
        for (int i = 0; i < 24; ++i) {
            const auto r = rig.run(policy, kStory + QString::number(i));
            QVERIFY(r);
            QVERIFY(r->attempts.size() == 1 || r->attempts.size() == 2);
            for (const AttemptRecord &a : r->attempts) {
                QCOMPARE(a.requestsSent, 1);
                QVERIFY(a.duration <= std::chrono::microseconds(800ms) + std::chrono::microseconds(200ms));
                ++attempts[a.provider == Provider::Gemini ? 0 : 1];
            }
            QVERIFY(r->elapsed <= std::chrono::microseconds(1600ms) + std::chrono::microseconds(200ms));
        }
        QCOMPARE(rig.simulator().counters(Provider::Gemini).requests, attempts[0]);
        QCOMPARE(rig.simulator().counters(Provider::Qwen).requests, attempts[1]);
    }
};

QTEST_GUILESS_MAIN(tst_SimulatorMatrix)
#include "tst_simulatormatrix.moc"
