// SPDX-License-Identifier: MIT
// docs/contract.md §5: every event is a JSON value type, and reads back to the same value.
#include "contract/isotime.h"
#include "engine/event.h"
#include "engine/stagepolicy.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <limits>

using namespace bullpen;
using namespace std::chrono;
using namespace std::chrono_literals;

class tst_Events : public QObject
{
    Q_OBJECT

    static Event make(EventBody body)
    {
        Event e;
        e.generationId = QStringLiteral("gen_0123456789abcdef0123456789abcdef");
        e.sequence = 3;
        e.at = 1'234'567us;
        e.wallTime = QDateTime(QDate(2026, 10, 14), QTime(9, 30, 0, 125), Qt::UTC);
        e.body = std::move(body);
        return e;
    }

private Q_SLOTS:
    // Every event and log line carries its wall time in this form; it must read as Qt writes it.
    void wallTimeIsQtsIsoText()
    {
        const auto qt = [](qint64 ms) {
            return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
        };
        QList<qint64> times { 0,
                              -1,
                              1,
                              999,
                              1000,
                              std::numeric_limits<qint64>::max(),
                              std::numeric_limits<qint64>::min(),
                              -62'135'596'800'001 /* the last millisecond of 1 BC */,
                              253'402'300'800'000 /* 10000-01-01 */,
                              -86'400'000,
                              86'399'999,
                              951'782'400'000 /* 2000-02-29 */,
                              4'107'542'399'999 /* 2100-02-28 */,
                              253'402'300'799'999 /* 9999-12-31 */,
                              -62'135'596'800'000 /* 0001-01-01 */ };
        QRandomGenerator rng(7);
        for (int i = 0; i < 20'000; ++i)
            times << rng.bounded(qint64(-2'208'988'800'000), qint64(4'102'444'800'000)); // 1900–2100
        for (const qint64 ms : std::as_const(times))
            QCOMPARE(isoUtcWithMs(ms), qt(ms));
        QCOMPARE(isoUtcWithMs(1'764'640'375'123), QStringLiteral("2025-12-02T01:52:55.123Z"));
        QCOMPARE(make(EventBody {}).toJson().value(QStringLiteral("wall_time")).toString(), QStringLiteral("2026-10-14T09:30:00.125Z"));
    }

    void roundTrip_data()
    {
        QTest::addColumn<Event>("event");
        QTest::addColumn<QString>("type");

        QTest::newRow("generation_started") << make(GenerationStarted { QStringLiteral("relief"),
                                                                        Provider::Gemini,
                                                                        Provider::Qwen,
                                                                        120s,
                                                                        QStringLiteral("ha****ul"),
                                                                        QStringLiteral("engine-a:8700"),
                                                                        std::nullopt,
                                                                        {} })
                                            << QStringLiteral("generation_started");
        QTest::newRow("generation_started (probe)")
            << make(GenerationStarted { QStringLiteral("relief"),
                                        Provider::Gemini,
                                        Provider::Qwen,
                                        120s,
                                        {},
                                        QStringLiteral("engine-a:8700"),
                                        ProbeTarget { Provider::Qwen, Role::Fallback, Stage::Storyboard },
                                        {} })
            << QStringLiteral("generation_started");
        QTest::newRow("generation_started (replay)") << make(GenerationStarted { QStringLiteral("relief"),
                                                                                 Provider::Gemini,
                                                                                 Provider::Qwen,
                                                                                 120s,
                                                                                 {},
                                                                                 {},
                                                                                 std::nullopt,
                                                                                 QStringLiteral("gen_3344c031b0c54cf7940d623478acb5f0") })
                                                     << QStringLiteral("generation_started");
        QTest::newRow("attempt_started") << make(AttemptStarted {
            Stage::Storyboard, 11, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), Role::Primary, 1, 60s, 60'000'500us, 120s })
                                         << QStringLiteral("storyboard_attempt_started");
        AttemptCompleted failed;
        failed.attemptId = 11;
        failed.model = QStringLiteral("gemini-2.5-flash");
        failed.duration = 812'250us;
        failed.failure = Failure { FailureKind::TRANSIENT_SERVER, QStringLiteral("HTTP 503 UNAVAILABLE: high demand"), true, 2000ms };
        failed.httpStatus = 503;
        failed.fallbackEligible = true;
        failed.startedAt = 1'500us;
        failed.deadline = 60'001'500us;
        failed.sentAt = 2'250us;
        failed.requestsSent = 1;
        QTest::newRow("attempt_completed failure") << make(failed) << QStringLiteral("storyboard_attempt_completed");
        AttemptCompleted timedOut;
        timedOut.stage = Stage::Image;
        timedOut.provider = Provider::Gemini;
        timedOut.failure = Failure { FailureKind::TIMEOUT, QStringLiteral("no answer within 90000 ms"), false, {} };
        timedOut.abortedBy = AbortReason::Deadline;
        timedOut.cancelledAt = 90'000'250us;
        timedOut.cancelHandlersRun = 1;
        QTest::newRow("image attempt timed out") << make(timedOut) << QStringLiteral("image_attempt_completed");
        AttemptCompleted ok;
        ok.stage = Stage::Captions;
        ok.provider = Provider::Anthropic;
        ok.role = Role::Primary;
        ok.success = true;
        ok.tokens = TokenUsage { 321, 654 };
        QTest::newRow("captions attempt ok") << make(ok) << QStringLiteral("captions_attempt_completed");
        QTest::newRow("fallback_triggered") << make(FallbackTriggered { Stage::Storyboard, Provider::Gemini, Provider::Qwen,
                                                                        FailureKind::TIMEOUT, 60s, QStringLiteral("gemini_timeout") })
                                            << QStringLiteral("storyboard_fallback_triggered");
        QTest::newRow("retry_scheduled") << make(
            RetryScheduled { Stage::Storyboard, Provider::OpenAI, Role::Primary, 2, FailureKind::RATE_LIMITED, 4s })
                                         << QStringLiteral("storyboard_retry_scheduled");
        QTest::newRow("queued") << make(StageQueued { Stage::Image, Provider::Gemini, 17, 256, 256 }) << QStringLiteral("image_queued");
        QTest::newRow("admitted") << make(StageAdmitted { Stage::Storyboard, Provider::Qwen, 1'234'567us })
                                  << QStringLiteral("storyboard_admitted");
        QTest::newRow("late_result_discarded") << make(
            LateResultDiscarded { Stage::Storyboard, 11, Provider::Gemini, Role::Primary, 9'999'999us, true, TokenUsage { 10, 20 } })
                                               << QStringLiteral("late_result_discarded");
        QTest::newRow("generation_finished failed")
            << make(GenerationFinished { FinalState::Failed, PublicCode::AI_PROVIDER_CONFIG, FailureKind::AUTH_CONFIG, Stage::Storyboard,
                                         QStringLiteral("HTTP 401"), false })
            << QStringLiteral("generation_finished");
        QTest::newRow("generation_finished ok")
            << make(GenerationFinished { FinalState::Succeeded, {}, {}, {}, {}, true }) << QStringLiteral("generation_finished");
        // Text a provider sent back, in the detail: every escape JSON has, beyond ASCII, a lone surrogate.
        QString hostile = QStringLiteral("say \"hi\" \\ back\n\tand\r\b\f") + QChar(0x01) + QChar(0x1f) + QChar(0x7f)
            + QStringLiteral(" 한국어 \U0001F600 ") + QChar(0xD800) + QStringLiteral(" end/");
        Event odd = make(GenerationFinished { FinalState::Failed, PublicCode::AI_PROVIDER_ERROR, FailureKind::OUTPUT_INVALID,
                                              Stage::Captions, hostile, false });
        odd.sequence = (quint64(1) << 53) - 1;
        odd.at = 123'456'789'012us;
        QTest::newRow("generation_finished hostile detail") << odd << QStringLiteral("generation_finished");
        // The same escapes in plain ASCII (which is written without Qt's encoder).
        QString ascii =
            QStringLiteral("say \"hi\" \\ back\n\tand\r\b\f") + QChar(0x01) + QChar(0x1f) + QChar(0x7f) + QStringLiteral(" end/");
        QTest::newRow("fallback_triggered ascii escapes")
            << make(FallbackTriggered { Stage::Storyboard, Provider::OpenAI, Provider::Anthropic, FailureKind::REFUSED, 1500ms, ascii })
            << QStringLiteral("storyboard_fallback_triggered");
    }

