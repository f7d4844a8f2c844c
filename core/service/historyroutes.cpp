// SPDX-License-Identifier: MIT
// EngineService's handlers that read the history (docs/api.md, "History" and "Statistics"): one
// generation, its replay scenario, the list, the statistics and the comics, answered from the history thread.
#include "api/historyjson.h"
#include "contract/sha256.h"
#include "engineservice.h"
#include "history/generationrowjson.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "sim/scenario.h"
#include "store/store.h"
#include "wire/statsjson.h"

#include <QDir>
#include <QFile>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QUrlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

HistoryReader *EngineService::historyOr404(QTcpSocket *socket)
{
    HistoryReader *history = m_setup.history();
    if (!history)
        write(socket, error(404, QStringLiteral("this engine keeps no history (started with --no-store)")));
    return history;
}

void EngineService::historyEntry(const QString &id, QTcpSocket *socket)
{
    if (HistoryReader *history = historyOr404(socket)) {
        answerLater(socket, [history, id] {
            QString why;
            const std::optional<GenerationRow> row = history->generation(id, &why);
            if (!row)
                return why.isEmpty() ? error(404, QStringLiteral("no generation %1 in the history").arg(id.left(64)))
                                     : historyUnreadable(why);
            QJsonArray attempts, events;
            for (const QJsonObject &a : history->attempts(id, &why))
                attempts.append(a);
            for (const QJsonObject &e : history->events(id, &why))
                events.append(e);
            return json(200,
                        QJsonObject { { QStringLiteral("generation"), GenerationRowJson::toJson(*row) },
                                      { QStringLiteral("attempts"), attempts },
                                      { QStringLiteral("events"), events } });
        });
    }
}

void EngineService::historyScenario(const QString &id, QTcpSocket *socket) // docs/contract.md §14
{
    if (HistoryReader *history = historyOr404(socket)) {
        answerLater(socket, [history, id] {
            QString why;
            const std::optional<ReplaySource> source = ReplaySource::read(*history, id, &why);
            if (!source)
                return why.startsWith(u"no generation") ? error(404, why)
                    : why.contains(u"still running")    ? error(409, why)
                                                        : historyUnreadable(why);
            QJsonObject o = source->scenario().toJson();
            o.insert(QStringLiteral("generation_id"), id);
            o.insert(QStringLiteral("recorded_settings"), source->policy ? source->policy->settingsJson() : QJsonObject());
            return json(200, o);
        });
    }
}

void EngineService::historyList(const QHttpServerRequest &request, QTcpSocket *socket)
{
    HistoryReader *history = historyOr404(socket);
    if (!history)
        return;
    const QUrlQuery query(request.url());
    auto filter = HistoryJson::filterFromQuery(query, { QStringLiteral("limit") });
    if (const auto *e = std::get_if<FieldError>(&filter)) {
        write(socket, error(400, e->toString(), e->field));
        return;
    }
    auto limit = HistoryJson::integer(query, QStringLiteral("limit"), 1, 500);
    if (const auto *e = std::get_if<FieldError>(&limit)) {
        write(socket, error(400, e->toString(), e->field));
        return;
    }
    const HistoryFilter f = std::get<HistoryFilter>(filter);
    const int n = static_cast<int>(std::get<std::optional<qint64>>(limit).value_or(100));
    answerLater(socket, [history, f, n] {
        QString why;
        const QList<GenerationRow> rows = history->generations(f, n, &why);
        if (!why.isEmpty())
            return historyUnreadable(why);
        QJsonArray out;
        for (const GenerationRow &r : rows)
            out.append(GenerationRowJson::toJson(r));
        const QJsonValue next = rows.size() < n
            ? QJsonValue()
            : QJsonValue(QJsonObject { { QStringLiteral("before_ms"), static_cast<double>(rows.last().createdAtMs) },
                                       { QStringLiteral("before_id"), rows.last().id } });
        return json(200, QJsonObject { { QStringLiteral("generations"), out }, { QStringLiteral("next"), next } });
    });
}

EngineService::Reply EngineService::statsProviders()
{
    // Sorting the last 15 minutes' durations costs milliseconds under load: computed at most once a
    // second, however many dashboards ask.
    // Its age on the monotonic clock: a step of the wall clock never serves an old answer for long.
    // at_ms is the answer's date; the windows run on the monotonic clock (a step of the wall clock
    // neither empties them nor keeps old attempts in them).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 steady = ServiceMetrics::steadyNowMs();
    if (m_providersAnswer.isEmpty() || !m_providersAge.isValid() || m_providersAge.elapsed() >= 1000) {
        const ProviderWindows windows { m_options.instance, now, m_metrics.providers(steady, 5 * 60 * 1000),
                                        m_metrics.providers(steady, 15 * 60 * 1000) };
        m_providersAnswer = QJsonDocument(StatsJson::providerWindows(windows)).toJson(QJsonDocument::Compact);
        m_providersAge.start();
    }
    return Reply { 200, m_providersAnswer, "application/json", {} };
}

void EngineService::answerStats(const QHttpServerRequest &request, QTcpSocket *socket, Statistics::Plan (*plan)(const QUrlQuery &))
{
    HistoryReader *history = historyOr404(socket);
    if (!history)
        return;
    Statistics::Plan planned = plan(QUrlQuery(request.url()));
    if (const auto *e = std::get_if<FieldError>(&planned)) {
        write(socket, error(400, e->toString(), e->field));
        return;
    }
    answerLater(socket, [history, body = std::get<Statistics::Body>(std::move(planned))] {
        QString why;
        const std::variant<QJsonObject, FieldError> answer = body(*history, &why);
        if (!why.isEmpty())
            return historyUnreadable(why);
        if (const auto *e = std::get_if<FieldError>(&answer))
            return error(400, e->toString(), e->field);
        return json(200, std::get<QJsonObject>(answer));
    });
}

void EngineService::image(const QString &sha256, QTcpSocket *socket)
{
    if (!isSha256Hex(sha256)) {
        write(socket, error(400, QStringLiteral("an image is named by its SHA-256: 64 lower-case hex digits")));
        return;
    }
    const QString dir = QDir(m_setup.dataDir()).filePath(QStringLiteral("images/") + sha256.left(2));
    // This engine's own file first; then the store, where every engine sharing a PostgreSQL store
    // keeps its comics (any instance serves any instance's).
    Store *store = m_setup.store() && m_setup.store()->storeLocation().isPostgres() ? m_setup.store() : nullptr;
    answerLater(socket, [dir, sha256, store] {
        for (const auto &[ext, mime] :
             { std::pair { "png", "image/png" }, std::pair { "jpg", "image/jpeg" }, std::pair { "webp", "image/webp" } }) {
            QFile f(QDir(dir).filePath(sha256 + QLatin1Char('.') + QLatin1StringView(ext)));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            if (f.size() > 64 * 1024 * 1024)
                return error(500, QStringLiteral("the stored image is over 64 MiB; it is not served"));
            return Reply { 200, f.readAll(), mime, {} };
        }
        if (store) {
            QString why;
            if (const auto comic = store->comic(sha256, &why))
                return Reply { 200, comic->bytes, comic->mime.toLatin1(), {} };
            if (!why.isEmpty())
                return historyUnreadable(why);
        }
        return error(404, QStringLiteral("no image with this hash is stored here"));
    });
}

} // namespace bullpen
