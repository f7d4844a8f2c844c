// SPDX-License-Identifier: MIT
// docs/contract.md §12.1: the `POST /v1/generations` body becomes a typed GenerationRequest before the engine sees
// it, or is refused naming the field; what a client sends for a request parses back to that request. The
// history's query strings, and a history row's one codec (§5).
#include "api/generationrequestjson.h"
#include "api/historyjson.h"
#include "engine/stageresult.h"
#include "history/generationrowjson.h"
#include "history/historyexport.h"

#include <QJsonDocument>
#include <QTest>

using namespace bullpen;
using namespace std::chrono_literals;

namespace {

StagePolicy engineDefaults()
{
    StagePolicy p = StagePolicy::relief(Provider::Gemini, Provider::Qwen);
    p.primaryTimeout = 45s;
    p.fallbackTimeout = 30s;
    return p;
}

QByteArray json(const char *text)
{
    return QByteArray(text);
}

// The refusal's text, or nothing (QVERIFY2 evaluates its message whether or not it fails).
QByteArray refusal(const std::variant<GenerationRequest, FieldError> &parsed)
{
    const auto *e = std::get_if<FieldError>(&parsed);
    return e ? e->toString().toUtf8() : QByteArray();
}

} // namespace

class tst_RequestJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFieldIsTyped()
    {
        const auto parsed = GenerationRequestJson::parse(
            json(R"({"story":"A cat.","user_id":"haru@example.com","policy":"capacity","primary":"openai","fallback":"anthropic",)"
                 R"("timeouts":{"primary_ms":2000,"fallback_ms":3000,"budget_ms":4500},"fresh":true,"scenario":"primary-hang"})"),
            engineDefaults(), {}, ProviderTable());
        QVERIFY2(std::holds_alternative<GenerationRequest>(parsed), refusal(parsed).constData());
        const GenerationRequest &r = std::get<GenerationRequest>(parsed);
        QCOMPARE(r.story, QStringLiteral("A cat."));
        QCOMPARE(r.userId, QStringLiteral("haru@example.com"));
        QVERIFY(r.fresh);
        QCOMPARE(r.scenario.name, QStringLiteral("primary-hang"));
        QVERIFY(r.storyboardPolicy);
        const StagePolicy &p = *r.storyboardPolicy;
        QCOMPARE(p.preset, QStringLiteral("capacity"));
        QCOMPARE(p.primary, Provider::OpenAI);
        QCOMPARE(p.fallback, std::optional<Provider>(Provider::Anthropic));
        QCOMPARE(p.primaryTimeout, 2000ms);
        QCOMPARE(p.fallbackTimeout, 3000ms);
        QCOMPARE(p.totalBudget, std::optional<std::chrono::milliseconds>(4500ms));
        QVERIFY(p.fallbackNeedsCapacityMarker); // the preset's routing, not just its name
    }

    void whatIsLeftOutIsTheEnginesPolicy()
    {
        const auto parsed =
            GenerationRequestJson::parse(json(R"({"story":"A cat.","user_id":"u1"})"), engineDefaults(), {}, ProviderTable());
        QVERIFY(std::holds_alternative<GenerationRequest>(parsed));
        const GenerationRequest &r = std::get<GenerationRequest>(parsed);
        QVERIFY(!r.fresh);
        QVERIFY(!r.scenario.isSet());
        QVERIFY(r.storyboardPolicy);
        QVERIFY(*r.storyboardPolicy == engineDefaults());
        // "none" and null both mean no fallback provider.
        for (const char *body : { R"({"story":"s","user_id":"u","fallback":"none"})", R"({"story":"s","user_id":"u","fallback":null})" }) {
            const auto noFallback = GenerationRequestJson::parse(json(body), engineDefaults(), {}, ProviderTable());
            QVERIFY(std::holds_alternative<GenerationRequest>(noFallback));
            QVERIFY(!std::get<GenerationRequest>(noFallback).storyboardPolicy->fallback);
        }
        // No user: an operator's test run, as in the console and the CLI; the id is not invented.
        const auto anonymous = GenerationRequestJson::parse(json(R"({"story":"s"})"), engineDefaults(), {}, ProviderTable());
        QVERIFY(std::holds_alternative<GenerationRequest>(anonymous));
        QVERIFY(std::get<GenerationRequest>(anonymous).userId.isEmpty());
        QVERIFY(!GenerationRequestJson::toJson(std::get<GenerationRequest>(anonymous)).contains(QStringLiteral("user_id")));
    }

    void whatAClientSendsParsesBack()
    {
        GenerationRequest sent;
        sent.story = QStringLiteral("하루는 아침마다 같은 길로 학교에 간다.");
        sent.userId = QStringLiteral("haru_ul");
        sent.fresh = true;
        sent.scenario.name = QStringLiteral("fallback-hang");
        StagePolicy p = StagePolicy::fromPreset(u"rounds", Provider::Qwen, std::nullopt).value();
        p.primaryTimeout = 1234ms;
        p.totalBudget = 9000ms;
        sent.storyboardPolicy = p;
        const QByteArray body = QJsonDocument(GenerationRequestJson::toJson(sent)).toJson(QJsonDocument::Compact);
        const auto back = GenerationRequestJson::parse(body, engineDefaults(), {}, ProviderTable());
        QVERIFY2(std::holds_alternative<GenerationRequest>(back), refusal(back).constData());
        const GenerationRequest &r = std::get<GenerationRequest>(back);
        QCOMPARE(r.story, sent.story);
        QCOMPARE(r.userId, sent.userId);
        QCOMPARE(r.fresh, sent.fresh);
        QCOMPARE(r.scenario.name, sent.scenario.name);
        QVERIFY(*r.storyboardPolicy == *sent.storyboardPolicy);
    }

    void refusedNamingTheField_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("says");
        QTest::newRow("not JSON") << json(R"({"story":)") << QString() << QStringLiteral("not JSON");
        QTest::newRow("an array") << json(R"([{"story":"s"}])") << QString() << QStringLiteral("not an object");
        QTest::newRow("empty") << QByteArray() << QString() << QStringLiteral("send one JSON object");
        QTest::newRow("no story") << json(R"({"user_id":"u"})") << QStringLiteral("story") << QStringLiteral("required");
        QTest::newRow("story a number") << json(R"({"story":7,"user_id":"u"})") << QStringLiteral("story")
                                        << QStringLiteral("got a number");
        QTest::newRow("story blank") << json(R"({"story":"  ","user_id":"u"})") << QStringLiteral("story") << QStringLiteral("empty");
        QTest::newRow("story too long") << (json(R"({"user_id":"u","story":")") + QByteArray(40 * 1024, 'a') + json(R"("})"))
                                        << QStringLiteral("story") << QStringLiteral("at most 32768");
        QTest::newRow("user blank") << json(R"({"story":"s","user_id":" "})") << QStringLiteral("user_id") << QStringLiteral("empty");
        QTest::newRow("user an object") << json(R"({"story":"s","user_id":{}})") << QStringLiteral("user_id")
                                        << QStringLiteral("got an object");
        QTest::newRow("unknown field") << json(R"({"story":"s","user_id":"u","colour":"red"})") << QStringLiteral("colour")
                                       << QStringLiteral("unknown field");
        QTest::newRow("unknown preset") << json(R"({"story":"s","user_id":"u","policy":"yolo"})") << QStringLiteral("policy")
                                        << QStringLiteral("not one of relief");
        QTest::newRow("unknown provider") << json(R"({"story":"s","user_id":"u","primary":"gpt"})") << QStringLiteral("primary")
                                          << QStringLiteral("not one of gemini");
        QTest::newRow("relief is the primary") << json(R"({"story":"s","user_id":"u","primary":"qwen","fallback":"qwen"})")
                                               << QStringLiteral("fallback") << QStringLiteral("is the primary");
        QTest::newRow("fallback a number") << json(R"({"story":"s","user_id":"u","fallback":3})") << QStringLiteral("fallback")
                                           << QStringLiteral("a string or null");
        QTest::newRow("timeouts a string") << json(R"({"story":"s","user_id":"u","timeouts":"5s"})") << QStringLiteral("timeouts")
                                           << QStringLiteral("an object");
        QTest::newRow("timeout negative") << json(R"({"story":"s","user_id":"u","timeouts":{"primary_ms":-5}})")
                                          << QStringLiteral("timeouts.primary_ms") << QStringLiteral("from 1 to 600000");
        QTest::newRow("timeout fractional") << json(R"({"story":"s","user_id":"u","timeouts":{"budget_ms":1.5}})")
                                            << QStringLiteral("timeouts.budget_ms") << QStringLiteral("whole number");
        QTest::newRow("timeout too long") << json(R"({"story":"s","user_id":"u","timeouts":{"fallback_ms":600001}})")
                                          << QStringLiteral("timeouts.fallback_ms") << QStringLiteral("from 1 to 600000");
        QTest::newRow("unknown timeout") << json(R"({"story":"s","user_id":"u","timeouts":{"total":5}})")
                                         << QStringLiteral("timeouts.total") << QStringLiteral("unknown field");
        QTest::newRow("fresh a string") << json(R"({"story":"s","user_id":"u","fresh":"yes"})") << QStringLiteral("fresh")
                                        << QStringLiteral("true or false");
        QTest::newRow("scenario a path") << json(R"({"story":"s","user_id":"u","scenario":"/etc/passwd"})") << QStringLiteral("scenario")
                                         << QStringLiteral("built-in scenario name");
    }

    void refusedNamingTheField()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        QFETCH(QString, says);
        const auto parsed = GenerationRequestJson::parse(body, engineDefaults(), {}, ProviderTable());
        QVERIFY2(std::holds_alternative<FieldError>(parsed), "a bad body must be refused");
        const FieldError &e = std::get<FieldError>(parsed);
        QCOMPARE(e.field, field);
        QVERIFY2(e.message.contains(says), qPrintable(e.toString()));
        QVERIFY2(!e.toString().contains(QStringLiteral("aaaaaaaa")), "a refusal never echoes the story back");
    }

    // The history's query strings (GET /v1/history, /v1/stats/…): what RemoteHistory sends for a filter
    // selects the same rows; an unknown parameter or value is refused naming it; empty pairs say nothing
    // (found by fuzz_api_query: "&&" was refused without a name).
    void historyQueryRoundTripsAndRefusesNamingTheParameter()
    {
        HistoryFilter f;
        f.fromMs = 1;
        f.toMs = 1796104327025;
        f.states = { HistoryState::Failed, HistoryState::Cancelled };
        f.publicCode = PublicCode::AI_PROVIDER_TIMEOUT;
        f.kind = FailureKind::TIMEOUT;
        f.stage = Stage::Storyboard;
        f.provider = Provider::Qwen;
        f.userKey = QStringLiteral("a&b=c%…");
        f.fallbackApplied = false;
        f.beforeMs = 5;
        f.beforeId = QStringLiteral("gen_1");
        f.failedAttempt = HistoryFilter::AttemptScope { Provider::Gemini, Role::Primary, Stage::Captions };
        f.fallbackReason = QStringLiteral("circuit_open");
        const auto back = HistoryJson::filterFromQuery(HistoryJson::filterQuery(f));
        QVERIFY(std::holds_alternative<HistoryFilter>(back));
        const HistoryFilter &b = std::get<HistoryFilter>(back);
        QCOMPARE(b.states, f.states);
        QCOMPARE(b.userKey, f.userKey);
        QCOMPARE(b.kind, f.kind);
        QCOMPARE(b.provider, f.provider);
        QCOMPARE(b.fallbackApplied, f.fallbackApplied);
        QCOMPARE(b.beforeId, f.beforeId);
        QVERIFY(b.failedAttempt == f.failedAttempt);
        QCOMPARE(b.fallbackReason, f.fallbackReason);
        QVERIFY(
            std::holds_alternative<HistoryFilter>(HistoryJson::filterFromQuery(QUrlQuery(QStringLiteral("kind=timeout&&state=FAILED")))));
        const auto field = [](const QString &query) {
            const auto r = HistoryJson::filterFromQuery(QUrlQuery(query), { QStringLiteral("limit") });
            return std::holds_alternative<FieldError>(r) ? std::get<FieldError>(r).field : QString();
        };
        QCOMPARE(field(QStringLiteral("kind=NOPE")), QStringLiteral("kind"));
        QCOMPARE(field(QStringLiteral("colour=red")), QStringLiteral("colour"));
        QCOMPARE(field(QStringLiteral("state=failed,bogus")), QStringLiteral("state"));
        QCOMPARE(field(QStringLiteral("relieved=yes")), QStringLiteral("relieved"));
        QCOMPARE(field(QStringLiteral("relieved=TRUE")), QString()); // any case, as every filter
        QCOMPARE(field(QStringLiteral("failed_attempt=gemini/primary")), QStringLiteral("failed_attempt"));
        QCOMPARE(field(QStringLiteral("failed_attempt=gemini/boss/storyboard")), QStringLiteral("failed_attempt"));
        QCOMPARE(field(QStringLiteral("from_ms=-1")), QStringLiteral("from_ms"));
        QCOMPARE(field(QStringLiteral("kind=timeout&kind=timeout")), QStringLiteral("kind"));
        QCOMPARE(field(QStringLiteral("=x")), QStringLiteral("(unnamed)"));
        QCOMPARE(field(QStringLiteral("limit=5")), QString()); // the endpoint's own parameter
    }

    // docs/contract.md §5: a history row has one codec (the API, the remote reader, the export, the CLI),
    // and every provider and model field a result has in memory is in it under the same name. Before,
    // an API client read `final_model_provider` from memory and `final_provider` from the history.
    void historyRowHasOneCodecAndTheResultsNames()
    {
        GenerationRow r;
        r.id = QStringLiteral("0f3a9c");
        r.createdAtMs = 1796104327025;
        r.finishedAtMs = 1796104329000;
        int n = 0;
        for (QString *text : { &r.userMask, &r.userKey, &r.policy, &r.state, &r.publicCode, &r.kind, &r.stage, &r.detail, &r.decision,
                               &r.fallbackReason, &r.primaryProvider, &r.finalProvider, &r.finalModel, &r.fallbackProvider, &r.nextStep,
                               &r.instance, &r.probe, &r.replayOf, &r.imageSha256 })
            *text = QStringLiteral("value-%1").arg(++n);
        r.fallbackApplied = true;
        r.tokensIn = 120;
        r.tokensOut = 45;
        r.elapsedMs = 812.5;
        const QJsonObject row = GenerationRowJson::toJson(r);
        const std::optional<GenerationRow> back = GenerationRowJson::fromJson(row);
        QVERIFY(back);
        QCOMPARE(GenerationRowJson::toJson(*back), row);
        QCOMPARE(row.value(QStringLiteral("final_model_id")).toString(), r.finalModel);

        const QJsonObject inMemory = StageResult {}.toJson();
        const QJsonObject exported = HistoryExport::rowJson(r, HistoryExport::Ids::WithFull);
        int shared = 0;
        for (const QString &key : inMemory.keys()) {
            if (!key.contains(QStringLiteral("provider")) && !key.contains(QStringLiteral("model")))
                continue;
            ++shared;
            QVERIFY2(row.contains(key), qPrintable(key + QStringLiteral(": in a result, not in a history row")));
            QVERIFY2(exported.contains(key), qPrintable(key + QStringLiteral(": in a result, not in the export")));
            QCOMPARE(exported.value(key), row.value(key));
        }
        QCOMPARE(shared, 5); // provider_fallback_applied, _reason, primary_final_model_provider, final_model_provider, final_model_id

        // A console attached to an older engine still reads its rows.
        QJsonObject older = row;
        for (const auto &[now, before] :
             { std::pair { "primary_final_model_provider", "primary_provider" }, std::pair { "final_model_provider", "final_provider" },
               std::pair { "final_model_id", "final_model" } }) {
            older.insert(QLatin1StringView(before), older.take(QLatin1StringView(now)));
        }
        const std::optional<GenerationRow> old = GenerationRowJson::fromJson(older);
        QVERIFY(old);
        QCOMPARE(old->primaryProvider, r.primaryProvider);
        QCOMPARE(old->finalProvider, r.finalProvider);
        QCOMPARE(old->finalModel, r.finalModel);
        QVERIFY(!GenerationRowJson::fromJson(QJsonObject { { QStringLiteral("generation_id"), r.id } }));
    }
};

QTEST_GUILESS_MAIN(tst_RequestJson)
#include "tst_requestjson.moc"
