// SPDX-License-Identifier: MIT
#include "remotehistory.h"

#include "api/historyjson.h"
#include "config/proxyrules.h"
#include "history/generationrowjson.h"
#include "wire/apiroutes.h"
#include "wire/statsjson.h"
#include "wire/statsquery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace bullpen {

namespace {
// A history page (500 rows), an export page or a comic: well under this.
constexpr qint64 kMaxAnswerBytes = 64LL * 1024 * 1024;

// A statistic's answer read with its codec (wire/statsjson.h): the value, or T() with the reason in
// *error (no answer, or one the codec refuses).
template<typename T>
T statistic(RemoteHistory &remote, const QString &engine, ApiRoute route, const QUrlQuery &query, QString *error,
            std::variant<T, FieldError> (*read)(const QJsonObject &))
{
    const QString path = ApiRoutes::path(route);
    const std::optional<QJsonObject> o = remote.getObject(path, query, error);
    if (!o)
        return T();
    std::variant<T, FieldError> value = read(*o);
    if (const auto *refused = std::get_if<FieldError>(&value)) {
        if (error)
            *error = QStringLiteral("%1 answered %2 with an answer this console cannot read: %3").arg(engine, path, refused->toString());
        return T();
    }
    return std::get<T>(std::move(value));
}

} // namespace

RemoteHistory::RemoteHistory(EngineEndpoint endpoint)
    : m_endpoint(std::move(endpoint))
{
    m_network = new QNetworkAccessManager;
    useProxyRules(*m_network, m_endpoint.routes);
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
    return statistic(*this, location(), ApiRoute::StatsCount, HistoryJson::filterQuery(filter), error, &StatsJson::countFromJson);
}

std::optional<qint64> RemoteHistory::oldestGenerationMs(QString *error)
{
    return statistic(*this, location(), ApiRoute::StatsOldest, {}, error, &StatsJson::oldestFromJson);
}

QList<std::pair<QString, qint64>> RemoteHistory::countBy(HistoryGroup group, const HistoryFilter &filter, QString *error)
{
    QUrlQuery q = HistoryJson::filterQuery(filter);
    StatsQuery::add(&q, StatsParam::By, StatsQuery::groupName(group));
    return statistic(*this, location(), ApiRoute::StatsCounts, q, error, &StatsJson::countsFromJson);
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
    StatsQuery::addRange(&q, fromMs, toMs);
    StatsQuery::add(&q, StatsParam::BucketMs, bucketMs);
    return statistic(*this, location(), ApiRoute::StatsFallbackRate, q, error, &StatsJson::fallbackRateFromJson);
}

std::optional<Spend> RemoteHistory::spend(qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    StatsQuery::addRange(&q, fromMs, toMs);
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
    StatsQuery::add(&q, StatsParam::Stage, toId(stage));
    StatsQuery::addRange(&q, fromMs, toMs);
    StatsQuery::add(&q, StatsParam::TodayPrimaryTimeoutMs, qint64(today.primaryTimeout.count()));
    StatsQuery::add(&q, StatsParam::FallbackTimeoutMs, qint64(today.fallbackTimeout.count()));
    StatsQuery::add(&q, StatsParam::TodayPreset, today.preset);
    StatsQuery::add(&q, StatsParam::TodayBreaker, toId(today.breakerSettings.enabled ? TuneBreaker::On : TuneBreaker::Off));
    if (!timeouts.isEmpty())
        StatsQuery::add(&q, StatsParam::PrimaryTimeoutsMs, timeouts.join(QLatin1Char(',')));
    if (!fallbacks.isEmpty())
        StatsQuery::add(&q, StatsParam::FallbackTimeoutsMs, fallbacks.join(QLatin1Char(',')));
    const std::optional<QJsonObject> o = getObject(ApiRoutes::path(ApiRoute::StatsTune), q, error);
    return o ? std::optional(TuneReport::fromJson(*o)) : std::nullopt;
}

QList<ProviderHealth> RemoteHistory::providerHealth(qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    StatsQuery::addRange(&q, fromMs, toMs);
    return statistic(*this, location(), ApiRoute::StatsHealth, q, error, &StatsJson::healthFromJson);
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
    StatsQuery::add(&q, StatsParam::Provider, toId(provider));
    StatsQuery::add(&q, StatsParam::Role, toId(role));
    StatsQuery::addRange(&q, fromMs, toMs);
    if (stage)
        StatsQuery::add(&q, StatsParam::Stage, toId(*stage));
    return statistic(*this, location(), ApiRoute::StatsLatency, q, error, &StatsJson::latencyFromJson);
}

QList<FallbackWait> RemoteHistory::fallbackWaits(Stage stage, qint64 fromMs, qint64 toMs, QString *error)
{
    QUrlQuery q;
    StatsQuery::add(&q, StatsParam::Stage, toId(stage));
    StatsQuery::addRange(&q, fromMs, toMs);
    return statistic(*this, location(), ApiRoute::StatsFallbackWaits, q, error, &StatsJson::fallbackWaitsFromJson);
}

QList<DurationCell> RemoteHistory::latencyHistogram(Provider provider, Role role, Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                                    QString *error)
{
    QUrlQuery q;
    StatsQuery::add(&q, StatsParam::Provider, toId(provider));
    StatsQuery::add(&q, StatsParam::Role, toId(role));
    StatsQuery::add(&q, StatsParam::Stage, toId(stage));
    StatsQuery::addRange(&q, fromMs, toMs);
    StatsQuery::add(&q, StatsParam::BucketMs, bucketMs);
    return statistic(*this, location(), ApiRoute::StatsLatencyHistogram, q, error, &StatsJson::latencyHistogramFromJson);
}

QList<FallbackWaitCell> RemoteHistory::fallbackWaitHistogram(Stage stage, qint64 fromMs, qint64 toMs, qint64 bucketMs, QString *error)
{
    QUrlQuery q;
    StatsQuery::add(&q, StatsParam::Stage, toId(stage));
    StatsQuery::addRange(&q, fromMs, toMs);
    StatsQuery::add(&q, StatsParam::BucketMs, bucketMs);
    return statistic(*this, location(), ApiRoute::StatsFallbackWaitHistogram, q, error, &StatsJson::fallbackWaitHistogramFromJson);
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
