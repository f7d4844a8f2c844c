// SPDX-License-Identifier: MIT
#include "statistics.h"

#include "api/historyjson.h"
#include "history/historyreader.h"
#include "wire/statsjson.h"
#include "wire/statsquery.h"

#include <QDateTime>

namespace bullpen::Statistics {

namespace {

constexpr qint64 kFar = 253402300799999; // the last millisecond of year 9999
constexpr qint64 kDayMs = 24LL * 3600 * 1000;

// A query read field by field; the first wrong field is kept and the rest is not read.
class Query
{
public:
    Query(const QUrlQuery &query, const ProviderTable &providers)
        : m_query(query)
        , m_providers(providers)
    {
    }
    std::optional<FieldError> error;

    // from_ms and to_ms: by default the last 24 hours.
    std::pair<qint64, qint64> range()
    {
        const std::optional<qint64> from = integer(StatsQuery::name(StatsParam::FromMs), 0, kFar);
        const qint64 to = integer(StatsQuery::name(StatsParam::ToMs), 0, kFar).value_or(QDateTime::currentMSecsSinceEpoch() + 1);
        return { from.value_or(to - kDayMs), to };
    }
    // Buckets of a chart: at least a second, at most 31 days, at most 10,000 of them.
    qint64 bucket(std::pair<qint64, qint64> range)
    {
        const qint64 b = integer(StatsQuery::name(StatsParam::BucketMs), 1000, 31 * kDayMs).value_or(3600 * 1000);
        if (!error && (range.second - range.first) / b > 10000)
            error =
                FieldError { StatsQuery::name(StatsParam::BucketMs), QStringLiteral("makes more than 10000 buckets; choose a larger one") };
        return b;
    }
    // A required provider parameter (any the process knows; a refusal names the engine's own).
    std::optional<Provider> provider(const QString &name)
    {
        if (error)
            return std::nullopt;
        auto v = HistoryJson::providerValue(m_query, name, m_providers);
        if (const auto *e = std::get_if<FieldError>(&v)) {
            error = *e;
            return std::nullopt;
        }
        const std::optional<Provider> out = std::get<std::optional<Provider>>(v);
        if (!out)
            error = FieldError { name, QStringLiteral("required") };
        return out;
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
        auto f = HistoryJson::filterFromQuery(m_query, extra, m_providers);
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

    // One of `allowed`, or nothing when not given.
    std::optional<QString> choice(const QString &name, const QStringList &allowed)
    {
        if (error || !m_query.hasQueryItem(name))
            return std::nullopt;
        const QString v = item(name).trimmed().toLower();
        if (allowed.contains(v))
            return v;
        error = FieldError { name, QStringLiteral("must be one of %1, e.g. %2").arg(allowed.join(QStringLiteral(", ")), allowed.first()) };
        return std::nullopt;
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
    const ProviderTable &m_providers; // the engine's own
};

// The plan, or the query's first wrong field.
Plan planOr(const Query &q, Body body)
{
    if (q.error)
        return *q.error;
    return body;
}

Plan count(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const HistoryFilter f = q.filter({ StatsQuery::name(StatsParam::By) });
    return planOr(
        q, [f](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> { return StatsJson::count(h.count(f, why)); });
}

Plan counts(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const HistoryFilter f = q.filter({ StatsQuery::name(StatsParam::By) });
    const QString by = q.item(StatsQuery::name(StatsParam::By));
    const std::optional<HistoryGroup> group = by.isEmpty() ? std::optional(HistoryGroup::PublicCode) : StatsQuery::groupFromName(by);
    if (!group && !q.error) {
        QStringList names = StatsQuery::groupNames();
        const QString last = names.takeLast();
        q.error =
            FieldError { StatsQuery::name(StatsParam::By), QStringLiteral("must be %1 or %2").arg(names.join(QStringLiteral(", ")), last) };
    }
    return planOr(q, [f, group](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::counts(*group, h.countBy(*group, f, why));
    });
}

Plan oldest(const QUrlQuery &, const ProviderTable &)
{
    return Body([](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<qint64> oldest = h.oldestGenerationMs(why);
        return StatsJson::oldest(oldest);
    });
}

Plan fallbackRate(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const HistoryFilter scope = q.filter({ StatsQuery::name(StatsParam::BucketMs) });
    return planOr(q, [range, b, scope](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::fallbackRate(h.fallbackRate(range.first, range.second, b, why, scope));
    });
}

// docs/contract.md §16: what attempts cost in the range, by provider, stage, role and currency.
Plan spend(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    return planOr(q, [range](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<Spend> s = h.spend(range.first, range.second, why);
        return s ? s->toJson() : QJsonObject();
    });
}

// docs/contract.md §17: the tuner over the range. Today's setting is the caller's (the settings line it
// would change): today_primary_timeout_ms and fallback_timeout_ms, 60 s each when not given, and
// today_preset and today_breaker (relief and on when not given; the breaker's window, threshold and
// cooldown are the shipped ones). The candidates: every primary_timeouts_ms with every
// fallback_timeouts_ms (either left out: today's); the breaker on/off and the other preset are added.
Plan tune(const QUrlQuery &query, const ProviderTable &providers)
{
    using namespace std::chrono_literals;
    Query q(query, providers);
    const auto range = q.range();
    const Stage stage = q.value<Stage>(StatsQuery::name(StatsParam::Stage)).value_or(Stage::Storyboard);
    TuneCandidate today { q.timeout(StatsQuery::name(StatsParam::TodayPrimaryTimeoutMs)).value_or(60s),
                          q.timeout(StatsQuery::name(StatsParam::FallbackTimeoutMs)).value_or(60s), true };
    today.preset = q.choice(StatsQuery::name(StatsParam::TodayPreset), StagePolicy::presetNames()).value_or(today.preset);
    const QStringList onOff { toId(TuneBreaker::On), toId(TuneBreaker::Off) };
    today.breakerSettings.enabled = q.choice(StatsQuery::name(StatsParam::TodayBreaker), onOff).value_or(onOff.first()) == onOff.first();
    const QList<std::chrono::milliseconds> primaries = q.timeouts(StatsQuery::name(StatsParam::PrimaryTimeoutsMs));
    const QList<TuneCandidate> candidates = tuneCandidates(primaries, q.timeouts(StatsQuery::name(StatsParam::FallbackTimeoutsMs)), today);
    return planOr(q, [range, stage, today, candidates](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const std::optional<TuneReport> r = h.tune(stage, range.first, range.second, candidates, today, why);
        return r ? r->toJson() : QJsonObject();
    });
}

Plan latency(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    const std::optional<Provider> p = q.provider(StatsQuery::name(StatsParam::Provider));
    const Role r = q.value<Role>(StatsQuery::name(StatsParam::Role)).value_or(Role::Primary);
    const std::optional<Stage> s = q.value<Stage>(StatsQuery::name(StatsParam::Stage));
    return planOr(q, [range, p, r, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        const QList<LatencySample> samples = h.latencySamples(*p, r, range.first, range.second, why, s);
        // Each sample is one attempt: an answer that grows with the history is refused, not sent.
        constexpr qsizetype kMaxSamples = 100'000;
        if (samples.size() > kMaxSamples)
            return FieldError { StatsQuery::name(StatsParam::FromMs),
                                QStringLiteral("the range holds %1 attempts, more than %2; narrow from_ms and to_ms, or read "
                                               "/v1/stats/latency-histogram, which answers any range")
                                    .arg(samples.size())
                                    .arg(kMaxSamples) };
        return StatsJson::latency(samples);
    });
}

Plan latencyHistogram(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const Stage s = q.value<Stage>(StatsQuery::name(StatsParam::Stage)).value_or(Stage::Storyboard);
    const std::optional<Provider> p = q.provider(StatsQuery::name(StatsParam::Provider));
    const Role r = q.value<Role>(StatsQuery::name(StatsParam::Role)).value_or(Role::Primary);
    return planOr(q, [range, b, s, p, r](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::latencyHistogram(h.latencyHistogram(*p, r, s, range.first, range.second, b, why));
    });
}

Plan fallbackWaitHistogram(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    const qint64 b = q.bucket(range);
    const Stage s = q.value<Stage>(StatsQuery::name(StatsParam::Stage)).value_or(Stage::Storyboard);
    return planOr(q, [range, b, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::fallbackWaitHistogram(h.fallbackWaitHistogram(s, range.first, range.second, b, why));
    });
}

Plan fallbackWaits(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    const Stage s = q.value<Stage>(StatsQuery::name(StatsParam::Stage)).value_or(Stage::Storyboard);
    return planOr(q, [range, s](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::fallbackWaits(h.fallbackWaits(s, range.first, range.second, why));
    });
}

Plan health(const QUrlQuery &query, const ProviderTable &providers)
{
    Query q(query, providers);
    const auto range = q.range();
    if (!q.error && range.second - range.first > kDayMs)
        q.error = FieldError { StatsQuery::name(StatsParam::FromMs),
                               QStringLiteral("the health window is at most 24 hours; use the latency statistics for more") };
    return planOr(q, [range](HistoryReader &h, QString *why) -> std::variant<QJsonObject, FieldError> {
        return StatsJson::health(h.providerHealth(range.first, range.second, why));
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
