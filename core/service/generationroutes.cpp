// SPDX-License-Identifier: MIT
// EngineService's handlers under /v1/generations (docs/api.md, "Generations"): start, result, cancel.
#include "api/historyjson.h"
#include "engineservice.h"
#include "history/generationrowjson.h"
#include "pipeline/generationresult.h"
#include "runtime/enginesetup.h"
#include "sim/scenario.h"
#include "store/apitokens.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTcpSocket>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

std::variant<GenerationRequest, EngineService::Reply> EngineService::admitted(const QHttpServerRequest &request, const QString &work) const
{
    if (m_draining) {
        Reply r = error(503, QStringLiteral("this engine is shutting down and takes no new %1; send it to another instance").arg(work));
        r.headers.append({ QByteArray("Retry-After"), QByteArray("5") });
        return r;
    }
    std::variant<GenerationRequest, FieldError> parsed =
        GenerationRequestJson::parse(request.body(), m_setup.storyboardPolicy(), m_options.request);
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return error(e->tooLarge ? 413 : 400, e->toString(), e->field);
    return std::get<GenerationRequest>(std::move(parsed));
}

std::optional<EngineService::Reply> EngineService::overInFlightLimit(int more) const
{
    if (m_setup.engine().activeCount() + more <= m_options.maxInFlight)
        return std::nullopt;
    Reply r = error(429,
                    QStringLiteral("%1 generations in flight, this engine's limit; retry after 1 s, or raise --max-in-flight")
                        .arg(m_options.maxInFlight));
    r.headers.append({ QByteArray("Retry-After"), QByteArray("1") });
    return r;
}

EngineService::Reply EngineService::startGeneration(const QHttpServerRequest &request, const ApiToken &token)
{
    std::variant<GenerationRequest, Reply> admission = admitted(request, QStringLiteral("generations"));
    if (auto *refusal = std::get_if<Reply>(&admission))
        return std::move(*refusal);
    GenerationRequest g = std::get<GenerationRequest>(std::move(admission));
    if (g.scenario.isSet() && !m_setup.usingSimulator())
        return error(400, QStringLiteral("this engine talks to real providers; a scenario applies only to the built-in simulator"),
                     QStringLiteral("scenario"));
    if (g.scenario.isSet() && !Scenario::builtInNames().contains(g.scenario.name))
        return error(400, QStringLiteral("\"%1\" is not a built-in scenario; GET /v1/config lists them").arg(g.scenario.name),
                     QStringLiteral("scenario"));
    if (std::optional<Reply> refusal = overInFlightLimit(1))
        return std::move(*refusal);
    if (!g.generationId.isEmpty() && (m_running.contains(g.generationId) || m_results.contains(g.generationId)))
        return error(409, QStringLiteral("a generation with this id exists; leave generation_id out to get a new one"),
                     QStringLiteral("generation_id"));
    const QString id = m_setup.startGeneration(g);
    m_running.insert(id);
    m_audit.record(token.name, QStringLiteral("start"), id);
    Reply r = json(202,
                   QJsonObject { { QStringLiteral("generation_id"), id },
                                 { QStringLiteral("result"), QString(QStringLiteral("/v1/generations/") + id) },
                                 { QStringLiteral("events"), QString(QStringLiteral("/v1/events?generation=") + id) } });
    r.headers.append({ QByteArray("Location"), QByteArray("/v1/generations/" + id.toLatin1()) });
    return r;
}

void EngineService::generationResult(const QString &id, QTcpSocket *socket)
{
    if (const auto it = m_results.find(id); it != m_results.end()) {
        write(socket, Reply { 200, resultJson(*it), "application/json", {} });
        return;
    }
    if (m_running.contains(id)) {
        write(socket,
              json(409,
                   QJsonObject { { QStringLiteral("error"),
                                   QJsonObject { { QStringLiteral("status"), 409 },
                                                 { QStringLiteral("message"),
                                                   QStringLiteral("still running; follow /v1/events?generation=%1").arg(id) } } },
                                 { QStringLiteral("state"), QStringLiteral("running") } }));
        return;
    }
    HistoryReader *history = m_setup.history();
    if (!history) {
        write(socket, error(404, QStringLiteral("no generation %1 is known here (this engine keeps no history)").arg(id.left(64))));
        return;
    }
    // Older than the results kept in memory: what the history recorded of it.
    answerLater(socket, [history, id] {
        QString why;
        const std::optional<GenerationRow> row = history->generation(id, &why);
        if (!row)
            return why.isEmpty() ? error(404, QStringLiteral("no generation %1 is known here").arg(id.left(64))) : historyUnreadable(why);
        if (row->state == u"running")
            return json(409,
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
                return json(200, o);
            }
        }
        QJsonObject o = GenerationRowJson::toJson(*row);
        QJsonArray attempts;
        for (const QJsonObject &a : history->attempts(id, &why))
            attempts.append(a);
        o.insert(QStringLiteral("attempts"), attempts);
        o.insert(QStringLiteral("source"), QStringLiteral("history"));
        return json(200, o);
    });
}

void EngineService::cancelGeneration(const QString &id, const ApiToken &token, QTcpSocket *socket)
{
    const auto ended = [id](const QString &state) {
        return json(200,
                    QJsonObject { { QStringLiteral("generation_id"), id },
                                  { QStringLiteral("cancelling"), false },
                                  { QStringLiteral("state"), state } });
    };
    if (m_running.contains(id)) {
        m_setup.engine().cancel(id);
        m_audit.record(token.name, QStringLiteral("cancel"), id);
        write(socket, json(202, QJsonObject { { QStringLiteral("generation_id"), id }, { QStringLiteral("cancelling"), true } }));
        return;
    }
    if (m_results.contains(id)) { // idempotent: it has ended already
        write(socket, ended(toId(m_results.value(id).state)));
        return;
    }
    HistoryReader *history = m_setup.history();
    if (!history) {
        write(socket, error(404, QStringLiteral("no generation %1 is running here").arg(id.left(64))));
        return;
    }
    // Ended longer ago, or on another engine of the store: its final state, as GET answers it.
    answerLater(socket, [history, id, ended] {
        QString why;
        const std::optional<GenerationRow> row = history->generation(id, &why);
        if (!row)
            return why.isEmpty() ? error(404, QStringLiteral("no generation %1 is known here").arg(id.left(64))) : historyUnreadable(why);
        if (row->state == u"running") // another engine runs it: only that engine can stop it
            return error(409, QStringLiteral("generation %1 runs on engine %2; send the cancel there").arg(id.left(64), row->instance));
        return ended(row->state);
    });
}

const QByteArray &EngineService::resultJson(KeptResult &kept)
{
    if (kept.json.isEmpty() && kept.result) {
        kept.json = QJsonDocument(withImageUrl(kept.result->toJson())).toJson(QJsonDocument::Compact);
        kept.result.reset();
    }
    return kept.json;
}

} // namespace bullpen
