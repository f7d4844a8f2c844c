// SPDX-License-Identifier: MIT
#include "stageresult.h"

#include <QJsonArray>

namespace bullpen {

namespace {
double toMs(std::chrono::microseconds us) { return static_cast<double>(us.count()) / 1000.0; }
QJsonValue tokenValue(qint64 n) { return n >= 0 ? QJsonValue(n) : QJsonValue(); }
} // namespace

QJsonObject AttemptRecord::toJson() const
{
    return QJsonObject{
        {QStringLiteral("attempt_id"), static_cast<double>(attemptId)},
        {QStringLiteral("stage"), toId(stage)},
        {QStringLiteral("provider"), toId(provider)},
        {QStringLiteral("model"), model},
        {QStringLiteral("role"), toId(role)},
        {QStringLiteral("round"), round},
        {QStringLiteral("success"), success},
        {QStringLiteral("kind"), failure ? QJsonValue(enumName(failure->kind)) : QJsonValue()},
        {QStringLiteral("public_code"), failure ? QJsonValue(enumName(failure->publicCode())) : QJsonValue()},
        {QStringLiteral("detail"), failure ? QJsonValue(failure->detail) : QJsonValue()},
        {QStringLiteral("capacity"), failure && failure->capacity},
        {QStringLiteral("retry_after_ms"),
         failure && failure->retryAfter ? QJsonValue(static_cast<double>(failure->retryAfter->count())) : QJsonValue()},
        {QStringLiteral("http_status"), httpStatus ? QJsonValue(*httpStatus) : QJsonValue()},
        {QStringLiteral("started_at_ms"), toMs(startedAt)},
        {QStringLiteral("duration_ms"), toMs(duration)},
        {QStringLiteral("deadline_ms"), toMs(deadline)},
        {QStringLiteral("cancelled_at_ms"), cancelledAt ? QJsonValue(toMs(*cancelledAt)) : QJsonValue()},
        {QStringLiteral("sent_at_ms"), sentAt ? QJsonValue(toMs(*sentAt)) : QJsonValue()},
        {QStringLiteral("aborted_by"), toId(abortedBy)},
        {QStringLiteral("requests_sent"), requestsSent},
        {QStringLiteral("cancel_handlers_run"), cancelHandlersRun},
        {QStringLiteral("tokens_in"), tokenValue(tokens.input)},
        {QStringLiteral("tokens_out"), tokenValue(tokens.output)},
    };
}

QJsonObject StageResult::toJson() const
{
    QJsonArray attemptArray;
    for (const AttemptRecord &a : attempts)
        attemptArray.append(a.toJson());
    return QJsonObject{
        {QStringLiteral("generation_id"), generationId},
        {QStringLiteral("state"), toId(state)},
        {QStringLiteral("public_code"), failure ? QJsonValue(enumName(failure->publicCode())) : QJsonValue()},
        {QStringLiteral("kind"), failure ? QJsonValue(enumName(failure->kind)) : QJsonValue()},
        {QStringLiteral("stage"), failure ? QJsonValue(toId(failedStage)) : QJsonValue()},
        {QStringLiteral("detail"), failure ? QJsonValue(failure->detail) : QJsonValue()},
        {QStringLiteral("decision"), decision},
        {QStringLiteral("provider_fallback_applied"), fallback.applied},
        {QStringLiteral("provider_fallback_reason"), fallback.reason.isEmpty() ? QJsonValue() : QJsonValue(fallback.reason)},
        {QStringLiteral("primary_final_model_provider"), toId(fallback.primaryProvider)},
        {QStringLiteral("final_model_provider"), fallback.finalProvider ? QJsonValue(toId(*fallback.finalProvider)) : QJsonValue()},
        {QStringLiteral("final_model_id"), fallback.finalModelId.isEmpty() ? QJsonValue() : QJsonValue(fallback.finalModelId)},
        {QStringLiteral("tokens_in"), tokenValue(tokens.input)},
        {QStringLiteral("tokens_out"), tokenValue(tokens.output)},
        {QStringLiteral("elapsed_ms"), toMs(elapsed)},
        {QStringLiteral("queued_ms"), toMs(queued)},
        {QStringLiteral("attempts"), attemptArray},
        {QStringLiteral("storyboard"), storyboard ? QJsonValue(storyboard->toJson()) : QJsonValue()},
    };
}

QString fallbackReason(Provider from, const Failure &failure)
{
    QString why;
    switch (failure.kind) {
    case FailureKind::TIMEOUT:
        why = QStringLiteral("timeout");
        break;
    case FailureKind::RATE_LIMITED:
        why = QStringLiteral("rate_limited");
        break;
    case FailureKind::QUOTA_EXHAUSTED:
        why = QStringLiteral("quota_exhausted");
        break;
    case FailureKind::OUTPUT_TRUNCATED:
        why = QStringLiteral("output_truncated");
        break;
    case FailureKind::OUTPUT_INVALID:
        why = QStringLiteral("invalid_output");
        break;
    case FailureKind::NETWORK:
        why = QStringLiteral("network_error");
        break;
    case FailureKind::TRANSIENT_SERVER:
        why = failure.capacity ? QStringLiteral("provider_unavailable") : QStringLiteral("server_error");
        break;
    default:
        why = enumName(failure.kind).toLower();
        break;
    }
    return toId(from) + QLatin1Char('_') + why;
}

} // namespace bullpen