    void roundTrip()
    {
        QFETCH(Event, event);
        QFETCH(QString, type);
        QCOMPARE(event.type(), type);
        const QJsonObject json = event.toJson();
        QCOMPARE(json.value(QStringLiteral("type")).toString(), type);
        // Through text, as it would be stored or sent.
        const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Compact);
        QString error;
        const std::optional<Event> back = Event::fromJson(QJsonDocument::fromJson(text).object(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->type(), type);
        QCOMPARE(back->generationId, event.generationId);
        QCOMPARE(back->sequence, event.sequence);
        QCOMPARE(back->at, event.at);
        QCOMPARE(back->wallTime, event.wallTime);
        // Equal values serialise equally.
        QCOMPARE(back->toJson(), json);

        // Shared by the producer: written once by the first copy asked (the store's writer or the
        // service's event stream), the same bytes for every other copy.
        QCOMPARE(event.compactJson(), text);
        Event shared = event;
        QVERIFY(!shared.jsonCache);
        shared.shareJson();
        const Event copy = shared;
        QVERIFY(shared.jsonCache->bytes.isEmpty());
        QCOMPARE(copy.compactJson(), text);
        QCOMPARE(shared.jsonCache->bytes, text); // written through the copy
        QCOMPARE(shared.compactJson(), text);
    }

