// SPDX-License-Identifier: MIT
// Providers that attack the client (a raw loopback server of the tests' own, flooding from its own
// thread): header floods must not wedge the stage, fallback must be sent, the attacker's connection
// must be closed at the wire, and memory must stay bounded for any flood on any wire format.
#include "hostileserver.h"
#include "loopbackrig.h"
#include "runtime/enginesetup.h"
#include "sim/simwire.h"
#include "sim/storyboardsynth.h"

#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;
using namespace bullpen::test;
using namespace std::chrono;
using namespace std::chrono_literals;
using Mode = HostileServer::Mode;

namespace {

// How much a row may add to the process's resident memory at its peak. Measured as growth over the
// row's own start, not as an absolute peak: under ASan the quarantine (freed memory kept for 256 MB)
// and shadow memory fill up across rows and would count against later rows. Sanitizers also make
// every allocation bigger: the bound there is looser. Without the caps a flood reached ~1.5 GB.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kPeakLimitMiB = 512;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kPeakLimitMiB = 512;
#else
constexpr double kPeakLimitMiB = 128;
#endif
#else
constexpr double kPeakLimitMiB = 128;
#endif

// Kernel-reported resident set, in MiB (VmRSS or the peak VmHWM).
double procMiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

// Resets the peak (VmHWM) so that each row measures its own.
void resetPeak()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    if (f.open(QIODevice::WriteOnly))
        f.write("5");
}

void pointPrimaryAt(Settings &s, Provider p, const QUrl &url)
{
    QUrl base = url;
    base.setPath(QStringLiteral("/v1"));
    s.providers[p].baseUrl = base;
}

// A hostile server on its own thread and a loopback rig whose `provider` is pointed at it (every
// other provider at the simulator).
struct Arena
{
    Arena(Mode mode, Provider provider, std::optional<Provider> fallback, bool stream, const QByteArray &answer = {})
        : hostile(mode)
    {
        hostile.setAnswer(answer);
        if (!hostile.start(&error))
            return;
        rig = std::make_unique<LoopbackRig>(QStringLiteral("healthy"), provider, fallback, stream,
                                            [&](Settings &s) { pointPrimaryAt(s, provider, hostile.baseUrl()); });
        if (!rig->ok())
            error = rig->error();
    }
    bool ok() const { return rig && rig->ok(); }

    HostileServer hostile;
    std::unique_ptr<LoopbackRig> rig;
    QString error;
};

// A complete, valid Gemini answer (not streamed) for `story`: the head and its body, framed as asked.
QByteArray geminiAnswer(const QString &story, bool chunked, const QByteArray &after = {}, const QByteArray &trailer = {})
{
    const QByteArray body =
        SimWire::body(Provider::Gemini, QStringLiteral("gemini-2.5-flash"),
                      QString::fromUtf8(QJsonDocument(StoryboardSynth::fromStory(story).toJson()).toJson(QJsonDocument::Compact)),
                      SimWire::Ending::Stop, TokenUsage { 100, 200 });
    if (!chunked)
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body
            + after;
    QByteArray out = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (qsizetype at = 0; at < body.size(); at += 97) {
        const QByteArray piece = body.mid(at, 97);
        out += QByteArray::number(piece.size(), 16) + ";piece=1\r\n" + piece + "\r\n";
    }
    return out + "0\r\n" + trailer + "\r\n" + after;
}

} // namespace

