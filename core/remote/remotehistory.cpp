// SPDX-License-Identifier: MIT
#include "remotehistory.h"

#include "api/historyjson.h"
#include "config/proxyrules.h"
#include "history/generationrowjson.h"
#include "wire/apiroutes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace bullpen {

namespace {
// A history page (500 rows), an export page or a comic: well under this.
constexpr qint64 kMaxAnswerBytes = 64LL * 1024 * 1024;
} // namespace

RemoteHistory::RemoteHistory(EngineEndpoint endpoint)
    : m_endpoint(std::move(endpoint))
{
    m_network = new QNetworkAccessManager;
    useProxyRules(*m_network);
    m_network->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_network, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("bullpen-remote-history"));
    m_thread.start();
}

RemoteHistory::~RemoteHistory()
{
    m_thread.quit();
    m_thread.wait();
}

QString RemoteHistory::location() const
{
    return m_endpoint.display();
}

RemoteHistory::Answer RemoteHistory::get(const QString &path, const QUrlQuery &query)
{
    auto promise = std::make_shared<std::promise<Answer>>();
    std::future<Answer> answer = promise->get_future();
    const QNetworkRequest request = m_endpoint.request(path, query);
    QMetaObject::invokeMethod(m_network, [this, request, promise] {
        QNetworkReply *reply = m_network->get(request);
        EngineEndpoint::cap(reply, kMaxAnswerBytes);
        QObject::connect(reply, &QNetworkReply::finished, reply, [reply, promise] {
            reply->deleteLater();
            Answer a;
            a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            a.body = reply->readAll();
            if (const QString capped = EngineEndpoint::capped(reply); !capped.isEmpty()) {
                a.status = 0;
                a.body.clear();
                a.error = capped;
            } else if (a.status < 200 || a.status > 299) {
                a.error = EngineEndpoint::errorOf(a.status, a.body, reply->errorString());
            }
            promise->set_value(std::move(a));
        });
    });
    return answer.get();
}

std::optional<QJsonObject> RemoteHistory::getObject(const QString &path, const QUrlQuery &query, QString *error, bool notFoundIsEmpty)
{
    const Answer a = get(path, query);
    if (notFoundIsEmpty && a.status == 404)
        return std::nullopt;
    if (!a.error.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_endpoint.display(), a.error);
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(a.body, &parse);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("%1 answered %2 with something that is not a JSON object").arg(m_endpoint.display(), path);
        return std::nullopt;
    }
    return doc.object();
}

QList<GenerationRow> RemoteHistory::generations(const HistoryFilter &filter, int limit, QString *error)
{
    QList<GenerationRow> out;
    HistoryFilter page = filter;
    while (out.size() < limit) {
        QUrlQuery q = HistoryJson::filterQuery(page);
        const int n = std::min(500, limit - static_cast<int>(out.size()));
        q.addQueryItem(QStringLiteral("limit"), QString::number(n));
        const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::History), q, error);
        if (!o)
            break;
        const QJsonArray rows = o->value(QLatin1StringView("generations")).toArray();
        for (const QJsonValue &v : rows) {
            if (auto row = GenerationRowJson::fromJson(v.toObject()))
                out << *row;
        }
        const QJsonObject next = o->value(QLatin1StringView("next")).toObject();
        if (rows.size() < n || next.isEmpty())
            break;
        page.beforeMs = next.value(QLatin1StringView("before_ms")).toInteger();
        page.beforeId = next.value(QLatin1StringView("before_id")).toString();
    }
    return out;
}

std::optional<QJsonObject> RemoteHistory::detail(const QString &id, QString *error)
{
    {
        const std::lock_guard lock(m_detailLock);
        if (id == m_detailId && m_detailAge.isValid() && m_detailAge.elapsed() < 1000)
            return m_detail;
    }
    std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::HistoryEntry, { id }), {}, error, true);
    if (o) {
        const std::lock_guard lock(m_detailLock);
        m_detailId = id;
        m_detail = *o;
        m_detailAge.start();
    }
    return o;
}

std::optional<GenerationRow> RemoteHistory::generation(const QString &id, QString *error)
{
    const std::optional<QJsonObject> o = detail(id, error);
    if (!o)
        return std::nullopt;
    return GenerationRowJson::fromJson(o->value(QLatin1StringView("generation")).toObject());
}

qint64 RemoteHistory::count(const HistoryFilter &filter, QString *error)
{
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsCount), HistoryJson::filterQuery(filter), error);
    return o ? o->value(QLatin1StringView("count")).toInteger() : 0;
}

std::optional<qint64> RemoteHistory::oldestGenerationMs(QString *error)
{
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsOldest), {}, error);
    if (!o || !o->value(QLatin1StringView("oldest_ms")).isDouble())
        return std::nullopt;
    return o->value(QLatin1StringView("oldest_ms")).toInteger();
}

QList<std::pair<QString, qint64>> RemoteHistory::countBy(HistoryGroup group, const HistoryFilter &filter, QString *error)
{
    QUrlQuery q = HistoryJson::filterQuery(filter);
    q.addQueryItem(QStringLiteral("by"),
                   group == HistoryGroup::Kind        ? QStringLiteral("kind")
                       : group == HistoryGroup::State ? QStringLiteral("state")
                                                      : QStringLiteral("public_code"));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsCounts), q, error);
    return o ? HistoryJson::countsFromJson(o->value(QLatin1StringView("counts")).toArray()) : QList<std::pair<QString, qint64>> {};
}

