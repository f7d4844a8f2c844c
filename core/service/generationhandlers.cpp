// SPDX-License-Identifier: MIT
#include "generationhandlers.h"

#include "api/historyjson.h"
#include "audittrail.h"
#include "history/generationrowjson.h"
#include "pipeline/generationresult.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "servicecontext.h"
#include "sim/scenario.h"
#include "store/apitokens.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTcpSocket>

Q_LOGGING_CATEGORY(lcGeneration, "bullpen.generation", QtInfoMsg)

namespace bullpen {

GenerationHandlers::GenerationHandlers(ServiceContext &context)
    : m_context(context)
{
}

QJsonObject GenerationHandlers::withImageUrl(QJsonObject o)
{
    o.remove(QStringLiteral("image_path"));
    const QString sha = o.value(QLatin1StringView("image_sha256")).toString();
    o.insert(QStringLiteral("image_url"), sha.isEmpty() ? QJsonValue() : QJsonValue(QStringLiteral("/v1/images/") + sha));
    return o;
}

ApiReply GenerationHandlers::start(const QHttpServerRequest &request, const ApiToken &token)
{
    std::variant<GenerationRequest, ApiReply> admission = m_context.admitted(request, QStringLiteral("generations"));
    if (auto *refusal = std::get_if<ApiReply>(&admission))
        return std::move(*refusal);
    GenerationRequest g = std::get<GenerationRequest>(std::move(admission));
    if (g.scenario.isSet() && !m_context.setup.usingSimulator())
        return ApiReply::error(400,
                               QStringLiteral("this engine talks to real providers; a scenario applies only to the built-in simulator"),
                               QStringLiteral("scenario"));
    if (g.scenario.isSet() && !Scenario::builtInNames().contains(g.scenario.name))
        return ApiReply::error(400, QStringLiteral("\"%1\" is not a built-in scenario; GET /v1/config lists them").arg(g.scenario.name),
                               QStringLiteral("scenario"));
    if (std::optional<ApiReply> refusal = m_context.overInFlightLimit(1))
        return std::move(*refusal);
    if (!g.generationId.isEmpty() && (m_running.contains(g.generationId) || m_results.contains(g.generationId)))
        return ApiReply::error(409, QStringLiteral("a generation with this id exists; leave generation_id out to get a new one"),
                               QStringLiteral("generation_id"));
    const QString id = m_context.setup.startGeneration(g);
    m_running.insert(id);
    m_context.audit.record(token.name, QStringLiteral("start"), id);
    ApiReply r = ApiReply::json(202,
                                QJsonObject { { QStringLiteral("generation_id"), id },
                                              { QStringLiteral("result"), QString(QStringLiteral("/v1/generations/") + id) },
                                              { QStringLiteral("events"), QString(QStringLiteral("/v1/events?generation=") + id) } });
    r.headers.append({ QByteArray("Location"), QByteArray("/v1/generations/" + id.toLatin1()) });
    return r;
}

void GenerationHandlers::result(const QString &id, QTcpSocket *socket)
{
    if (const auto it = m_results.find(id); it != m_results.end()) {
        m_context.write(socket, ApiReply { 200, resultJson(*it), "application/json", {} });
        return;
    }
    if (m_running.contains(id)) {
        m_context.write(
            socket,
            ApiReply::json(409,
                           QJsonObject { { QStringLiteral("error"),
                                           QJsonObject { { QStringLiteral("status"), 409 },
                                                         { QStringLiteral("message"),
                                                           QStringLiteral("still running; follow /v1/events?generation=%1").arg(id) } } },
                                         { QStringLiteral("state"), QStringLiteral("running") } }));
        return;
    }
    HistoryReader *history = m_context.setup.history();
    if (!history) {
        m_context.write(
            socket, ApiReply::error(404, QStringLiteral("no generation %1 is known here (this engine keeps no history)").arg(id.left(64))));
        return;
    }
    // Older than the results kept in memory: what the history recorded of it.
    m_context.answerLater(socket, [history, id] {
        QString why;
        const std::optional<GenerationRow> row = history->generation(id, &why);
        if (!row)
            return why.isEmpty() ? ApiReply::error(404, QStringLiteral("no generation %1 is known here").arg(id.left(64)))
                                 : ApiReply::historyUnreadable(why);
        if (row->state == u"running")
            return ApiReply::json(409,
                                  QJsonObject { { QStringLiteral("error"),
                                                  QJsonObject { { QStringLiteral("status"), 409 },
                                                                { QStringLiteral("message"), QStringLiteral("still running") } } },
                                                { QStringLiteral("state"), QStringLiteral("running") } });
        // The result as it was answered when it finished, in the same shape as one kept in memory
        // (an engine that did not run it, or this one after a restart, answers alike).
        if (const auto stored = history->storedResult(id, &why)) {
            if (const auto result = GenerationResult::fromJson(*stored)) {
                QJsonObject o = withImageUrl(result->toJson());
                o.insert(QStringLiteral("source"), QStringLiteral("history"));
                return ApiReply::json(200, o);
            }
        }
        QJsonObject o = GenerationRowJson::toJson(*row);
        QJsonArray attempts;
        for (const QJsonObject &a : history->attempts(id, &why))
            attempts.append(a);
        o.insert(QStringLiteral("attempts"), attempts);
        o.insert(QStringLiteral("source"), QStringLiteral("history"));
        return ApiReply::json(200, o);
    });
}

void GenerationHandlers::cancel(const QString &id, const ApiToken &token, QTcpSocket *socket)
{
    const auto ended = [id](const QString &state) {
        return ApiReply::json(200,
                              QJsonObject { { QStringLiteral("generation_id"), id },
                                            { QStringLiteral("cancelling"), false },
                                            { QStringLiteral("state"), state } });
    };
    if (m_running.contains(id)) {
        m_context.setup.engine().cancel(id);
        m_context.audit.record(token.name, QStringLiteral("cancel"), id);
        m_context.write(
            socket, ApiReply::json(202, QJsonObject { { QStringLiteral("generation_id"), id }, { QStringLiteral("cancelling"), true } }));
        return;
    }
    if (m_results.contains(id)) { // idempotent: it has ended already
        m_context.write(socket, ended(toId(m_results.value(id).state)));
        return;
    }
    HistoryReader *history = m_context.setup.history();
    if (!history) {
        m_context.write(socket, ApiReply::error(404, QStringLiteral("no generation %1 is running here").arg(id.left(64))));
        return;
    }
    // Ended longer ago, or on another engine of the store: its final state, as GET answers it.
    m_context.answerLater(socket, [history, id, ended] {
        QString why;
        const std::optional<GenerationRow> row = history->generation(id, &why);
        if (!row)
            return why.isEmpty() ? ApiReply::error(404, QStringLiteral("no generation %1 is known here").arg(id.left(64)))
                                 : ApiReply::historyUnreadable(why);
        if (row->state == u"running") // another engine runs it: only that engine can stop it
            return ApiReply::error(
                409, QStringLiteral("generation %1 runs on engine %2; send the cancel there").arg(id.left(64), row->instance));
        return ended(row->state);
    });
}

const QByteArray &GenerationHandlers::resultJson(KeptResult &kept)
{
    if (kept.json.isEmpty() && kept.result) {
        kept.json = QJsonDocument(withImageUrl(kept.result->toJson())).toJson(QJsonDocument::Compact);
        kept.result.reset();
    }
    return kept.json;
}

void GenerationHandlers::logFinished(const GenerationResult &result, bool plain)
{
    const FallbackMetadata &fb = result.storyboard.fallback;
    QJsonObject fields { { QStringLiteral("generation_id"), result.generationId },
                         { QStringLiteral("state"), toId(result.state) },
                         { QStringLiteral("elapsed_ms"), double(result.elapsed.count() / 100) / 10.0 },
                         { QStringLiteral("provider"), toId(fb.primaryProvider) } };
    if (fb.applied) {
        fields.insert(QStringLiteral("fallback_provider"), fb.finalProvider ? toId(*fb.finalProvider) : QString());
        fields.insert(QStringLiteral("fallback_reason"), fb.reason);
    }
    if (result.failure) {
        fields.insert(QStringLiteral("kind"), enumName(result.failure->kind));
        fields.insert(QStringLiteral("code"), enumName(result.failure->publicCode()));
        fields.insert(QStringLiteral("stage"), toId(result.failedStage));
    }
    logging::note(plain ? QtDebugMsg : QtInfoMsg, lcGeneration(),
                  result.state == FinalState::Succeeded
                      ? (fb.applied ? QStringLiteral("generation succeeded with fallback") : QStringLiteral("generation succeeded"))
                      : QStringLiteral("generation %1").arg(toId(result.state)),
                  fields);
}

void GenerationHandlers::finished(const GenerationResult &result)
{
    m_running.remove(result.generationId);
    // One log line per generation (docs/contract.md 12.4): what did not simply succeed at info, the
    // rest at debug, its fields built only when that level is written. Ids, providers and kinds only:
    // never the user or the story.
    const bool plain = result.state == FinalState::Succeeded && !result.storyboard.fallback.applied;
    if (lcGeneration().isEnabled(plain ? QtDebugMsg : QtInfoMsg))
        logFinished(result, plain);
    if (!m_results.contains(result.generationId))
        m_resultOrder.push_back(result.generationId);
    auto kept = std::make_shared<GenerationResult>(result);
    if (kept->image)
        kept->image->image.clear(); // the comic is on disk (GET /v1/images/{sha256}); its JSON never held it
    m_results.insert(result.generationId, KeptResult { result.state, std::move(kept), {} });
    while (m_resultOrder.size() > static_cast<std::size_t>(m_context.options.resultsKept)) {
        m_results.remove(m_resultOrder.front());
        m_resultOrder.pop_front();
    }
}

} // namespace bullpen
