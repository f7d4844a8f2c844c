// SPDX-License-Identifier: MIT
#include "stageresult.h"

#include "contract/jsonfields.h"
#include "contract/storyboardvalidator.h"

#include <QJsonArray>

namespace bullpen {

namespace {
double toMs(std::chrono::microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
}
QJsonValue tokenValue(qint64 n)
{
    return n >= 0 ? QJsonValue(n) : QJsonValue();
}
} // namespace

QJsonObject AttemptRecord::toJson() const
{
    return QJsonObject {
        { QStringLiteral("attempt_id"), static_cast<double>(attemptId) },
        { QStringLiteral("stage"), toId(stage) },
        { QStringLiteral("provider"), toId(provider) },
        { QStringLiteral("model"), model },
        { QStringLiteral("role"), toId(role) },
        { QStringLiteral("round"), round },
        { QStringLiteral("success"), success },
        { QStringLiteral("kind"), failure ? QJsonValue(enumName(failure->kind)) : QJsonValue() },
        { QStringLiteral("public_code"), failure ? QJsonValue(enumName(failure->publicCode())) : QJsonValue() },
        { QStringLiteral("detail"), failure ? QJsonValue(failure->detail) : QJsonValue() },
        { QStringLiteral("capacity"), failure && failure->capacity },
        { QStringLiteral("retry_after_ms"),
          failure && failure->retryAfter ? QJsonValue(static_cast<double>(failure->retryAfter->count())) : QJsonValue() },
        { QStringLiteral("http_status"), httpStatus ? QJsonValue(*httpStatus) : QJsonValue() },
        { QStringLiteral("started_at_ms"), toMs(startedAt) },
        { QStringLiteral("duration_ms"), toMs(duration) },
        { QStringLiteral("deadline_ms"), toMs(deadline) },
        { QStringLiteral("cancelled_at_ms"), cancelledAt ? QJsonValue(toMs(*cancelledAt)) : QJsonValue() },
        { QStringLiteral("sent_at_ms"), sentAt ? QJsonValue(toMs(*sentAt)) : QJsonValue() },
        { QStringLiteral("first_byte_at_ms"), firstByteAt ? QJsonValue(toMs(*firstByteAt)) : QJsonValue() },
        { QStringLiteral("answer_complete_at_ms"), answerCompleteAt ? QJsonValue(toMs(*answerCompleteAt)) : QJsonValue() },
        { QStringLiteral("bytes_received"), static_cast<double>(bytesReceived) },
        { QStringLiteral("stream_events"), streamEvents ? QJsonValue(*streamEvents) : QJsonValue() },
        { QStringLiteral("aborted_by"), toId(abortedBy) },
        { QStringLiteral("requests_sent"), requestsSent },
        { QStringLiteral("cancel_handlers_run"), cancelHandlersRun },
        { QStringLiteral("tokens_in"), tokenValue(tokens.input) },
        { QStringLiteral("tokens_out"), tokenValue(tokens.output) },
        { QStringLiteral("cost"), cost ? QJsonValue(*cost) : QJsonValue() },
        { QStringLiteral("currency"), cost ? QJsonValue(currency) : QJsonValue() },
    };
}

AttemptRecord AttemptRecord::read(JsonFields &r)
{
    using std::chrono::milliseconds;
    AttemptRecord a;
    a.attemptId = r.integer<quint64>("attempt_id");
    if (const std::optional<Stage> stage = r.optId("stage", stageFromId)) // an event's type names it too
        a.stage = *stage;
    a.provider = r.id<Provider>("provider", providerFromStored);
    a.model = r.string("model");
    a.role = r.id<Role>("role", roleFromId);
    a.round = r.integer<int>("round");
    a.success = r.boolean("success");
    a.duration = fromJsonMs(r.number("duration_ms"));
    if (const auto kind = r.optEnum<FailureKind>("kind")) {
        Failure f;
        f.kind = *kind;
        f.detail = r.optString("detail");
        f.capacity = r.optBoolean("capacity");
        if (auto after = r.optInteger<qint64>("retry_after_ms"))
            f.retryAfter = milliseconds(*after);
        a.failure = f;
    }
    r.optEnum<PublicCode>("public_code"); // derived from the kind; checked, not kept
    if (auto s = r.optInteger<int>("http_status"))
        a.httpStatus = *s;
    a.tokens = r.tokens();
    a.cost = r.optNumber("cost"); // records before schema 14 have none
    if (a.cost)
        a.currency = r.optString("currency");
    a.abortedBy = r.id<AbortReason>("aborted_by", abortReasonFromId);
    a.startedAt = fromJsonMs(r.optNumber("started_at_ms").value_or(0));
    a.deadline = fromJsonMs(r.optNumber("deadline_ms").value_or(0));
    if (auto c = r.optNumber("cancelled_at_ms"))
        a.cancelledAt = fromJsonMs(*c);
    if (auto c = r.optNumber("sent_at_ms"))
        a.sentAt = fromJsonMs(*c);
    if (auto c = r.optNumber("first_byte_at_ms")) // records before 2026-12 have none of these three
        a.firstByteAt = fromJsonMs(*c);
    if (auto c = r.optNumber("answer_complete_at_ms")) // records before 2026-12-04 have none
        a.answerCompleteAt = fromJsonMs(*c);
    a.bytesReceived = r.optInteger<qint64>("bytes_received").value_or(0);
    a.streamEvents = r.optInteger<int>("stream_events");
    a.cancelHandlersRun = r.optInteger<int>("cancel_handlers_run").value_or(0);
    a.requestsSent = r.optInteger<int>("requests_sent").value_or(0);
    return a;
}

std::optional<AttemptRecord> AttemptRecord::fromJson(const QJsonObject &json, QString *error)
{
    JsonFields r(json);
    AttemptRecord a = read(r);
    if (!r.error().isEmpty()) {
        if (error)
            *error = r.error();
        return std::nullopt;
    }
    return a;
}

std::optional<StageResult> StageResult::fromJson(const QJsonObject &json, QString *error)
{
    JsonFields r(json);
    StageResult s;
    s.generationId = r.string("generation_id");
    s.state = r.id<FinalState>("state", finalStateFromId);
    if (const auto kind = r.optEnum<FailureKind>("kind")) {
        s.failure = Failure { *kind, r.optString("detail"), false, std::nullopt };
        s.failedStage = r.optId("stage", stageFromId).value_or(Stage::Storyboard);
    }
    s.decision = r.optString("decision");
    s.fallback.applied = r.optBoolean("provider_fallback_applied");
    s.fallback.reason = r.optString("provider_fallback_reason");
    s.fallback.primaryProvider = r.id<Provider>("primary_final_model_provider", providerFromStored);
    s.fallback.finalProvider = r.optId("final_model_provider", providerFromStored);
    s.fallback.finalModelId = r.optString("final_model_id");
    s.tokens = r.tokens();
    s.elapsed = fromJsonMs(r.optNumber("elapsed_ms").value_or(0));
    s.queued = fromJsonMs(r.optNumber("queued_ms").value_or(0));
    const QJsonArray attempts = json.value(QLatin1StringView("attempts")).toArray();
    for (const QJsonValue &v : attempts) {
        JsonFields fields(v.toObject());
        s.attempts << AttemptRecord::read(fields);
        if (!fields.error().isEmpty() && r.error().isEmpty())
            r.fail("attempts", qPrintable(QStringLiteral("attempt records (%1)").arg(fields.error())));
    }
    if (const QJsonValue board = json.value(QLatin1StringView("storyboard")); board.isObject()) {
        const StoryboardCheck check = StoryboardValidator::validate(board.toObject());
        if (check.ok())
            s.storyboard = check.storyboard;
        else
            r.fail("storyboard", "a storyboard that passes the contract");
    }
    if (!r.error().isEmpty()) {
        if (error)
            *error = r.error();
        return std::nullopt;
    }
    return s;
}

QJsonObject StageResult::toJson() const
{
    QJsonArray attemptArray;
    for (const AttemptRecord &a : attempts)
        attemptArray.append(a.toJson());
    return QJsonObject {
        { QStringLiteral("generation_id"), generationId },
        { QStringLiteral("state"), toId(state) },
        { QStringLiteral("public_code"), failure ? QJsonValue(enumName(failure->publicCode())) : QJsonValue() },
        { QStringLiteral("kind"), failure ? QJsonValue(enumName(failure->kind)) : QJsonValue() },
        { QStringLiteral("stage"), failure ? QJsonValue(toId(failedStage)) : QJsonValue() },
        { QStringLiteral("detail"), failure ? QJsonValue(failure->detail) : QJsonValue() },
        { QStringLiteral("decision"), decision },
        { QStringLiteral("provider_fallback_applied"), fallback.applied },
        { QStringLiteral("provider_fallback_reason"), fallback.reason.isEmpty() ? QJsonValue() : QJsonValue(fallback.reason) },
        { QStringLiteral("primary_final_model_provider"), toId(fallback.primaryProvider) },
        { QStringLiteral("final_model_provider"), fallback.finalProvider ? QJsonValue(toId(*fallback.finalProvider)) : QJsonValue() },
        { QStringLiteral("final_model_id"), fallback.finalModelId.isEmpty() ? QJsonValue() : QJsonValue(fallback.finalModelId) },
        { QStringLiteral("tokens_in"), tokenValue(tokens.input) },
        { QStringLiteral("tokens_out"), tokenValue(tokens.output) },
        { QStringLiteral("elapsed_ms"), toMs(elapsed) },
        { QStringLiteral("queued_ms"), toMs(queued) },
        { QStringLiteral("attempts"), attemptArray },
        { QStringLiteral("storyboard"), storyboard ? QJsonValue(storyboard->toJson()) : QJsonValue() },
    };
}

namespace {

// What a fallback reason says after the provider's id: by the failure's kind (and, for a server
// error, whether the provider said it was at capacity), or a skipped primary's state.
struct ReasonEnding
{
    std::optional<FailureKind> kind; // none: a skip
    bool capacity = false;
    const char *ending;
};
constexpr ReasonEnding kReasonEndings[] = {
    { FailureKind::TIMEOUT, false, "timeout" },
    { FailureKind::TRANSIENT_SERVER, true, "provider_unavailable" },
    { FailureKind::TRANSIENT_SERVER, false, "server_error" },
    { FailureKind::RATE_LIMITED, false, "rate_limited" },
    { FailureKind::QUOTA_EXHAUSTED, false, "quota_exhausted" },
    { FailureKind::OUTPUT_TRUNCATED, false, "output_truncated" },
    { FailureKind::OUTPUT_INVALID, false, "invalid_output" },
    { FailureKind::NETWORK, false, "network_error" },
    { std::nullopt, false, "circuit_open" },
    { std::nullopt, false, "drained" },
};
constexpr const char *kCircuitOpen = kReasonEndings[std::size(kReasonEndings) - 2].ending;
constexpr const char *kDrained = kReasonEndings[std::size(kReasonEndings) - 1].ending;

} // namespace

QString fallbackReason(Provider from, const Failure &failure)
{
    for (const ReasonEnding &e : kReasonEndings) {
        if (e.kind == failure.kind && (e.kind != FailureKind::TRANSIENT_SERVER || e.capacity == failure.capacity))
            return toId(from) + QLatin1Char('_') + QLatin1StringView(e.ending);
    }
    return toId(from) + QLatin1Char('_') + enumName(failure.kind).toLower();
}

QString skipReason(Provider primary, bool drained)
{
    return toId(primary) + QLatin1Char('_') + QLatin1StringView(drained ? kDrained : kCircuitOpen);
}

QStringList fallbackReasonEndings()
{
    QStringList out;
    for (const ReasonEnding &e : kReasonEndings)
        out << QLatin1StringView(e.ending);
    return out;
}

} // namespace bullpen
