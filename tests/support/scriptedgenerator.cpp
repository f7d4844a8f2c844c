// SPDX-License-Identifier: MIT
#include "scriptedgenerator.h"

#include "engine/manualclock.h"
#include "engine/stageservice.h"

#include <QJsonDocument>

namespace bullpen::test {

using namespace std::chrono;

QString sampleStoryboardJson(const QString &title)
{
    return QStringLiteral(R"({"title":"%1","panels":[
{"index":1,"role":"SETUP","scene":"A quiet street at dawn","characters":["Mina"],"dialogue":[{"speaker":"Mina","text":"Another day."}]},
{"index":2,"role":"DEVELOPMENT","scene":"A cat follows her","characters":["Mina","Cat"],"dialogue":[]},
{"index":3,"role":"TURN","scene":"The cat speaks","characters":["Cat"],"dialogue":[{"speaker":"Cat","text":"You forgot your keys."}]},
{"index":4,"role":"CONCLUSION","scene":"They walk home together","characters":["Mina","Cat"],"dialogue":[{"speaker":"Mina","text":"Thanks."}]}]})")
        .arg(title);
}

Step Step::ok(milliseconds after, const QString &title, TokenUsage usage)
{
    ProviderResponse r;
    r.httpStatus = 200;
    r.finishReason = QStringLiteral("STOP");
    r.text = sampleStoryboardJson(title);
    r.usage = usage;
    return Step { after, r, false };
}

Step Step::respond(milliseconds after, ProviderResponse response)
{
    return Step { after, std::move(response), false };
}

Step Step::hang()
{
    return Step {};
}

Step Step::http(milliseconds after, int status, const QByteArray &body)
{
    ProviderResponse r;
    r.httpStatus = status;
    r.errorBody = body;
    return Step { after, r, false };
}

ProviderResponse geminiResponseFor(FailureKind kind)
{
    ProviderResponse r;
    auto error = [&](int status, const char *body) {
        r.httpStatus = status;
        r.errorBody = QByteArray(body);
    };
    switch (kind) {
    case FailureKind::TIMEOUT:
        error(504, R"({"error":{"code":504,"message":"Deadline expired before operation could complete.","status":"DEADLINE_EXCEEDED"}})");
        break;
    case FailureKind::RATE_LIMITED:
        error(429, R"({"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}})");
        break;
    case FailureKind::QUOTA_EXHAUSTED:
        error(402, R"({"error":{"code":402,"message":"Prepay credits depleted.","status":"RESOURCE_EXHAUSTED"}})");
        break;
    case FailureKind::OUTPUT_TRUNCATED:
        r.httpStatus = 200;
        r.finishReason = QStringLiteral("MAX_TOKENS");
        r.text = QStringLiteral(R"({"title":"Cut)");
        break;
    case FailureKind::OUTPUT_INVALID:
        r.httpStatus = 200;
        r.finishReason = QStringLiteral("STOP");
        r.text = QStringLiteral(R"({"title":"Three panels","panels":[]})");
        break;
    case FailureKind::NETWORK:
        r.networkError = QNetworkReply::ConnectionRefusedError;
        break;
    case FailureKind::TRANSIENT_SERVER:
        error(503, R"({"error":{"code":503,"message":"This model is currently experiencing high demand.","status":"UNAVAILABLE"}})");
        break;
    case FailureKind::AUTH_CONFIG:
        error(403, R"({"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}})");
        break;
    case FailureKind::TLS:
        r.networkError = QNetworkReply::SslHandshakeFailedError;
        break;
    case FailureKind::REQUEST_REJECTED:
        error(400, R"({"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}})");
        break;
    case FailureKind::REFUSED:
        r.httpStatus = 200;
        r.blockReason = QStringLiteral("SAFETY");
        break;
    case FailureKind::INTERNAL:
        r.networkError = QNetworkReply::OperationCanceledError; // cancelled with no recorded reason: our bug
        break;
    case FailureKind::UNKNOWN:
        r.httpStatus = 200;
        r.finishReason = QStringLiteral("OTHER");
        r.text = QStringLiteral("{}");
        break;
    case FailureKind::CANCELLED:
    case FailureKind::NOT_SENT:
        Q_ASSERT_X(false, "geminiResponseFor", "CANCELLED and NOT_SENT come from Bullpen itself, not from a provider");
        break;
    }
    return r;
}

