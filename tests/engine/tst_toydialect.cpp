// SPDX-License-Identifier: MIT
// docs/architecture.md, "Walkthrough: add a dialect", followed from tests/: a toy dialect that nothing in
// core/ names is registered with one line (Dialects::add), and a provider the settings file adds in its
// format is asked, read, classified and simulated through it alone, end to end over loopback HTTP.
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "dialects/dialects.h"
#include "failure/failureclassifier.h"
#include "providers/jsonread.h"
#include "providers/sseparser.h"
#include "providers/storyboardprompt.h"
#include "runtime/enginesetup.h"
#include "sim/providersimulator.h"
#include "sim/simwire.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace bullpen;

namespace {

// The toy's wire: POST <base>/toy/ask {"model", "system", "user"}; the answer {"answer", "end"}
// ("done" or "cut"); a stream of {"piece"} events ending with "[END]"; errors {"error":{"code"}}.
class ToyFormat final : public WireFormat
{
public:
    explicit ToyFormat(Provider provider)
        : m_provider(provider)
    {
    }
    Provider provider() const override { return m_provider; }
    QNetworkRequest request(const ProviderEndpoint &endpoint) const override
    {
        return providerRequest(joinUrl(endpoint.baseUrl, QStringLiteral("/toy/ask")), endpoint);
    }
    QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const override
    {
        const PromptParts prompt = promptFor(request);
        return QJsonDocument(QJsonObject { { QStringLiteral("model"), endpoint.model },
                                           { QStringLiteral("system"), prompt.system },
                                           { QStringLiteral("user"), prompt.user },
                                           { QStringLiteral("stream"), endpoint.stream } })
            .toJson(QJsonDocument::Compact);
    }
    void parseBody(const QByteArray &body, ProviderResponse &out) const override
    {
        QString why;
        const std::optional<QJsonObject> o = jsonread::object(body, &why);
        if (!o) {
            out.malformedBody = why;
            return;
        }
        out.text = o->value(QLatin1StringView("answer")).toString();
        out.finishReason = o->value(QLatin1StringView("end")).toString();
    }
    std::unique_ptr<StreamDecoder> streamDecoder() const override
    {
        class Decoder final : public StreamDecoder
        {
        public:
            void onEvent(const SseEvent &event, ProviderResponse &out) override
            {
                if (event.data == "[END]") {
                    out.finishReason = QStringLiteral("done");
                    end();
                } else if (const auto o = chunk(event, out)) {
                    out.text += o->value(QLatin1StringView("piece")).toString();
                }
            }
        };
        return std::make_unique<Decoder>();
    }

private:
    Provider m_provider;
};

class ToyDialect final : public Dialect
{
public:
    QString id() const override { return QStringLiteral("toy"); }
    std::unique_ptr<WireFormat> format(Provider provider) const override { return std::make_unique<ToyFormat>(provider); }

    // "toy_busy" is transient and "toy_broke" a spent quota, whatever the status says.
    std::optional<FailureKind> errorKind(std::optional<int>, const ErrorInfo &e) const override
    {
        if (e.code == u"toy_busy")
            return FailureKind::TRANSIENT_SERVER;
        if (e.code == u"toy_broke")
            return FailureKind::QUOTA_EXHAUSTED;
        return std::nullopt;
    }
    std::optional<Failure> finishFailure(const QString &reason) const override
    {
        if (reason == u"done")
            return std::nullopt;
        return finished(reason, reason == u"cut" ? FailureKind::OUTPUT_TRUNCATED : FailureKind::UNKNOWN, "the toy stopped early");
    }

    std::optional<QString> route(const QString &path, const QString &base) const override
    {
        return path == base + QStringLiteral("/toy/ask") ? std::optional<QString>(QString()) : std::nullopt;
    }
    QString storyFromRequest(const QJsonObject &request) const override { return request.value(QLatin1StringView("user")).toString(); }