    void snakeCaseFields()
    {
        AttemptCompleted c;
        c.failure = Failure { FailureKind::RATE_LIMITED, QStringLiteral("HTTP 429"), false, 7s };
        c.httpStatus = 429;
        c.tokens = TokenUsage { 5, -1 };
        const QJsonObject o = make(c).toJson();
        for (const char *key : { "generation_id", "provider", "model", "role", "success", "duration_ms", "kind", "public_code",
                                 "http_status", "fallback_eligible", "tokens_in", "tokens_out",
                                 // the attempt record's own fields: the event is that record, not a copy of part of it
                                 "started_at_ms", "deadline_ms", "sent_at_ms", "cancelled_at_ms", "retry_after_ms", "requests_sent",
                                 "cancel_handlers_run", "aborted_by", "attempt_id" })
            QVERIFY2(o.contains(QLatin1StringView(key)), key);
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("RATE_LIMITED"));
        QCOMPARE(o.value(QStringLiteral("public_code")).toString(), QStringLiteral("AI_PROVIDER_RATE_LIMITED"));
        QCOMPARE(o.value(QStringLiteral("retry_after_ms")).toInt(), 7000);
        QCOMPARE(o.value(QStringLiteral("tokens_in")).toInt(), 5);
        QVERIFY(o.value(QStringLiteral("tokens_out")).isNull()); // unknown, not zero
        QCOMPARE(o.value(QStringLiteral("t_ms")).toDouble(), 1234.567);
    }

    void generationStartedCarriesTheMaskNeverTheRawUser()
    {
        const StagePolicy policy = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
        const GenerationStarted started = GenerationStarted::of(policy, QStringLiteral("haru@example.com"));
        QCOMPARE(started.user, QStringLiteral("h***@e***.com"));
        QCOMPARE(started.budget, policy.effectiveBudget());
        QCOMPARE(started.fallback, std::optional<Provider>(Provider::Qwen));
        const QByteArray json = QJsonDocument(make(started).toJson()).toJson(QJsonDocument::Compact);
        QVERIFY2(!json.contains("haru"), json.constData());
        QVERIFY(GenerationStarted::of(policy, QString()).user.isEmpty()); // no user: no mask, not "****"
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown type") << QByteArray(R"({"type":"x","generation_id":"g","seq":0,"t_ms":0})") << QStringLiteral("type");
        QTest::newRow("missing generation id") << QByteArray(R"({"type":"generation_finished","seq":0,"t_ms":0})")
                                               << QStringLiteral("generation_id");
        // A well-formed id this process does not know is an engine's added provider (providerFromStored);
        // one that cannot be an id is refused.
        QTest::newRow("malformed provider") << QByteArray(
            R"({"type":"storyboard_fallback_triggered","generation_id":"g","seq":0,"t_ms":0,"stage":"storyboard","from":"Bard!","to":"qwen","kind":"TIMEOUT","remaining_budget_ms":1,"reason":"r"})")
                                            << QStringLiteral("from");
        QTest::newRow("unknown kind") << QByteArray(
            R"({"type":"storyboard_fallback_triggered","generation_id":"g","seq":0,"t_ms":0,"stage":"storyboard","from":"gemini","to":"qwen","kind":"SLOW","remaining_budget_ms":1,"reason":"r"})")
                                      << QStringLiteral("kind");
        QTest::newRow("unknown stage") << QByteArray(R"({"type":"video_attempt_started","generation_id":"g","seq":0,"t_ms":0})")
                                       << QStringLiteral("type");
        QTest::newRow("success not a bool") << QByteArray(
            R"({"type":"storyboard_attempt_completed","generation_id":"g","seq":0,"t_ms":0,"attempt_id":1,"provider":"gemini","model":"m","role":"primary","round":1,"success":"yes","duration_ms":1,"fallback_eligible":false,"capacity":false,"aborted_by":"none"})")
                                            << QStringLiteral("success");
    }

    void rejectsMalformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!Event::fromJson(QJsonDocument::fromJson(json).object(), &why));
        QVERIFY2(why.contains(error), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(tst_Events)
#include "tst_events.moc"