Step Step::failWith(FailureKind kind, milliseconds after)
{
    return Step { after, geminiResponseFor(kind), false };
}

ScriptedGenerator::ScriptedGenerator(Clock &clock, Provider provider, QString model, QStringList *sharedLog)
    : m_clock(clock)
    , m_provider(provider)
    , m_model(std::move(model))
    , m_log(sharedLog)
{
}

ScriptedGenerator::~ScriptedGenerator() = default;

void ScriptedGenerator::script(std::initializer_list<Step> steps)
{
    m_steps.assign(steps.begin(), steps.end());
}

void ScriptedGenerator::generate(const StageRequest &request, std::shared_ptr<AttemptContext> context)
{
    ++m_calls;
    m_stories << request.story;
    m_cancelledAtStart << context->isCancelled();
    m_deadlines << context->deadline();
    const QString name = toId(m_provider);
    if (m_log)
        *m_log << name + QStringLiteral(": request sent");
    context->noteRequestSent();

    Step step = m_steps.empty() ? Step::hang() : m_steps.front();
    if (!m_steps.empty())
        m_steps.pop_front();

    auto pending = std::make_shared<Pending>();
    m_pending.push_back(pending);
    if (step.response && step.response->finishReason == u"STOP" && m_provider != Provider::Gemini) {
        // Scripts are written in Gemini's words; speak this provider's for a normal stop.
        step.response->finishReason = m_provider == Provider::Anthropic ? QStringLiteral("end_turn") : QStringLiteral("stop");
    }
    if (step.response) {
        std::weak_ptr<AttemptContext> weak = context;
        pending->timer = m_clock.arm(m_clock.now() + step.after, [weak, response = *step.response] {
            if (auto ctx = weak.lock())
                ctx->deliver(response);
        });
    }
    // The cancel handler is what an adapter's reply->abort() is: it stops the work, unless the script
    // says the provider keeps going (to produce a late result).
    context->onCancel([this, name, pending, ignore = step.ignoreCancel, ctx = std::weak_ptr<AttemptContext>(context)] {
        ++m_cancelHandlerRuns;
        if (m_log)
            *m_log << name + QStringLiteral(": cancel handler ran (") + toId(ctx.lock()->abortReason()) + QLatin1Char(')');
        if (!ignore)
            pending->timer.reset();
    });
}

void runMixedGenerations(int n, const std::function<void(const Event &)> &onEvent,
                         const std::function<void(const StageResult &)> &onFinished)
{
    ManualClock clock;
    ScriptedGenerator gemini(clock, Provider::Gemini, QStringLiteral("gemini-2.5-flash"), nullptr);
    ScriptedGenerator qwen(clock, Provider::Qwen, QStringLiteral("qwen-plus"), nullptr);
    StageService service(clock);
    service.addGenerator(&gemini);
    service.addGenerator(&qwen);
    QObject::connect(&service, &StageService::eventRecorded, &service, [&](const Event &e) { onEvent(e); });
    QObject::connect(&service, &StageService::finished, &service, [&](const StageResult &r) {
        if (onFinished)
            onFinished(r);
    });
    for (int i = 0; i < n; ++i) {
        switch (i % 3) {
        case 0:
            gemini.script({ Step::ok(1s) });
            break;
        case 1:
            gemini.script({ Step::failWith(FailureKind::TRANSIENT_SERVER, 1s) });
            qwen.script({ Step::ok(2s) });
            break;
        default:
            gemini.script({ Step::failWith(FailureKind::AUTH_CONFIG, 1s) });
            break;
        }
        service.start(StageRequest::forStory(QStringLiteral("story"), QStringLiteral("haru@example.com")),
                      StagePolicy::relief(Provider::Gemini, Provider::Qwen));
        clock.advance(10s);
    }
}

