// SPDX-License-Identifier: MIT
#include "historyhandlers.h"

#include "api/historyjson.h"
#include "contract/sha256.h"
#include "history/generationrowjson.h"
#include "replay/replaysource.h"
#include "runtime/enginesetup.h"
#include "servicecontext.h"
#include "servicemetrics.h"
#include "sim/scenario.h"
#include "store/store.h"
#include "wire/statsjson.h"

#include <QDir>
#include <QFile>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QUrlQuery>

namespace bullpen {

HistoryHandlers::HistoryHandlers(ServiceContext &context, const ServiceMetrics &metrics)
    : m_context(context)
    , m_metrics(metrics)
{
}

HistoryReader *HistoryHandlers::historyOr404(QTcpSocket *socket)
{
    HistoryReader *history = m_context.setup.history();
    if (!history)
        m_context.write(socket, ApiReply::error(404, QStringLiteral("this engine keeps no history (started with --no-store)")));
    return history;
}

void HistoryHandlers::entry(const QString &id, QTcpSocket *socket)
{
    if (HistoryReader *history = historyOr404(socket)) {
        m_context.answerLater(socket, [history, id] {
            QString why;
            const std::optional<GenerationRow> row = history->generation(id, &why);
            if (!row)
                return why.isEmpty() ? ApiReply::error(404, QStringLiteral("no generation %1 in the history").arg(id.left(64)))
                                     : ApiReply::historyUnreadable(why);
            QJsonArray attempts, events;
            for (const QJsonObject &a : history->attempts(id, &why))
                attempts.append(a);
            for (const QJsonObject &e : history->events(id, &why))
                events.append(e);
            return ApiReply::json(200,
                                  QJsonObject { { QStringLiteral("generation"), GenerationRowJson::toJson(*row) },
                                                { QStringLiteral("attempts"), attempts },
                                                { QStringLiteral("events"), events } });
        });
    }
}

void HistoryHandlers::scenario(const QString &id, QTcpSocket *socket) // docs/contract.md §14
{
    if (HistoryReader *history = historyOr404(socket)) {
        // The recorded settings name this engine's providers as it describes them (a copy: the work runs on the history thread).
        m_context.answerLater(socket, [history, id, providers = m_context.setup.providers()] {
            QString why;
            const std::optional<ReplaySource> source = ReplaySource::read(*history, id, &why);
            if (!source)
                return why.startsWith(u"no generation") ? ApiReply::error(404, why)
                    : why.contains(u"still running")    ? ApiReply::error(409, why)
                                                        : ApiReply::historyUnreadable(why);
            QJsonObject o = source->scenario().toJson();
            o.insert(QStringLiteral("generation_id"), id);
            o.insert(QStringLiteral("recorded_settings"), source->policy ? source->policy->settingsJson(providers) : QJsonObject());
            return ApiReply::json(200, o);
        });
    }
}

void HistoryHandlers::list(const QHttpServerRequest &request, QTcpSocket *socket)
{
    HistoryReader *history = historyOr404(socket);
    if (!history)
        return;
    const QUrlQuery query(request.url());
    auto filter = HistoryJson::filterFromQuery(query, { QStringLiteral("limit") }, m_context.setup.providers());
    if (const auto *e = std::get_if<FieldError>(&filter)) {
        m_context.write(socket, ApiReply::error(400, e->toString(), e->field));
        return;
    }
    auto limit = HistoryJson::integer(query, QStringLiteral("limit"), 1, 500);
    if (const auto *e = std::get_if<FieldError>(&limit)) {
        m_context.write(socket, ApiReply::error(400, e->toString(), e->field));
        return;
    }
    const HistoryFilter f = std::get<HistoryFilter>(filter);
    const int n = static_cast<int>(std::get<std::optional<qint64>>(limit).value_or(100));
    m_context.answerLater(socket, [history, f, n] {
        QString why;
        const QList<GenerationRow> rows = history->generations(f, n, &why);
        if (!why.isEmpty())
            return ApiReply::historyUnreadable(why);
        QJsonArray out;
        for (const GenerationRow &r : rows)
            out.append(GenerationRowJson::toJson(r));
        const QJsonValue next = rows.size() < n
            ? QJsonValue()
            : QJsonValue(QJsonObject { { QStringLiteral("before_ms"), static_cast<double>(rows.last().createdAtMs) },
                                       { QStringLiteral("before_id"), rows.last().id } });
        return ApiReply::json(200, QJsonObject { { QStringLiteral("generations"), out }, { QStringLiteral("next"), next } });
    });
}

ApiReply HistoryHandlers::statsProviders()
{
    // Sorting the last 15 minutes' durations costs milliseconds under load: computed at most once a
    // second, however many dashboards ask.
    // Its age on the engine's monotonic clock: a step of the wall clock never serves an old answer for
    // long. at_ms is the answer's date; the windows run on the engine's monotonic clock too (a step of
    // the wall clock neither empties them nor keeps old attempts in them).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const Clock &clock = *m_context.setup.context().clock;
    const qint64 steady = ServiceMetrics::steadyNowMs(clock);
    if (m_providersAnswer.isEmpty() || !m_providersAt || clock.now() - *m_providersAt >= std::chrono::seconds(1)) {
        const QList<Provider> providers = m_context.setup.providers().all(); // this engine's own
        const ProviderWindows windows { m_context.options.instance, now, m_metrics.providers(providers, steady, 5 * 60 * 1000),
                                        m_metrics.providers(providers, steady, 15 * 60 * 1000) };
        m_providersAnswer = QJsonDocument(StatsJson::providerWindows(windows)).toJson(QJsonDocument::Compact);
        m_providersAt = clock.now();
    }
    return ApiReply { 200, m_providersAnswer, "application/json", {} };
}

void HistoryHandlers::stats(const QHttpServerRequest &request, QTcpSocket *socket,
                            Statistics::Plan (*plan)(const QUrlQuery &, const ProviderTable &))
{
    HistoryReader *history = historyOr404(socket);
    if (!history)
        return;
    Statistics::Plan planned = plan(QUrlQuery(request.url()), m_context.setup.providers());
    if (const auto *e = std::get_if<FieldError>(&planned)) {
        m_context.write(socket, ApiReply::error(400, e->toString(), e->field));
        return;
    }
    m_context.answerLater(socket, [history, body = std::get<Statistics::Body>(std::move(planned))] {
        QString why;
        const std::variant<QJsonObject, FieldError> answer = body(*history, &why);
        if (!why.isEmpty())
            return ApiReply::historyUnreadable(why);
        if (const auto *e = std::get_if<FieldError>(&answer))
            return ApiReply::error(400, e->toString(), e->field);
        return ApiReply::json(200, std::get<QJsonObject>(answer));
    });
}

void HistoryHandlers::image(const QString &sha256, QTcpSocket *socket)
{
    if (!isSha256Hex(sha256)) {
        m_context.write(socket, ApiReply::error(400, QStringLiteral("an image is named by its SHA-256: 64 lower-case hex digits")));
        return;
    }
    const QString dir = QDir(m_context.setup.dataDir()).filePath(QStringLiteral("images/") + sha256.left(2));
    // This engine's own file first; then the store, where every engine sharing a PostgreSQL store
    // keeps its comics (any instance serves any instance's).
    Store *store = m_context.setup.store() && m_context.setup.store()->storeLocation().isPostgres() ? m_context.setup.store() : nullptr;
    m_context.answerLater(socket, [dir, sha256, store] {
        for (const auto &[ext, mime] :
             { std::pair { "png", "image/png" }, std::pair { "jpg", "image/jpeg" }, std::pair { "webp", "image/webp" } }) {
            QFile f(QDir(dir).filePath(sha256 + QLatin1Char('.') + QLatin1StringView(ext)));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            if (f.size() > 64 * 1024 * 1024)
                return ApiReply::error(500, QStringLiteral("the stored image is over 64 MiB; it is not served"));
            return ApiReply { 200, f.readAll(), mime, {} };
        }
        if (store) {
            QString why;
            if (const auto comic = store->comic(sha256, &why))
                return ApiReply { 200, comic->bytes, comic->mime.toLatin1(), {} };
            if (!why.isEmpty())
                return ApiReply::historyUnreadable(why);
        }
        return ApiReply::error(404, QStringLiteral("no image with this hash is stored here"));
    });
}

} // namespace bullpen
