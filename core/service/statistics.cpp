// SPDX-License-Identifier: MIT
#include "statistics.h"

#include "api/historyjson.h"
#include "history/historyreader.h"

#include <QDateTime>

namespace bullpen::Statistics {

namespace {

constexpr qint64 kFar = 253402300799999; // the last millisecond of year 9999
constexpr qint64 kDayMs = 24LL * 3600 * 1000;

// A query read field by field; the first wrong field is kept and the rest is not read.
class Query
{
public:
    explicit Query(const QUrlQuery &query)
        : m_query(query)
    {
    }
    std::optional<FieldError> error;

    // from_ms and to_ms: by default the last 24 hours.
    std::pair<qint64, qint64> range()
    {
        const std::optional<qint64> from = integer(QStringLiteral("from_ms"), 0, kFar);
        const qint64 to = integer(QStringLiteral("to_ms"), 0, kFar).value_or(QDateTime::currentMSecsSinceEpoch() + 1);
        return { from.value_or(to - kDayMs), to };
    }
    // Buckets of a chart: at least a second, at most 31 days, at most 10,000 of them.
    qint64 bucket(std::pair<qint64, qint64> range)
    {
        const qint64 b = integer(QStringLiteral("bucket_ms"), 1000, 31 * kDayMs).value_or(3600 * 1000);
        if (!error && (range.second - range.first) / b > 10000)
            error = FieldError { QStringLiteral("bucket_ms"), QStringLiteral("makes more than 10000 buckets; choose a larger one") };
        return b;
    }
    template<typename E> std::optional<E> value(const QString &name, bool required = false)
    {
        if (error)
            return std::nullopt;
        auto v = HistoryJson::enumValue<E>(m_query, name);
        if (const auto *e = std::get_if<FieldError>(&v)) {
            error = *e;
            return std::nullopt;
        }
        const std::optional<E> out = std::get<std::optional<E>>(v);
        if (!out && required)
            error = FieldError { name, QStringLiteral("required") };
        return out;
    }
    HistoryFilter filter(const QStringList &extra)
    {
        auto f = HistoryJson::filterFromQuery(m_query, extra);
        if (const auto *e = std::get_if<FieldError>(&f)) {
            error = error.value_or(*e);
            return {};
        }
        return std::get<HistoryFilter>(f);
    }
    QString item(const QString &name) const { return m_query.queryItemValue(name); }
    // A timeout in milliseconds: more than 0, at most a day.
    std::optional<std::chrono::milliseconds> timeout(const QString &name)
    {
        const std::optional<qint64> ms = integer(name, 1, kDayMs);
        return ms ? std::optional(std::chrono::milliseconds(*ms)) : std::nullopt;
    }
    // "5000,10000,30000": candidate timeouts, 1 to 50 of them.
    QList<std::chrono::milliseconds> timeouts(const QString &name)
    {
        QList<std::chrono::milliseconds> out;
        for (const QString &part : item(name).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const qint64 ms = part.trimmed().toLongLong(&ok);
            if (!ok || ms < 1 || ms > kDayMs || out.size() >= 50) {
                error = error.value_or(FieldError { name,
                                                    QStringLiteral("must be 1 to 50 timeouts in milliseconds, comma-separated, each from 1 "
                                                                   "to 86400000, e.g. 10000,30000,60000") });
                return {};
            }
            out << std::chrono::milliseconds(ms);
        }
        return out;
    }

private:
    std::optional<qint64> integer(const QString &name, qint64 min, qint64 max)
    {
        if (error)
            return std::nullopt;
        auto v = HistoryJson::integer(m_query, name, min, max);
        if (const auto *e = std::get_if<FieldError>(&v)) {
            error = *e;
            return std::nullopt;
        }
        return std::get<std::optional<qint64>>(v);
    }