QList<RateBucket> RemoteHistory::fallbackRate(qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error, const HistoryFilter &scope)
{
    HistoryFilter only; // what the rate follows (HistoryReader::fallbackRate); the range is sent below
    only.provider = scope.provider;
    only.instance = scope.instance;
    only.userKey = scope.userKey;
    only.userId = scope.userId;
    only.idPrefix = scope.idPrefix;
    QUrlQuery q = HistoryJson::filterQuery(only);
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    q.addQueryItem(QStringLiteral("bucket_ms"), QString::number(bucketMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsFallbackRate), q, error);
    return o ? HistoryJson::rateBucketsFromJson(o->value(QLatin1StringView("buckets")).toArray()) : QList<RateBucket> {};
}

std::optional<Spend> RemoteHistory::spend(qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsSpend), q, error);
    return o ? std::optional(Spend::fromJson(*o)) : std::nullopt;
}

std::optional<TuneReport> RemoteHistory::tune(Stage stage, qint64 fromMs, qint64 toMs, const QList<TuneCandidate> &candidates,
                                              const TuneCandidate &today, QString *error)
{
    // The engine takes the candidates as a grid (tuneCandidates): their primary and fallback timeouts.
    QStringList timeouts, fallbacks;
    for (const TuneCandidate &c : candidates) {
        if (const QString t = QString::number(c.primaryTimeout.count()); !timeouts.contains(t))
            timeouts << t;
        if (const QString f = QString::number(c.fallbackTimeout.count()); !fallbacks.contains(f))
            fallbacks << f;
    }
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("stage"), toId(stage));
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    q.addQueryItem(QStringLiteral("today_primary_timeout_ms"), QString::number(today.primaryTimeout.count()));
    q.addQueryItem(QStringLiteral("fallback_timeout_ms"), QString::number(today.fallbackTimeout.count()));
    if (!timeouts.isEmpty())
        q.addQueryItem(QStringLiteral("primary_timeouts_ms"), timeouts.join(QLatin1Char(',')));
    if (!fallbacks.isEmpty())
        q.addQueryItem(QStringLiteral("fallback_timeouts_ms"), fallbacks.join(QLatin1Char(',')));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsTune), q, error);
    return o ? std::optional(TuneReport::fromJson(*o)) : std::nullopt;
}

QList<ProviderHealth> RemoteHistory::providerHealth(qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsHealth), q, error);
    return o ? HistoryJson::providerHealthFromJson(o->value(QLatin1StringView("providers")).toArray()) : QList<ProviderHealth> {};
}

QList<QJsonObject> RemoteHistory::events(const QString &generationId, QString *error)
{
    QList<QJsonObject> out;
    if (const std::optional<QJsonObject> o = detail(generationId, error)) {
        for (const QJsonValue &v : o->value(QLatin1StringView("events")).toArray())
            out << v.toObject();
    }
    return out;
}

QList<QJsonObject> RemoteHistory::attempts(const QString &generationId, QString *error)
{
    QList<QJsonObject> out;
    if (const std::optional<QJsonObject> o = detail(generationId, error)) {
        for (const QJsonValue &v : o->value(QLatin1StringView("attempts")).toArray())
            out << v.toObject();
    }
    return out;
}

QList<LatencySample> RemoteHistory::latencySamples(Provider provider, Role role, qint64 fromMs, qint64 toMs, QString *error,
                                                   std::optional<Stage> stage)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("provider"), toId(provider));
    q.addQueryItem(QStringLiteral("role"), toId(role));
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    if (stage)
        q.addQueryItem(QStringLiteral("stage"), toId(*stage));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsLatency), q, error);
    return o ? HistoryJson::samplesFromJson(o->value(QLatin1StringView("samples")).toArray()) : QList<LatencySample> {};
}

QList<FallbackWait> RemoteHistory::fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("stage"), toId(stage));
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsFallbackWaits), q, error);
    return o ? HistoryJson::fallbackWaitsFromJson(o->value(QLatin1StringView("waits")).toArray()) : QList<FallbackWait> {};
}

QList<DurationCell> RemoteHistory::latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                    QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("provider"), toId(provider));
    q.addQueryItem(QStringLiteral("role"), toId(role));
    q.addQueryItem(QStringLiteral("stage"), toId(stage));
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    q.addQueryItem(QStringLiteral("bucket_ms"), QString::number(bucketMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsLatencyHistogram), q, error);
    return o ? HistoryJson::durationCellsFromJson(o->value(QLatin1StringView("cells")).toArray()) : QList<DurationCell> {};
}

QList<FallbackWaitCell> RemoteHistory::fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("stage"), toId(stage));
    q.addQueryItem(QStringLiteral("from_ms"), QString::number(fromMs));
    q.addQueryItem(QStringLiteral("to_ms"), QString::number(toMs));
    q.addQueryItem(QStringLiteral("bucket_ms"), QString::number(bucketMs));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsFallbackWaitHistogram), q, error);
    return o ? HistoryJson::fallbackWaitCellsFromJson(o->value(QLatin1StringView("cells")).toArray()) : QList<FallbackWaitCell> {};
}

QList<ComparisonRow> RemoteHistory::comparisons(int limit, std::optional<qint64> beforeMs, const QString &beforeId, QString *error)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QString::number(std::clamp(limit, 1, 500)));
    if (beforeMs)
        q.addQueryItem(QStringLiteral("before_ms"), QString::number(*beforeMs));
    if (!beforeId.isEmpty())
        q.addQueryItem(QStringLiteral("before_id"), beforeId);
    QList<ComparisonRow> out;
    if (const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::Comparisons), q, error)) {
        for (const QJsonValue &v : o->value(QLatin1StringView("comparisons")).toArray())
            out << HistoryJson::comparisonFromJson(v.toObject());
    }
    return out;
}

std::optional<ComparisonRow> RemoteHistory::comparison(const QString &id, QString *error)
{
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::Comparison, { id }), {}, error, true);
    if (!o)
        return std::nullopt;
    return HistoryJson::comparisonFromJson(*o);
}

} // namespace bullpen