    QByteArray body(const QString &, const QString &text, SimEnding ending, TokenUsage) const override
    {
        return QJsonDocument(
                   QJsonObject { { QStringLiteral("answer"), text },
                                 { QStringLiteral("end"), ending == SimEnding::Stop ? QStringLiteral("done") : QStringLiteral("cut") } })
            .toJson(QJsonDocument::Compact);
    }
    QList<QByteArray> stream(const QString &, const QString &, const QStringList &parts, SimEnding, TokenUsage, bool) const override
    {
        QList<QByteArray> out;
        for (const QString &p : parts)
            out << sse(QJsonDocument(QJsonObject { { QStringLiteral("piece"), p } }).toJson(QJsonDocument::Compact));
        return out << sse("[END]");
    }
    QByteArray streamErrorEvent() const override { return sse(R"({"error":{"code":"toy_busy"}})"); }
    QByteArray malformedStreamEvent() const override { return sse(R"({"piece": oops)"); }
    QByteArray malformedBody() const override { return R"({"answer": "{\"title\")"; }
    // Every failure the simulator names is spelled as the toy's own: a 418 whose code says what it is.
    SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const override
    {
        const QByteArray code = failure == SimFailure::Quota ? "toy_broke" : "toy_busy";
        return simanswer::withRetryAfter(SimErrorReply { statusOverride > 0 ? statusOverride : 418,
                                                         R"({"error":{"code":")" + code + R"(","message":"the toy says no"}})",
                                                         {} },
                                         retryAfterSeconds);
    }
};

const ToyDialect kToy;

QString writeSettings(const QTemporaryDir &dir, const QString &fallback)
{
    const QJsonObject toy {
        { QStringLiteral("id"), QStringLiteral("toy-llm") },  { QStringLiteral("name"), QStringLiteral("Toy LLM") },
        { QStringLiteral("format"), QStringLiteral("toy") },  { QStringLiteral("base_url"), QStringLiteral("http://10.0.0.9:9000/v1") },
        { QStringLiteral("model"), QStringLiteral("toy-1") }, { QStringLiteral("stream"), false }
    };
    const QJsonObject root { { QStringLiteral("storyboard"),
                               QJsonObject { { QStringLiteral("provider"), QStringLiteral("gemini") },
                                             { QStringLiteral("fallback_provider"), fallback } } },
                             { QStringLiteral("pipeline"), QJsonObject { { QStringLiteral("captions"), false } } },
                             { QStringLiteral("providers"), QJsonArray { toy } } };
    const QString path = dir.filePath(QStringLiteral("bullpen.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(QJsonDocument(root).toJson());
    return path;
}

} // namespace

class TstToyDialect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_toy = Dialects::add(kToy); // the one registration line
        QCOMPARE(toId(m_toy), QStringLiteral("toy"));
        QCOMPARE(&Dialects::of(m_toy), static_cast<const Dialect *>(&kToy));
    }

    // The simulator writes the toy's words and the toy's reader reads them back, body and stream.
    void simulatorAndReaderAgree()
    {
        const auto [toy, dialect] = loadToy();
        QCOMPARE(dialect, m_toy);
        const std::unique_ptr<WireFormat> format = WireFormat::create(dialect, toy);

        ProviderResponse body;
        format->parseBody(SimWire::body(dialect, QStringLiteral("toy-1"), QStringLiteral("four panels"), SimWire::Ending::Stop, {}), body);
        QCOMPARE(body.text, QStringLiteral("four panels"));
        QCOMPARE(FailureClassifier::classify(dialect, withStatus(body, 200)), std::optional<Failure>());

        ProviderResponse streamed;
        const std::unique_ptr<StreamDecoder> decoder = format->streamDecoder();
        SseParser parser;
        for (const QByteArray &event :
             SimWire::stream(dialect, QStringLiteral("toy-1"), QStringLiteral("four panels"), SimWire::Ending::Stop, {}))
            for (const SseEvent &e : parser.feed(event))
                decoder->onEvent(e, streamed);
        QVERIFY(decoder->terminated());
        QCOMPARE(streamed.text, QStringLiteral("four panels"));
    }

