// SPDX-License-Identifier: MIT
// fuzz_seeds DIR: writes the fuzzers' seed corpora from the simulator's own responses (every provider's
// bodies, streams and error bodies), storyboards from StoryboardSynth, the built-in scenarios, and
// example settings and key files. Built with the tests (dev preset); scripts/fuzz.sh runs it first.
#include "contract/storyboard.h"
#include "engine/event.h"
#include "pipeline/generationresult.h"
#include "sim/scenario.h"
#include "sim/simwire.h"
#include "sim/storyboardsynth.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>

using namespace bullpen;

namespace {

int g_written = 0;

void put(const QString &dir, const QString &name, const QByteArray &bytes)
{
    QDir().mkpath(dir);
    QFile f(QDir(dir).filePath(name));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size())
        ++g_written;
}

// What an engine sends an attached console: events of a generation a fallback answered, a probe's start, a skip,
// and results (fuzz_engine_json; the first byte picks event 0 or result 1).
void engineJson(const QDir &root)
{
    const QString dir = root.filePath(QStringLiteral("fuzz_engine_json"));
    const auto event = [](quint64 seq, EventBody body) -> QByteArray {
        Event e;
        e.generationId = QStringLiteral("gen_0123456789abcdef0123456789abcdef");
        e.sequence = seq;
        e.at = std::chrono::microseconds(1500 * seq);
        e.wallTime = QDateTime::fromMSecsSinceEpoch(1796290879158, Qt::UTC);
        e.body = std::move(body);
        return QByteArray(1, '\0') + QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
    };
    GenerationStarted started { QStringLiteral("relief"),
                                Provider::Gemini,
                                Provider::Qwen,
                                std::chrono::seconds(120),
                                QStringLiteral("ha****ul"),
                                QStringLiteral("engine-a:8700"),
                                std::nullopt,
                                {} };
    put(dir, QStringLiteral("started"), event(0, started));
    started.probe = ProbeTarget { Provider::Qwen, Role::Fallback, Stage::Storyboard };
    put(dir, QStringLiteral("probe-started"), event(0, started));
    started.probe.reset();
    started.replayOf = QStringLiteral("gen_3344c031b0c54cf7940d623478acb5f0");
    put(dir, QStringLiteral("replay-started"), event(0, started));
    started.replayOf.clear();
    AttemptCompleted failed;
    failed.attemptId = 7;
    failed.model = QStringLiteral("gemini-2.5-flash");
    failed.failure = Failure { FailureKind::TIMEOUT, QStringLiteral("no answer within 60 s"), false, std::nullopt };
    failed.duration = std::chrono::seconds(60);
    failed.deadline = std::chrono::seconds(60);
    failed.requestsSent = 1;
    put(dir, QStringLiteral("attempt-failed"), event(2, failed));
    put(dir, QStringLiteral("fallback"),
        event(3,
              FallbackTriggered { Stage::Storyboard, Provider::Gemini, Provider::Qwen, FailureKind::TIMEOUT, std::chrono::seconds(60),
                                  QStringLiteral("gemini_timeout") }));
    put(dir, QStringLiteral("skipped"),
        event(1,
              PrimarySkipped { Stage::Storyboard, Provider::Gemini, Provider::Qwen, QStringLiteral("open"),
                               QDateTime::fromMSecsSinceEpoch(1796290870000, Qt::UTC), QStringLiteral("5 of 5 attempts failed (TIMEOUT)"),
                               QStringLiteral("gemini_circuit_open"), std::chrono::seconds(120) }));
    put(dir, QStringLiteral("finished"),
        event(9, GenerationFinished { FinalState::Succeeded, std::nullopt, std::nullopt, std::nullopt, QString(), true }));
    GenerationResult result;
    result.generationId = QStringLiteral("gen_0123456789abcdef0123456789abcdef");
    result.state = FinalState::Succeeded;
    result.storyboard.state = FinalState::Succeeded;
    result.storyboard.attempts << failed;
    AttemptRecord ok = failed;
    ok.attemptId = 8;
    ok.provider = Provider::Qwen;
    ok.role = Role::Fallback;
    ok.success = true;
    ok.failure.reset();
    result.storyboard.attempts << ok;
    result.captionLines << QStringLiteral("Panel 1: a cat");
    result.imageSha256 = QStringLiteral("ab").repeated(32);
    put(dir, QStringLiteral("result"), QByteArray(1, '\1') + QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact));
    result.probe = ProbeTarget { Provider::Gemini, Role::Primary, Stage::Image };
    put(dir, QStringLiteral("result-probe"), QByteArray(1, '\1') + QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        QTextStream(stderr) << "usage: fuzz_seeds DIR\n";
        return 2;
    }
    const QDir root(QString::fromLocal8Bit(argv[1]));
    const QString story = QStringLiteral("하루는 학교에 간다. \"안녕,\" 고양이가 말한다. Mina finds a key. They go home together.");
    const QString text = QString::fromUtf8(QJsonDocument(StoryboardSynth::fromStory(story).toJson()).toJson(QJsonDocument::Compact));
    const QString broken =
        QString::fromUtf8(QJsonDocument(StoryboardSynth::brokenFromStory(story).toJson()).toJson(QJsonDocument::Compact));
    const TokenUsage usage { 120, 340 };
    const SimWire::Ending endings[] = { SimWire::Ending::Stop, SimWire::Ending::MaxTokens, SimWire::Ending::Refused };
    const char *const errors[] = { "overloaded", "rate_limited", "auth", "quota", "bad_request", "server_error", "not_found", "timeout" };
    for (int p = 0; p < 4; ++p) {
        const auto provider = Provider::atIndex(p);
        const QByteArray tag(1, char(p));
        int n = 0;
        for (SimWire::Ending e : endings) {
            for (const QString &t : { text, broken }) {
                put(root.filePath(QStringLiteral("fuzz_provider_body")), QStringLiteral("%1-%2").arg(toId(provider)).arg(n),
                    tag + char(0) + SimWire::body(provider, QStringLiteral("m"), t, e, usage));
                put(root.filePath(QStringLiteral("fuzz_sse_stream")), QStringLiteral("%1-%2").arg(toId(provider)).arg(n),
                    tag + char(7) + SimWire::stream(provider, QStringLiteral("m"), t, e, usage).join());
                ++n;
            }
        }
        put(root.filePath(QStringLiteral("fuzz_sse_stream")), QStringLiteral("%1-error").arg(toId(provider)),
            tag + char(3) + SimWire::stream(provider, QStringLiteral("m"), text, SimWire::Ending::Stop, usage, 2).first()
                + SimWire::streamErrorEvent(provider));
        for (int i = 0; i < int(std::size(errors)); ++i) {
            const SimWire::ErrorReply r = SimWire::error(provider, QLatin1StringView(errors[i]));
            put(root.filePath(QStringLiteral("fuzz_provider_body")),
                QStringLiteral("%1-%2").arg(toId(provider), QLatin1StringView(errors[i])), tag + char(1 + i) + r.body);
        }
    }
    put(root.filePath(QStringLiteral("fuzz_storyboard")), QStringLiteral("valid"), text.toUtf8());
    put(root.filePath(QStringLiteral("fuzz_storyboard")), QStringLiteral("fenced"), "```json\n" + text.toUtf8() + "\n```");
    put(root.filePath(QStringLiteral("fuzz_storyboard")), QStringLiteral("three-panels"), broken.toUtf8());
    for (const QString &name : Scenario::builtInNames()) {
        QFile f(QStringLiteral(":/bullpen/scenarios/%1.json").arg(name));
        if (f.open(QIODevice::ReadOnly))
            put(root.filePath(QStringLiteral("fuzz_scenario")), name, f.readAll());
    }
    put(root.filePath(QStringLiteral("fuzz_settings")), QStringLiteral("settings"),
        QByteArray(1, '\0')
            + "{\"storyboard\": {\"policy\": \"relief\", \"provider\": \"gemini\", \"fallback_provider\": \"qwen\", \"primary_timeout\": "
              "\"60s\","
              " \"fallback_timeout\": \"1500ms\", \"total_budget\": \"2m\"}, \"pipeline\": {\"image_retries\": 2, \"captions\": true,"
              " \"image_timeout\": \"90s\"}, \"data_dir\": \"/tmp/x\", \"providers\": {\"qwen\": {\"base_url\": \"https://a.b/v1\","
              " \"model\": \"qwen-plus\", \"stream\": false}}}");
    put(root.filePath(QStringLiteral("fuzz_settings")), QStringLiteral("keys"),
        QByteArray(1, '\1') + "# keys\nGEMINI_API_KEY=AIza-example\nDASHSCOPE_API_KEY = sk-example\n");
    put(root.filePath(QStringLiteral("fuzz_api_request")), QStringLiteral("full"),
        "{\"story\":\"Mina finds a key.\",\"user_id\":\"haru@example.com\",\"policy\":\"capacity\",\"primary\":\"openai\","
        "\"fallback\":\"none\",\"timeouts\":{\"primary_ms\":2000,\"fallback_ms\":3000,\"budget_ms\":4500},\"fresh\":true,"
        "\"scenario\":\"primary-hang\"}");
    put(root.filePath(QStringLiteral("fuzz_api_request")), QStringLiteral("minimal"), "{\"story\":\"s\",\"user_id\":\"u\"}");
    put(root.filePath(QStringLiteral("fuzz_api_request")), QStringLiteral("refused"), "{\"story\":7,\"timeouts\":{\"x\":-1}}");
    put(root.filePath(QStringLiteral("fuzz_api_query")), QStringLiteral("full"),
        "from_ms=1&to_ms=1796104327025&state=failed,cancelled&code=AI_PROVIDER_TIMEOUT&kind=timeout&stage=storyboard&provider=gemini"
        "&user=0e58774e&relieved=true&before_ms=1796104327000&before_id=gen_3344c031b0c54cf7940d623478acb5f0&limit=50");
    put(root.filePath(QStringLiteral("fuzz_api_query")), QStringLiteral("refused"), "kind=NOPE&colour=red");
    put(root.filePath(QStringLiteral("fuzz_api_query")), QStringLiteral("encoded"), "user=%E2%80%A6%25&before_id=a%26b");
    put(root.filePath(QStringLiteral("fuzz_api_query")), QStringLiteral("empty-pairs"), "kind=timeout&&&=x&state=failed");
    // fuzz_http_framing: byte 0 is where the chunked body splits, the rest a head or a chunked body.
    const QString framing = root.filePath(QStringLiteral("fuzz_http_framing"));
    put(framing, QStringLiteral("length"), "\x07HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n");
    put(framing, QStringLiteral("chunked-head"),
        "\x03HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nConnection: keep-alive\r\n\r\n");
    put(framing, QStringLiteral("ambiguous"),
        "\x01HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n");
    put(framing, QStringLiteral("chunked-body"),
        QByteArray("\x09"
                   "5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\nHTTP/1.1"));
    put(framing, QStringLiteral("request"), "\x02POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1786\r\n\r\n");
    engineJson(root);
    QTextStream(stdout) << "fuzz_seeds: wrote " << g_written << " seed files under " << root.path() << "\n";
    return g_written > 0 ? 0 : 1;
}