namespace {
qint64 ms(microseconds us)
{
    return duration_cast<milliseconds>(us).count();
}

struct Formatter
{
    QString operator()(const GenerationStarted &e) const
    {
        return QStringLiteral("generation_started %1 %2->%3 budget=%4")
            .arg(e.preset, toId(e.primary), e.fallback ? toId(*e.fallback) : QStringLiteral("none"))
            .arg(e.budget.count());
    }
    QString operator()(const StageQueued &e) const
    {
        return QStringLiteral("%1_queued %2 ahead=%3 in_flight=%4 limit=%5")
            .arg(toId(e.stage), toId(e.provider))
            .arg(e.ahead)
            .arg(e.inFlight)
            .arg(e.limit);
    }
    QString operator()(const StageAdmitted &e) const
    {
        return QStringLiteral("%1_admitted %2 waited=%3").arg(toId(e.stage), toId(e.provider)).arg(ms(e.waited));
    }
    QString operator()(const AttemptStarted &e) const
    {
        return QStringLiteral("%1_attempt_started %2 %3 r%4 deadline=%5")
            .arg(toId(e.stage), toId(e.provider), toId(e.role))
            .arg(e.round)
            .arg(ms(e.deadline));
    }
    QString operator()(const AttemptCompleted &e) const
    {
        QString s = QStringLiteral("%1_attempt_completed %2 %3 r%4 ").arg(toId(e.stage), toId(e.provider), toId(e.role)).arg(e.round);
        s += e.success || !e.failure ? QStringLiteral("ok") : enumName(e.failure->kind);
        if (e.fallbackEligible)
            s += QStringLiteral(" eligible");
        if (e.abortedBy != AbortReason::None)
            s += QStringLiteral(" aborted=") + toId(e.abortedBy);
        return s;
    }
    QString operator()(const FallbackTriggered &e) const
    {
        return QStringLiteral("%1_fallback_triggered %2->%3 %4 remaining=%5 %6")
            .arg(toId(e.stage), toId(e.from), toId(e.to), enumName(e.kind))
            .arg(e.remainingBudget.count())
            .arg(e.reason);
    }
    QString operator()(const PrimarySkipped &e) const
    {
        return QStringLiteral("%1_primary_skipped %2->%3 %4 remaining=%5 %6")
            .arg(toId(e.stage), toId(e.provider), toId(e.to), e.state)
            .arg(e.remainingBudget.count())
            .arg(e.reason);
    }
    QString operator()(const RetryScheduled &e) const
    {
        return QStringLiteral("%1_retry_scheduled %2 %3 next=r%4 pause=%5")
            .arg(toId(e.stage), toId(e.provider), enumName(e.kind))
            .arg(e.nextRound)
            .arg(e.pause.count());
    }
    QString operator()(const LateResultDiscarded &e) const
    {
        return QStringLiteral("late_result_discarded %1 %2 late=%3 tokens_out=%4")
            .arg(toId(e.provider), toId(e.role))
            .arg(ms(e.lateBy))
            .arg(e.tokens.output);
    }
    QString operator()(const GenerationFinished &e) const
    {
        QString s = QStringLiteral("generation_finished ") + toId(e.state);
        if (e.publicCode)
            s += QLatin1Char(' ') + enumName(*e.publicCode) + QLatin1Char('/') + enumName(*e.kind);
        if (e.fallbackApplied)
            s += QStringLiteral(" fallback_applied");
        return s;
    }
};
} // namespace

QString formatEvent(const Event &event)
{
    return QStringLiteral("%1 ").arg(ms(event.at)) + std::visit(Formatter {}, event.body);
}

} // namespace bullpen::test