    // The toy's error words decide the kind where its 418 alone would say UNKNOWN; its finish reason too.
    void classifiesByItsOwnRules_data()
    {
        QTest::addColumn<QString>("simulated");
        QTest::addColumn<FailureKind>("kind");
        QTest::addRow("overloaded: toy_busy") << QStringLiteral("overloaded") << FailureKind::TRANSIENT_SERVER;
        QTest::addRow("quota: toy_broke") << QStringLiteral("quota") << FailureKind::QUOTA_EXHAUSTED;
    }
    void classifiesByItsOwnRules()
    {
        QFETCH(QString, simulated);
        QFETCH(FailureKind, kind);
        const auto [toy, dialect] = loadToy();
        const SimWire::ErrorReply reply = SimWire::error(dialect, simulated);
        QCOMPARE(reply.status, 418);
        ProviderResponse r;
        r.httpStatus = reply.status;
        r.errorBody = reply.body;
        const std::optional<Failure> f = FailureClassifier::classify(dialect, r);
        QVERIFY(f);
        QCOMPARE(f->kind, kind);

        ProviderResponse cut;
        ToyFormat(toy).parseBody(SimWire::body(dialect, QStringLiteral("toy-1"), QStringLiteral("{"), SimWire::Ending::MaxTokens, {}), cut);
        QCOMPARE(FailureClassifier::classify(dialect, withStatus(cut, 200))->kind, FailureKind::OUTPUT_TRUNCATED);
    }

    // End to end on the built-in simulator: gemini is overloaded, the toy provider answers on its own path.
    void fallsBackToTheToyOverLoopback()
    {
        const std::optional<GenerationResult> result = generate(QStringLiteral("primary-overloaded"));
        QVERIFY(result);
        const Provider toy = *providerFromId(u"toy-llm");
        QCOMPARE(result->storyboard.state, FinalState::Succeeded);
        QCOMPARE(result->storyboard.fallback.finalProvider, std::optional<Provider>(toy));
        QCOMPARE(m_requests, 1);
    }

    // Both down: the simulator answers the toy's 418 in its words, and the attempt is judged by the toy's rules.
    void theToysErrorIsJudgedByItsRules()
    {
        const std::optional<GenerationResult> result = generate(QStringLiteral("both-down"));
        QVERIFY(result);
        QCOMPARE(result->storyboard.state, FinalState::Failed);
        const AttemptRecord &last = result->storyboard.attempts.constLast();
        QCOMPARE(last.provider, *providerFromId(u"toy-llm"));
        QVERIFY(last.failure);
        QCOMPARE(last.failure->kind, FailureKind::TRANSIENT_SERVER);
        QVERIFY2(last.failure->detail.contains(QStringLiteral("toy_busy")), qPrintable(last.failure->detail));
    }

private:
    // The toy provider as the settings file describes it: its id, and the dialect its table gives it
    // (the process's registry knows only the id).
    static std::pair<Provider, WireDialect> loadToy()
    {
        QTemporaryDir dir;
        const SettingsLoad load = SettingsLoader::load(writeSettings(dir, QStringLiteral("toy-llm")), {}, {}, false);
        const Provider toy = *providerFromId(u"toy-llm");
        return { toy, load.ok() ? load.settings.providerTable.dialect(toy) : WireDialect::OpenAI };
    }

    static ProviderResponse withStatus(ProviderResponse r, int status)
    {
        r.httpStatus = status;
        return r;
    }

    std::optional<GenerationResult> generate(const QString &scenario)
    {
        QTemporaryDir dir;
        SetupOptions o;
        o.forceSimulator = true;
        o.scenario = scenario;
        o.dataDir = dir.path();
        o.settingsFile = writeSettings(dir, QStringLiteral("toy-llm"));
        o.keyFile = dir.filePath(QStringLiteral("none.env"));
        o.useStore = false;
        o.engineThreads = 1;
        EngineSetup setup;
        if (!setup.init(o)) {
            qWarning() << setup.errors().constFirst().toString();
            return std::nullopt;
        }
        std::optional<GenerationResult> finished;
        connect(&setup.engine(), &EngineClient::finished, this, [&](const GenerationResult &r) { finished = r; });
        GenerationRequest g;
        g.story = QStringLiteral("A lighthouse keeper finds a letter in a bottle.");
        g.fresh = true;
        setup.engine().start(g);
        if (!QTest::qWaitFor([&] { return finished.has_value(); }, 30'000))
            return std::nullopt;
        m_requests = setup.simulator()->counters(*providerFromId(u"toy-llm")).requests;
        return finished;
    }

    WireDialect m_toy;
    int m_requests = 0;
};

QTEST_GUILESS_MAIN(TstToyDialect)
#include "tst_toydialect.moc"
