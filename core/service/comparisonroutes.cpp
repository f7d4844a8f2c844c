// SPDX-License-Identifier: MIT
// EngineService's handlers under /v1/comparisons (docs/api.md, "Comparisons"): start, read, list.
#include "api/historyjson.h"
#include "engineservice.h"
#include "pipeline/comparison.h"
#include "runtime/enginesetup.h"
#include "store/apitokens.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QTcpSocket>
#include <QUrlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

EngineService::Reply EngineService::startComparison(const QHttpServerRequest &request, const ApiToken &token)
{
    // The same body as a generation's; the fallback provider is the other side, run alone.
    std::variant<GenerationRequest, Reply> admission = admitted(request, QStringLiteral("comparisons"));
    if (auto *refusal = std::get_if<Reply>(&admission))
        return std::move(*refusal);
    const GenerationRequest g = std::get<GenerationRequest>(std::move(admission));
    const StagePolicy &p = *g.storyboardPolicy;
    if (!p.fallback)
        return error(400, QStringLiteral("a comparison needs two providers: name the other one as \"fallback\""),
                     QStringLiteral("fallback"));
    if (std::optional<Reply> refusal = overInFlightLimit(2))
        return std::move(*refusal);
    ComparisonRequest c;
    c.story = g.story;
    c.userId = g.userId;
    c.primary = p.primary;
    c.fallback = *p.fallback;
    c.primaryTimeout = p.primaryTimeout;
    c.fallbackTimeout = p.fallbackTimeout;
    c.scenario = g.scenario.name;
    const QString id = m_comparisons->start(c);
    m_audit.record(token.name, QStringLiteral("compare"), id);
    if (!m_liveComparisons.count(id)) { // answerable at its Location before either side has ended
        ComparisonRow started;
        started.id = id;
        started.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        started.primaryProvider = toId(c.primary);
        started.fallbackProvider = toId(c.fallback);
        m_liveComparisons[id] = HistoryJson::comparison(started);
    }
    Reply r = json(202,
                   QJsonObject { { QStringLiteral("comparison_id"), id },
                                 { QStringLiteral("result"), QString(QStringLiteral("/v1/comparisons/") + id) } });
    r.headers.append({ QByteArray("Location"), QString(QStringLiteral("/v1/comparisons/") + id).toLatin1() });
    return r;
}

void EngineService::comparisonEntry(const QString &id, QTcpSocket *socket)
{
    HistoryReader *history = m_setup.history();
    if (const auto it = m_liveComparisons.find(id); it != m_liveComparisons.end()) {
        QJsonObject o = it->second;
        o.insert(QStringLiteral("running"), m_comparisons->isRunning(id));
        write(socket, json(200, o));
        return;
    }
    if (!history) {
        write(socket, error(404, QStringLiteral("no comparison %1 here").arg(id.left(64))));
        return;
    }
    answerLater(socket, [history, id] {
        QString why;
        const std::optional<ComparisonRow> row = history->comparison(id, &why);
        if (!row)
            return why.isEmpty() ? error(404, QStringLiteral("no comparison %1 here").arg(id.left(64))) : historyUnreadable(why);
        QJsonObject o = comparisonForApi(HistoryJson::comparison(*row));
        o.insert(QStringLiteral("running"), false);
        return json(200, o);
    });
}

void EngineService::comparisonList(const QHttpServerRequest &request, QTcpSocket *socket)
{
    HistoryReader *history = m_setup.history();
    if (!history) {
        write(socket, error(404, QStringLiteral("this engine keeps no history")));
        return;
    }
    const QUrlQuery query(request.url());
    auto limit = HistoryJson::integer(query, QStringLiteral("limit"), 1, 500);
    auto before = HistoryJson::integer(query, QStringLiteral("before_ms"), 0, 253402300799999);
    if (const auto *e = std::get_if<FieldError>(&limit)) {
        write(socket, error(400, e->toString(), e->field));
        return;
    }
    if (const auto *e = std::get_if<FieldError>(&before)) {
        write(socket, error(400, e->toString(), e->field));
        return;
    }
    const int n = static_cast<int>(std::get<std::optional<qint64>>(limit).value_or(100));
    const std::optional<qint64> beforeMs = std::get<std::optional<qint64>>(before);
    const QString beforeId = query.queryItemValue(QStringLiteral("before_id"), QUrl::FullyDecoded).left(128);
    answerLater(socket, [history, n, beforeMs, beforeId] {
        QString why;
        const QList<ComparisonRow> rows = history->comparisons(n, beforeMs, beforeId, &why);
        if (!why.isEmpty())
            return historyUnreadable(why);
        QJsonArray out;
        for (const ComparisonRow &r : rows)
            out.append(comparisonForApi(HistoryJson::comparison(r)));
        return json(200, QJsonObject { { QStringLiteral("comparisons"), out } });
    });
}

} // namespace bullpen
