// SPDX-License-Identifier: MIT
#include "comparisonhandlers.h"

#include "api/historyjson.h"
#include "audittrail.h"
#include "generationhandlers.h"
#include "pipeline/comparison.h"
#include "runtime/enginesetup.h"
#include "servicecontext.h"
#include "store/apitokens.h"

#include <QHttpServerRequest>
#include <QJsonArray>
#include <QTcpSocket>
#include <QUrlQuery>

namespace bullpen {

ComparisonHandlers::ComparisonHandlers(ServiceContext &context, QObject *owner)
    : m_context(context)
    , m_runner(context.setup.newComparisonRunner(owner))
{
    const auto keep = [this](const Comparison &c) {
        m_live[c.id] = forApi(HistoryJson::comparison(c.toRow(true)));
        if (m_live.size() > 1000)
            m_live.erase(m_live.begin());
    };
    QObject::connect(m_runner, &ComparisonRunner::updated, owner, keep);
    QObject::connect(m_runner, &ComparisonRunner::finished, owner, keep);
}

QJsonObject ComparisonHandlers::forApi(QJsonObject o)
{
    QJsonObject body = o.value(QLatin1StringView("body")).toObject();
    for (const QString &side : { QStringLiteral("primary"), QStringLiteral("fallback") }) {
        if (body.value(side).isObject())
            body.insert(side, GenerationHandlers::withImageUrl(body.value(side).toObject()));
    }
    o.insert(QStringLiteral("body"), body);
    return o;
}

ApiReply ComparisonHandlers::start(const QHttpServerRequest &request, const ApiToken &token)
{
    // The same body as a generation's; the fallback provider is the other side, run alone.
    std::variant<GenerationRequest, ApiReply> admission = m_context.admitted(request, QStringLiteral("comparisons"));
    if (auto *refusal = std::get_if<ApiReply>(&admission))
        return std::move(*refusal);
    const GenerationRequest g = std::get<GenerationRequest>(std::move(admission));
    const StagePolicy &p = *g.storyboardPolicy;
    if (!p.fallback)
        return ApiReply::error(400, QStringLiteral("a comparison needs two providers: name the other one as \"fallback\""),
                               QStringLiteral("fallback"));
    if (std::optional<ApiReply> refusal = m_context.overInFlightLimit(2))
        return std::move(*refusal);
    ComparisonRequest c;
    c.story = g.story;
    c.userId = g.userId;
    c.primary = p.primary;
    c.fallback = *p.fallback;
    c.primaryTimeout = p.primaryTimeout;
    c.fallbackTimeout = p.fallbackTimeout;
    c.scenario = g.scenario.name;
    const QString id = m_runner->start(c);
    m_context.audit.record(token.name, QStringLiteral("compare"), id);
    if (!m_live.count(id)) { // answerable at its Location before either side has ended
        ComparisonRow started;
        started.id = id;
        started.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        started.primaryProvider = toId(c.primary);
        started.fallbackProvider = toId(c.fallback);
        m_live[id] = HistoryJson::comparison(started);
    }
    ApiReply r = ApiReply::json(202,
                                QJsonObject { { QStringLiteral("comparison_id"), id },
                                              { QStringLiteral("result"), QString(QStringLiteral("/v1/comparisons/") + id) } });
    r.headers.append({ QByteArray("Location"), QString(QStringLiteral("/v1/comparisons/") + id).toLatin1() });
    return r;
}

void ComparisonHandlers::entry(const QString &id, QTcpSocket *socket)
{
    HistoryReader *history = m_context.setup.history();
    if (const auto it = m_live.find(id); it != m_live.end()) {
        QJsonObject o = it->second;
        o.insert(QStringLiteral("running"), m_runner->isRunning(id));
        m_context.write(socket, ApiReply::json(200, o));
        return;
    }
    if (!history) {
        m_context.write(socket, ApiReply::error(404, QStringLiteral("no comparison %1 here").arg(id.left(64))));
        return;
    }
    m_context.answerLater(socket, [history, id] {
        QString why;
        const std::optional<ComparisonRow> row = history->comparison(id, &why);
        if (!row)
            return why.isEmpty() ? ApiReply::error(404, QStringLiteral("no comparison %1 here").arg(id.left(64)))
                                 : ApiReply::historyUnreadable(why);
        QJsonObject o = forApi(HistoryJson::comparison(*row));
        o.insert(QStringLiteral("running"), false);
        return ApiReply::json(200, o);
    });
}

void ComparisonHandlers::list(const QHttpServerRequest &request, QTcpSocket *socket)
{
    HistoryReader *history = m_context.setup.history();
    if (!history) {
        m_context.write(socket, ApiReply::error(404, QStringLiteral("this engine keeps no history")));
        return;
    }
    const QUrlQuery query(request.url());
    auto limit = HistoryJson::integer(query, QStringLiteral("limit"), 1, 500);
    auto before = HistoryJson::integer(query, QStringLiteral("before_ms"), 0, 253402300799999);
    if (const auto *e = std::get_if<FieldError>(&limit)) {
        m_context.write(socket, ApiReply::error(400, e->toString(), e->field));
        return;
    }
    if (const auto *e = std::get_if<FieldError>(&before)) {
        m_context.write(socket, ApiReply::error(400, e->toString(), e->field));
        return;
    }
    const int n = static_cast<int>(std::get<std::optional<qint64>>(limit).value_or(100));
    const std::optional<qint64> beforeMs = std::get<std::optional<qint64>>(before);
    const QString beforeId = query.queryItemValue(QStringLiteral("before_id"), QUrl::FullyDecoded).left(128);
    m_context.answerLater(socket, [history, n, beforeMs, beforeId] {
        QString why;
        const QList<ComparisonRow> rows = history->comparisons(n, beforeMs, beforeId, &why);
        if (!why.isEmpty())
            return ApiReply::historyUnreadable(why);
        QJsonArray out;
        for (const ComparisonRow &r : rows)
            out.append(forApi(HistoryJson::comparison(r)));
        return ApiReply::json(200, QJsonObject { { QStringLiteral("comparisons"), out } });
    });
}

ApiReply ComparisonHandlers::cancel(const QString &id, const ApiToken &token)
{
    if (!m_runner->isRunning(id))
        return ApiReply::error(404, QStringLiteral("no comparison %1 is running here").arg(id.left(64)));
    m_runner->cancel(id);
    m_context.audit.record(token.name, QStringLiteral("cancel"), id);
    return ApiReply::json(202, QJsonObject { { QStringLiteral("comparison_id"), id }, { QStringLiteral("cancelling"), true } });
}

} // namespace bullpen