class tst_HostileProviders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void headFloodGoesToTheFallback_data()
    {
        QTest::addColumn<Mode>("mode");
        QTest::addRow("endless 100 Continue") << Mode::ContinueFlood;
        QTest::addRow("endless header lines") << Mode::HeaderFlood;
        QTest::addRow("one endless header line") << Mode::EndlessHeaderLine;
        QTest::addRow("one endless status line") << Mode::EndlessStatusLine;
    }

    // Defect 1: before the egress guard, Qt's network thread looped on one-byte reads for as long as
    // the flood lasted: the deadline's abort and the fallback request never left its queue.
    void headFloodGoesToTheFallback()
    {
        QFETCH(Mode, mode);
        Arena arena(mode, Provider::Gemini, Provider::Qwen, true);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        HostileServer &hostile = arena.hostile;
        LoopbackRig &rig = *arena.rig;
        const double rssBefore = procMiB("VmRSS:");
        StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        policy.primaryTimeout = 2s;
        policy.fallbackTimeout = 10s;
        const auto started = steady_clock::now();
        const auto r = rig.run(policy, QStringLiteral("A cat finds a hat."), 20'000);
        QVERIFY2(r, "the stage never finished");
        const auto took = steady_clock::now() - started;
        QCOMPARE(r->state, FinalState::Succeeded);
        QVERIFY(r->fallback.applied);
        QCOMPARE(r->attempts.size(), 2);
        QCOMPARE(r->attempts.first().failure->kind, FailureKind::OUTPUT_INVALID);
        QCOMPARE(rig.simulator().counters(Provider::Qwen).requests, 1); // fallback really sent
        QVERIFY(took < policy.effectiveBudget());
        // The attacker's connection is closed, and long before the primary deadline.
        QTRY_VERIFY_WITH_TIMEOUT(hostile.record().firstClose.has_value(), 5'000);
        QVERIFY(*hostile.record().firstClose - started < 2s);
        const double grew = procMiB("VmRSS:") - rssBefore;
        qInfo("primary failed in %.1f ms (%s); relief sent; stage %.1f ms; attacker sent %lld KiB; RSS grew %.1f MiB",
              double(r->attempts.first().duration.count()) / 1000.0, qPrintable(r->attempts.first().failure->detail),
              double(duration_cast<microseconds>(took).count()) / 1000.0, hostile.record().bytesSent / 1024, grew);
        QVERIFY(grew < kPeakLimitMiB / 2);
    }

    // A head that drips forever stays open until the deadline; then both sides close within 50 ms.
    void drippingHeadIsClosedAtTheDeadline()
    {
        Arena arena(Mode::HeaderDrip, Provider::Gemini, Provider::Qwen, true);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        HostileServer &hostile = arena.hostile;
        LoopbackRig &rig = *arena.rig;
        StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        policy.primaryTimeout = 600ms;
        policy.fallbackTimeout = 10s;
        const auto started = steady_clock::now();
        const auto r = rig.run(policy, QStringLiteral("A cat finds a hat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Succeeded);
        QCOMPARE(r->attempts.first().failure->kind, FailureKind::TIMEOUT);
        QCOMPARE(rig.simulator().counters(Provider::Qwen).requests, 1);
        QTRY_VERIFY_WITH_TIMEOUT(hostile.record().firstClose.has_value(), 5'000);
        const auto closedAfterDeadline = *hostile.record().firstClose - (started + policy.primaryTimeout);
        qInfo("attacker's connection closed %.2f ms after the primary deadline",
              double(duration_cast<microseconds>(closedAfterDeadline).count()) / 1000.0);
        QVERIFY(closedAfterDeadline < 50ms);
    }

    // After meeting such a provider the same client serves the next generation normally.
    void clientKeepsServingAfterAFlood()
    {
        Arena arena(Mode::ContinueFlood, Provider::Gemini, Provider::Qwen, true);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        LoopbackRig &rig = *arena.rig;
        StagePolicy flooded = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        flooded.primaryTimeout = 2s;
        QVERIFY(rig.run(flooded, QStringLiteral("One.")));
        StagePolicy healthy = StagePolicy::relief(Provider::Qwen, std::nullopt);
        healthy.primaryTimeout = 5s;
        for (int i = 0; i < 3; ++i) {
            const auto r = rig.run(healthy, QStringLiteral("Two."), 10'000);
            QVERIFY(r);
            QCOMPARE(r->state, FinalState::Succeeded);
            QVERIFY(r->attempts.first().duration < 2s);
        }
    }

    void bodyFloodStaysBounded_data()
    {
        QTest::addColumn<Provider>("provider");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<Mode>("mode");
        for (Provider p : { Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic }) {
            QTest::addRow("%s data: {} stream", qPrintable(toId(p))) << p << true << Mode::SseDataFlood;
            QTest::addRow("%s bare CR stream", qPrintable(toId(p))) << p << true << Mode::SseCrFlood;
            QTest::addRow("%s endless JSON body", qPrintable(toId(p))) << p << false << Mode::JsonBodyFlood;
        }
    }

    // Defect 2: under any body flood the peak RSS grows by less than 128 MiB, streaming or not, on every format.
    void bodyFloodStaysBounded()
    {
        QFETCH(Provider, provider);
        QFETCH(bool, stream);
        QFETCH(Mode, mode);
        Arena arena(mode, provider, std::nullopt, stream);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        HostileServer &hostile = arena.hostile;
        LoopbackRig &rig = *arena.rig;
        const double before = procMiB("VmRSS:");
        resetPeak();
        StagePolicy policy = StagePolicy::relief(provider, std::nullopt);
        policy.primaryTimeout = 3s;
        const auto r = rig.run(policy, QStringLiteral("A cat finds a hat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        const double peak = procMiB("VmHWM:");
        qInfo("%s after %.0f ms; attacker sent %lld MiB; peak RSS %.1f MiB (%.1f MiB over the row's start)",
              qPrintable(enumName(r->failure->kind)), double(r->attempts.first().duration.count()) / 1000.0,
              hostile.record().bytesSent / (1024 * 1024), peak, peak - before);
        QVERIFY2(peak - before < kPeakLimitMiB,
                 qPrintable(QStringLiteral("peak RSS %1 MiB, %2 MiB over the row's start").arg(peak).arg(peak - before)));
    }

    // Defect 10: a decompression bomb is an answer we refuse, not a network fault to blame on the provider.
    void gzipBombIsInvalidOutput()
    {
        Arena arena(Mode::GzipBomb, Provider::Gemini, std::nullopt, false);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        LoopbackRig &rig = *arena.rig;
        const double before = procMiB("VmRSS:");
        resetPeak();
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        QCOMPARE(r->failure->kind, FailureKind::OUTPUT_INVALID);
        QVERIFY2(r->failure->detail.contains(u"compressed body was refused"), qPrintable(r->failure->detail));
        QVERIFY2(procMiB("VmHWM:") - before < kPeakLimitMiB,
                 qPrintable(QStringLiteral("peak %1 MiB over the start").arg(procMiB("VmHWM:") - before)));
    }

    // Defect 10: a connection closed before any byte of the answer says so (not "Unknown error").
    void closedBeforeAnswerSaysSo()
    {
        Arena arena(Mode::Fixed, Provider::Gemini, std::nullopt, false, {});
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        LoopbackRig &rig = *arena.rig;
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->failure->kind, FailureKind::NETWORK);
        QVERIFY2(r->failure->detail.contains(u"after the request was sent, before any byte of its answer"), qPrintable(r->failure->detail));
        QVERIFY(!r->failure->detail.contains(u"Unknown error"));
        QCOMPARE(r->attempts.first().requestsSent, 1);
    }

    // docs/contract.md §12.3: a 6 MB answer whose last byte arrives well before its deadline is accepted, however long
    // it takes to read; it is read off the engine thread, so another attempt's deadline that falls due
    // meanwhile is served on time.
    void largeAnswerInTimeIsAcceptedWhileOtherDeadlinesHold()
    {
        const QString story = QStringLiteral("A fox learns to sail. The sea is rough. A gull helps. They reach the island.");
        QByteArray body =
            SimWire::body(Provider::Gemini, QStringLiteral("gemini-2.5-flash"),
                          QString::fromUtf8(QJsonDocument(StoryboardSynth::fromStory(story).toJson()).toJson(QJsonDocument::Compact)),
                          SimWire::Ending::Stop, TokenUsage { 100, 200 });
        QVERIFY(body.endsWith('}'));
        body.chop(1);
        // Padding that is slow to read for its size (small objects), so that reading outlasts the transfer.
        body += ",\"padding\":[" + QByteArray("{\"k\":1},").repeated(6 * 1024 * 1024 / 8) + "0]}";
        QVERIFY(body.size() > 6 * 1024 * 1024);
        Arena arena(Mode::Fixed, Provider::Gemini, std::nullopt, false,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                        + body);
        arena.hostile.setAnswerDelay(700ms);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        LoopbackRig &rig = *arena.rig;
        // The others: OpenAI on the simulator, hanging, due every 3 ms from 690 to 807 ms, so that some
        // fall due while the answer is being read, whenever exactly that is.
        QString why;
        rig.simulator().setScenario(*Scenario::load(QStringLiteral("primary-hang"), &why));
        rig.simulator().setRoles(Provider::OpenAI, std::nullopt);

        QSignalSpy finished(&rig.service(), &StageService::finished);
        StagePolicy large = StagePolicy::relief(Provider::Gemini, std::nullopt);
        large.primaryTimeout = 3000ms;
        rig.service().start(StageRequest::forStory(story, QStringLiteral("u")), large);
        const int hangingCount = 40;
        for (int i = 0; i < hangingCount; ++i) {
            StagePolicy hanging = StagePolicy::relief(Provider::OpenAI, std::nullopt);
            hanging.primaryTimeout = std::chrono::milliseconds(690 + 3 * i);
            rig.service().start(StageRequest::forStory(story, QStringLiteral("u")), hanging);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1 + hangingCount, 30'000);
        std::optional<StageResult> big;
        double worstLateMs = 0;
        for (const QList<QVariant> &args : std::as_const(finished)) {
            const auto r = args.first().value<StageResult>();
            const AttemptRecord &a = r.attempts.first();
            if (a.provider == Provider::Gemini) {
                big = r;
                continue;
            }
            QCOMPARE(a.failure->kind, FailureKind::TIMEOUT);
            worstLateMs = std::max(worstLateMs, double((*a.cancelledAt - a.deadline).count()) / 1000.0);
        }
        QVERIFY(big);
        QVERIFY2(big->state == FinalState::Succeeded, qPrintable(big->failure ? big->failure->detail : QString()));
        // Transfer and reading took this long after the server began to answer at 700 ms; had the
        // reading held the engine thread, a deadline due as it began would be late by about as much.
        const double readMs = double(big->attempts.first().duration.count()) / 1000.0 - 700.0;
        qInfo("6 MB answer: transferred and read %.1f ms after the server began; worst lateness of %d deadlines around it: %.2f ms", readMs,
              hangingCount, worstLateMs);
        QVERIFY2(worstLateMs < readMs / 2,
                 qPrintable(QStringLiteral("a deadline was %1 ms late while a %2 ms read ran").arg(worstLateMs).arg(readMs)));
    }

    void keepAliveCarriesTheNextExchange_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::addColumn<QByteArray>("trailer");
        QTest::addColumn<int>("connections");
        QTest::addRow("Content-Length") << false << QByteArray() << 1;
        QTest::addRow("chunked, with extensions") << true << QByteArray() << 1;
        // The guard reads the trailer section as the body's end and keeps the connection (Qt 6.4's own client
        // closed it after a trailer and opened a new one each time).
        QTest::addRow("chunked, with a trailer") << true << QByteArray("X-Trailer: done\r\n") << 1;
    }

    // The egress guard keeps a connection exchange by exchange: while each answer's end is known from its
    // framing, the next request goes on the same connection to the provider.
    void keepAliveCarriesTheNextExchange()
    {
        QFETCH(bool, chunked);
        QFETCH(QByteArray, trailer);
        QFETCH(int, connections);
        const QString story = QStringLiteral("A fox learns to sail. The sea is rough. A gull helps. They reach the island.");
        Arena arena(Mode::KeepAlive, Provider::Gemini, std::nullopt, false, geminiAnswer(story, chunked, {}, trailer));
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        for (int i = 0; i < 3; ++i) {
            const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), story, 20'000);
            QVERIFY(r);
            QVERIFY2(r->state == FinalState::Succeeded, qPrintable(r->failure ? r->failure->detail : QString()));
        }
        QCOMPARE(arena.hostile.record().requests, 3);
        QCOMPARE(arena.hostile.record().connections, connections);
    }

    void surplusAfterAnAnswerIsNotTheNextAnswer_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::addRow("Content-Length") << false;
        QTest::addRow("chunked") << true;
    }

    // Bytes a provider sends past the end of its answer (here a whole second answer, smuggled) are not
    // the next request's answer: that connection carries nothing more, and the next request gets its own.
    void surplusAfterAnAnswerIsNotTheNextAnswer()
    {
        QFETCH(bool, chunked);
        const QString story = QStringLiteral("A fox learns to sail. The sea is rough. A gull helps. They reach the island.");
        const QByteArray smuggled = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
        Arena arena(Mode::KeepAlive, Provider::Gemini, std::nullopt, false, geminiAnswer(story, chunked, smuggled));
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        for (int i = 0; i < 2; ++i) {
            const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), story, 20'000);
            QVERIFY(r);
            QVERIFY2(r->state == FinalState::Succeeded, qPrintable(r->failure ? r->failure->detail : QString()));
        }
        QCOMPARE(arena.hostile.record().requests, 2);
        QCOMPARE(arena.hostile.record().connections, 2);
    }

    // A provider that closes an idle keep-alive connection costs the next request nothing: it goes on a
    // new connection, not onto the closed one.
    void idleCloseByTheProviderIsNotAFailure()
    {
        const QString story = QStringLiteral("A fox learns to sail. The sea is rough. A gull helps. They reach the island.");
        Arena arena(Mode::KeepAlive, Provider::Gemini, std::nullopt, false, geminiAnswer(story, false));
        arena.hostile.setIdleClose(30ms);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        for (int i = 0; i < 3; ++i) {
            const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), story, 20'000);
            QVERIFY(r);
            QVERIFY2(r->state == FinalState::Succeeded, qPrintable(r->failure ? r->failure->detail : QString()));
            QTRY_COMPARE_WITH_TIMEOUT(arena.hostile.record().closes, i + 1, 5'000); // closed while idle
        }
        QCOMPARE(arena.hostile.record().requests, 3);
        QCOMPARE(arena.hostile.record().connections, 3);
    }

    // A provider cannot forge the guard's verdict: headers named as the old relay's markers are the
    // provider's own, and its 503 is read as a 503.
    void forgedGuardHeaderIsIgnored()
    {
        const QByteArray body = R"({"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}})";
        Arena arena(Mode::Fixed, Provider::Gemini, std::nullopt, false,
                    "HTTP/1.1 503 Service Unavailable\r\nX-Bullpen-Guard: unreachable\r\nX-Bullpen-Guard-Reached: 0\r\n"
                    "Content-Type: application/json\r\nContent-Length: "
                        + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        LoopbackRig &rig = *arena.rig;
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->failure->kind, FailureKind::TRANSIENT_SERVER);
        QCOMPARE(r->attempts.first().httpStatus, 503);
        QCOMPARE(r->attempts.first().requestsSent, 1);
    }

    void bodyCutShortIsANetworkFailure_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("detail");
        QTest::addRow("Content-Length not reached") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                                  "Content-Length: 1000\r\n\r\n{\"candidates\":[")
                                                    << QStringLiteral("closed after 15 bytes of the answer");
        QTest::addRow("chunked, no last chunk") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                              "Transfer-Encoding: chunked\r\n\r\nf\r\n{\"candidates\":[\r\n")
                                                << QStringLiteral("closed after 15 bytes of the answer");
        QTest::addRow("chunked, malformed") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                          "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
                                            << QStringLiteral("chunked body is malformed");
    }

    // The guard decodes the body's framing itself: an answer that ends before its framing says is a
    // NETWORK failure that says how far it got, never a short body handed to the parser as whole.
    void bodyCutShortIsANetworkFailure()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, detail);
        Arena arena(Mode::Fixed, Provider::Gemini, std::nullopt, false, answer);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        QCOMPARE(r->failure->kind, FailureKind::NETWORK);
        QVERIFY2(r->failure->detail.contains(detail), qPrintable(r->failure->detail));
        QCOMPARE(r->attempts.first().httpStatus, 200);
        QCOMPARE(r->attempts.first().requestsSent, 1);
    }

    // RFC 9112 §6.3: a chunked body with a Content-Length too is read as chunked (the length is ignored),
    // and the connection, whose framing was ambiguous, carries nothing more.
    void chunkedWithALengthIsDecodedAndNotReused()
    {
        const QString story = QStringLiteral("A fox learns to sail. The sea is rough. A gull helps. They reach the island.");
        QByteArray answer = geminiAnswer(story, true);
        answer.replace("Transfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n");
        Arena arena(Mode::KeepAlive, Provider::Gemini, std::nullopt, false, answer);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        for (int i = 0; i < 2; ++i) {
            const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), story, 20'000);
            QVERIFY(r);
            QVERIFY2(r->state == FinalState::Succeeded, qPrintable(r->failure ? r->failure->detail : QString()));
        }
        QCOMPARE(arena.hostile.record().requests, 2);
        QCOMPARE(arena.hostile.record().connections, 2);
    }

    void codedOrPaddedBodyIsRefused_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("detail");
        QTest::addRow("gzip transfer coding") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                            "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                                              << QStringLiteral("the compressed body was refused");
        // One byte of data per 4 KiB chunk extension: decoded, a body far under the adapters' cap.
        const QByteArray padded = "1;" + QByteArray(4000, 'x') + "\r\n{\r\n";
        QTest::addRow("chunk extensions past the cap")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + padded.repeated(2200))
            << QStringLiteral("more than 8 MiB of body");
    }

    // What the guard does not read: a body coded though no coding was asked for, and a chunked body
    // stretched past the cap by its framing.
    void codedOrPaddedBodyIsRefused()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, detail);
        Arena arena(Mode::Fixed, Provider::Gemini, std::nullopt, false, answer);
        QVERIFY2(arena.ok(), qPrintable(arena.error));
        const auto r = arena.rig->run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        QCOMPARE(r->failure->kind, FailureKind::OUTPUT_INVALID);
        QVERIFY2(r->failure->detail.contains(detail), qPrintable(r->failure->detail));
    }

    // A key pasted with its line break would write a header of its own choosing into the request: it is
    // a configuration failure, found before anything is sent.
    void lineBreakInAHeaderIsNotSent()
    {
        const QByteArray body = R"({"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}})";
        HostileServer hostile(Mode::Fixed);
        hostile.setAnswer("HTTP/1.1 503 Service Unavailable\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QString error;
        QVERIFY2(hostile.start(&error), qPrintable(error));
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, std::nullopt, false, [&](Settings &s) {
            pointPrimaryAt(s, Provider::Gemini, hostile.baseUrl());
            s.providers[Provider::Gemini].apiKey = QStringLiteral("key\r\nX-Injected: 1");
        });
        QVERIFY2(rig.ok(), qPrintable(rig.error()));
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->state, FinalState::Failed);
        QCOMPARE(r->failure->kind, FailureKind::AUTH_CONFIG);
        QVERIFY2(r->failure->detail.contains(u"line break"), qPrintable(r->failure->detail));
        QCOMPARE(r->attempts.first().requestsSent, 0);
        QCOMPARE(hostile.record().connections, 0);
    }

    // An unreachable provider: the request never left, and the record says so.
    void unreachableProviderWasNotSent()
    {
        quint16 freePort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            freePort = probe.serverPort();
        }
        LoopbackRig rig(QStringLiteral("healthy"), Provider::Gemini, std::nullopt, false, [&](Settings &s) {
            pointPrimaryAt(s, Provider::Gemini, QUrl(QStringLiteral("http://127.0.0.1:%1").arg(freePort)));
        });
        QVERIFY(rig.ok());
        const auto r = rig.run(StagePolicy::relief(Provider::Gemini, std::nullopt), QStringLiteral("A cat."), 20'000);
        QVERIFY(r);
        QCOMPARE(r->failure->kind, FailureKind::NETWORK);
        QVERIFY2(r->failure->detail.contains(u"could not connect"), qPrintable(r->failure->detail));
        QCOMPARE(r->attempts.first().requestsSent, 0);
    }

    // Defect 8: the embedded simulator answers only its own process (a per-run key), /_sim/* too,
    // and refuses a request body over 1 MiB as it arrives.
    void embeddedSimulatorIsPrivate()
    {
        QTemporaryDir data;
        SetupOptions options;
        options.forceSimulator = true;
        options.useStore = false;
        options.environment = QProcessEnvironment();
        EngineSetup setup;
        QVERIFY(setup.init(options));
        const QString key = setup.settings().provider(Provider::Gemini).apiKey;
        QVERIFY(key.size() >= 20);
        QNetworkAccessManager nam;
        qint64 uploaded = 0;
        auto post = [&](const QString &path, const QByteArray &headerKey, const QByteArray &body) {
            QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(setup.simulator()->port()).arg(path)));
            req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            if (!headerKey.isEmpty())
                req.setRawHeader("x-goog-api-key", headerKey);
            QNetworkReply *reply = nam.post(req, body);
            uploaded = 0;
            connect(reply, &QNetworkReply::uploadProgress, reply,
                    [&uploaded](qint64 sent, qint64) { uploaded = std::max(uploaded, sent); });
            QSignalSpy done(reply, &QNetworkReply::finished);
            done.wait(20'000);
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            reply->deleteLater();
            return status;
        };
        const QString generate = QStringLiteral("/v1beta/models/gemini-2.5-flash:generateContent");
        const QByteArray body = R"({"contents":[{"parts":[{"text":"A cat."}]}]})";
        QCOMPARE(post(generate, "someone-elses-key", body), 401);
        QCOMPARE(setup.simulator()->counters(Provider::Gemini).requests, 0);
        QCOMPARE(post(QStringLiteral("/_sim/reset"), {}, {}), 401);
        QCOMPARE(post(generate, key.toLatin1(), body), 200);
        QCOMPARE(setup.simulator()->counters(Provider::Gemini).requests, 1);
        // Refused as it arrives: 413, or the connection closed under the rest of the upload.
        const qint64 huge = 64 * 1024 * 1024;
        const int status = post(generate, key.toLatin1(), QByteArray(huge, 'x'));
        qInfo("a 64 MiB POST: status %d after %lld KiB were sent", status, uploaded / 1024);
        QVERIFY(status == 413 || status == 0);
        QVERIFY(uploaded < huge / 2);
        QCOMPARE(setup.simulator()->counters(Provider::Gemini).requests, 1);
    }
};

QTEST_GUILESS_MAIN(tst_HostileProviders)
#include "tst_hostileproviders.moc"