    const QUrlQuery &m_query;
};

// The plan, or the query's first wrong field.
Plan planOr(const Query &q, Body body)
{
    if (q.error)
        return *q.error;
    return body;
}

QJsonObject one(const char *key, const QJsonValue &value)
{
    return QJsonObject { { QLatin1StringView(key), value } };
}

Plan count(const QUrlQuery &query)
{
    Query q(query);
    const HistoryFilter f = q.filter({ QStringLiteral("by") });
    return planOr(q, [f](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("count", static_cast<double>(h.count(f, why)));
    });
}

Plan counts(const QUrlQuery &query)
{
    Query q(query);
    const HistoryFilter f = q.filter({ QStringLiteral("by") });
    const QString by = q.item(QStringLiteral("by")).isEmpty() ? QStringLiteral("public_code") : q.item(QStringLiteral("by"));
    const std::optional<HistoryGroup> group = by == u"public_code" ? std::optional(HistoryGroup::PublicCode)
        : by == u"kind"                                            ? std::optional(HistoryGroup::Kind)
        : by == u"state"                                           ? std::optional(HistoryGroup::State)
                                                                   : std::nullopt;
    if (!group && !q.error)
        q.error = FieldError { QStringLiteral("by"), QStringLiteral("must be public_code, kind or state") };
    return planOr(q, [f, group, by](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return QJsonObject { { QStringLiteral("by"), by }, { QStringLiteral("counts"), HistoryJson::counts(h.countBy(*group, f, why)) } };
    });
}

Plan oldest(const QUrlQuery &)
{
    return Body([](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<qint64> oldest = h.oldestGenerationMs(why);
        return one("oldest_ms", oldest ? QJsonValue(static_cast<double>(*oldest)) : QJsonValue());
    });
}

Plan fallbackRate(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const HistoryFilter scope = q.filter({ QStringLiteral("bucket_ms") });
    return planOr(q, [range, b, scope](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("buckets", HistoryJson::rateBuckets(h.fallbackRate(range.first, range.second, b, why, scope)));
    });
}

// docs/contract.md §16: what attempts cost in the range, by provider, stage, role and currency.
Plan spend(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    return planOr(q, [range](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<Spend> s = h.spend(range.first, range.second, why);
        return s ? s->toJson() : QJsonObject();
    });
}

// docs/contract.md §17: the tuner over the range. Today's setting is the caller's (the settings line it
// would change): today_primary_timeout_ms and fallback_timeout_ms, 60 s each when not given. The
// candidates: every primary_timeouts_ms with every fallback_timeouts_ms (either left out: today's).
Plan tune(const QUrlQuery &query)
{
    using namespace std::chrono_literals;
    Query q(query);
    const auto range = q.range();
    const Stage stage = q.value<Stage>(QStringLiteral("stage")).value_or(Stage::Storyboard);
    const TuneCandidate today { q.timeout(QStringLiteral("today_primary_timeout_ms")).value_or(60s),
                                q.timeout(QStringLiteral("fallback_timeout_ms")).value_or(60s), true };
    const QList<std::chrono::milliseconds> primaries = q.timeouts(QStringLiteral("primary_timeouts_ms"));
    const QList<TuneCandidate> candidates = tuneCandidates(primaries, q.timeouts(QStringLiteral("fallback_timeouts_ms")), today);
    return planOr(q, [range, stage, today, candidates](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<TuneReport> r = h.tune(stage, range.first, range.second, candidates, today, why);
        return r ? r->toJson() : QJsonObject();
    });
}

Plan latency(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    const std::optional<Provider> p = q.value<Provider>(QStringLiteral("provider"), true);
    const Role r = q.value<Role>(QStringLiteral("role")).value_or(Role::Primary);
    const std::optional<Stage> s = q.value<Stage>(QStringLiteral("stage"));
    return planOr(q, [range, p, r, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const QList<LatencySample> samples = h.latencySamples(*p, r, range.first, range.second, why, s);
        // Each sample is one attempt: an answer that grows with the history is refused, not sent.
        constexpr qsizetype kMaxSamples = 100'000;
        if (samples.size() > kMaxSamples)
            return FieldError { QStringLiteral("from_ms"),
                                QStringLiteral("the range holds %1 attempts, more than %2; narrow from_ms and to_ms, or read "
                                               "/v1/stats/latency-histogram, which answers any range")
                                    .arg(samples.size())
                                    .arg(kMaxSamples) };
        return one("samples", HistoryJson::samples(samples));
    });
}

Plan latencyHistogram(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const Stage s = q.value<Stage>(QStringLiteral("stage")).value_or(Stage::Storyboard);
    const std::optional<Provider> p = q.value<Provider>(QStringLiteral("provider"), true);
    const Role r = q.value<Role>(QStringLiteral("role")).value_or(Role::Primary);
    return planOr(q, [range, b, s, p, r](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("cells", HistoryJson::durationCells(h.latencyHistogram(*p, r, s, range.first, range.second, b, why)));
    });
}

Plan fallbackWaitHistogram(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const Stage s = q.value<Stage>(QStringLiteral("stage")).value_or(Stage::Storyboard);
    return planOr(q, [range, b, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("cells", HistoryJson::fallbackWaitCells(h.fallbackWaitHistogram(s, range.first, range.second, b, why)));
    });
}

Plan fallbackWaits(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    const Stage s = q.value<Stage>(QStringLiteral("stage")).value_or(Stage::Storyboard);
    return planOr(q, [range, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("waits", HistoryJson::fallbackWaits(h.fallbackWaits(s, range.first, range.second, why)));
    });
}

Plan health(const QUrlQuery &query)
{
    Query q(query);
    const auto range = q.range();
    if (!q.error && range.second - range.first > kDayMs)
        q.error = FieldError { QStringLiteral("from_ms"),
                               QStringLiteral("the health window is at most 24 hours; use the latency statistics for more") };
    return planOr(q, [range](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return one("providers", HistoryJson::providerHealth(h.providerHealth(range.first, range.second, why)));
    });
}

} // namespace

const QList<Endpoint> &endpoints()
{
    static const QList<Endpoint> table {
        { ApiRoute::StatsCount, &count },
        { ApiRoute::StatsCounts, &counts },
        { ApiRoute::StatsOldest, &oldest },
        { ApiRoute::StatsFallbackRate, &fallbackRate },
        { ApiRoute::StatsLatency, &latency },
        { ApiRoute::StatsLatencyHistogram, &latencyHistogram },
        { ApiRoute::StatsFallbackWaits, &fallbackWaits },
        { ApiRoute::StatsFallbackWaitHistogram, &fallbackWaitHistogram },
        { ApiRoute::StatsHealth, &health },
        { ApiRoute::StatsSpend, &spend },
        { ApiRoute::StatsTune, &tune },
    };
    return table;
}

} // namespace bullpen::Statistics
