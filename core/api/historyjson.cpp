// SPDX-License-Identifier: MIT
#include "historyjson.h"

#include "contract/providerregistry.h"

#include <QFileInfo>
#include <QJsonValue>
#include <QMetaEnum>

namespace bullpen {

namespace {

const QStringList kFilterFields {
    QStringLiteral("from_ms"),  QStringLiteral("to_ms"),     QStringLiteral("state"),          QStringLiteral("code"),
    QStringLiteral("kind"),     QStringLiteral("stage"),     QStringLiteral("provider"),       QStringLiteral("user"),
    QStringLiteral("relieved"), QStringLiteral("before_ms"), QStringLiteral("before_id"),      QStringLiteral("instance"),
    QStringLiteral("user_id"),  QStringLiteral("id_prefix"), QStringLiteral("failed_attempt"), QStringLiteral("fallback_reason"),
    QStringLiteral("synthetic")
};

// The values of `synthetic`, in HistoryFilter::Synthetic's order.
const QStringList kSyntheticValues { QStringLiteral("exclude"), QStringLiteral("include"), QStringLiteral("only") };

template<typename E> std::optional<E> enumByName(const QString &given, QStringList *valid, bool lower)
{
    const QMetaEnum me = QMetaEnum::fromType<E>();
    for (int i = 0; i < me.keyCount(); ++i) {
        const QString name = QString::fromLatin1(me.key(i));
        if (given.compare(name, Qt::CaseInsensitive) == 0)
            return static_cast<E>(me.value(i));
        *valid << (lower ? name.toLower() : name);
    }
    return std::nullopt;
}

// A provider is named by its registry id; the valid ones are the providers listed here.
template<> std::optional<Provider> enumByName<Provider>(const QString &given, QStringList *valid, bool)
{
    if (const std::optional<Provider> p = providerFromId(given))
        return p;
    for (const Provider p : ProviderRegistry::all())
        *valid << toId(p);
    return std::nullopt;
}

template<typename E> QString enumId(E value, bool lower)
{
    const QString name = QString::fromLatin1(QMetaEnum::fromType<E>().valueToKey(static_cast<int>(value)));
    return lower ? name.toLower() : name;
}

} // namespace

template<typename E> std::variant<std::optional<E>, FieldError> HistoryJson::enumValue(const QUrlQuery &query, const QString &name)
{
    if (!query.hasQueryItem(name))
        return std::optional<E>();
    QStringList valid;
    const QString given = query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    if (auto v = enumByName<E>(given, &valid, !std::is_same_v<E, FailureKind> && !std::is_same_v<E, PublicCode>))
        return std::optional<E>(*v);
    return FieldError { name, QStringLiteral("\"%1\" is not one of %2").arg(given.left(64), valid.join(QStringLiteral(", "))) };
}

template std::variant<std::optional<Provider>, FieldError> HistoryJson::enumValue<Provider>(const QUrlQuery &, const QString &);
template std::variant<std::optional<Role>, FieldError> HistoryJson::enumValue<Role>(const QUrlQuery &, const QString &);
template std::variant<std::optional<Stage>, FieldError> HistoryJson::enumValue<Stage>(const QUrlQuery &, const QString &);

QUrlQuery HistoryJson::filterQuery(const HistoryFilter &f)
{
    QUrlQuery q;
    const auto put = [&](const QString &name, const QString &value) {
        q.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(value)));
    };
    if (f.fromMs)
        put(QStringLiteral("from_ms"), QString::number(*f.fromMs));
    if (f.toMs)
        put(QStringLiteral("to_ms"), QString::number(*f.toMs));
    if (!f.states.isEmpty()) {
        QStringList states;
        for (HistoryState s : f.states)
            states << enumId(s, true);
        put(QStringLiteral("state"), states.join(QLatin1Char(',')));
    }
    if (f.publicCode)
        put(QStringLiteral("code"), enumId(*f.publicCode, false));
    if (f.kind)
        put(QStringLiteral("kind"), enumId(*f.kind, false));
    if (f.stage)
        put(QStringLiteral("stage"), toId(*f.stage));
    if (f.provider)
        put(QStringLiteral("provider"), toId(*f.provider));
    if (!f.userKey.isEmpty())
        put(QStringLiteral("user"), f.userKey);
    if (!f.userId.isEmpty())
        put(QStringLiteral("user_id"), f.userId);
    if (!f.idPrefix.isEmpty())
        put(QStringLiteral("id_prefix"), f.idPrefix);
    if (!f.instance.isEmpty())
        put(QStringLiteral("instance"), f.instance);
    if (f.fallbackApplied)
        put(QStringLiteral("relieved"), *f.fallbackApplied ? QStringLiteral("true") : QStringLiteral("false"));
    if (f.failedAttempt)
        put(QStringLiteral("failed_attempt"), f.failedAttempt->toString());
    if (!f.fallbackReason.isEmpty())
        put(QStringLiteral("fallback_reason"), f.fallbackReason);
    if (f.synthetic != HistoryFilter::Synthetic::Exclude)
        put(QStringLiteral("synthetic"), kSyntheticValues.at(static_cast<int>(f.synthetic)));
    if (f.beforeMs)
        put(QStringLiteral("before_ms"), QString::number(*f.beforeMs));
    if (!f.beforeId.isEmpty())
        put(QStringLiteral("before_id"), f.beforeId);
    return q;
}

std::variant<std::optional<qint64>, FieldError> HistoryJson::integer(const QUrlQuery &query, const QString &name, qint64 min, qint64 max)
{
    if (!query.hasQueryItem(name))
        return std::optional<qint64>();
    bool ok = false;
    const QString given = query.queryItemValue(name, QUrl::FullyDecoded);
    const qint64 v = given.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return FieldError { name, QStringLiteral("must be a whole number from %1 to %2").arg(min).arg(max) };
    return std::optional<qint64>(v);
}

std::variant<HistoryFilter, FieldError> HistoryJson::filterFromQuery(const QUrlQuery &query, const QStringList &extra)
{
    const auto items = query.queryItems(QUrl::FullyDecoded);
    QStringList seen;
    for (const auto &[name, value] : items) {
        if (name.isEmpty()) {
            if (value.isEmpty())
                continue; // "a=1&&b=2": an empty pair says nothing
            return FieldError { QStringLiteral("(unnamed)"), QStringLiteral("a parameter without a name (\"=%1\")").arg(value.left(32)) };
        }
        if (!kFilterFields.contains(name) && !extra.contains(name))
            return FieldError {
                name, QStringLiteral("unknown parameter; the parameters are %1").arg((kFilterFields + extra).join(QStringLiteral(", ")))
            };
        if (seen.contains(name))
            return FieldError { name, QStringLiteral("given twice") };
        seen << name;
    }
    HistoryFilter f;
    constexpr qint64 kFar = 253402300799999; // 9999-12-31
    for (const auto &[name, into] : { std::pair { QStringLiteral("from_ms"), &f.fromMs }, std::pair { QStringLiteral("to_ms"), &f.toMs },
                                      std::pair { QStringLiteral("before_ms"), &f.beforeMs } }) {
        auto v = integer(query, name, 0, kFar);
        if (auto *e = std::get_if<FieldError>(&v))
            return *e;
        *into = std::get<std::optional<qint64>>(v);
    }
    if (query.hasQueryItem(QStringLiteral("state"))) {
        const QStringList states = query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded).split(QLatin1Char(','));
        for (const QString &s : states) {
            QStringList valid;
            const auto state = enumByName<HistoryState>(s.trimmed(), &valid, true);
            if (!state)
                return FieldError { QStringLiteral("state"),
                                    QStringLiteral("\"%1\" is not one of %2").arg(s.left(64), valid.join(QStringLiteral(", "))) };
            f.states << *state;
        }
    }
    const auto pick = [&]<typename E>(const QString &name, std::optional<E> *into) -> std::optional<FieldError> {
        auto v = enumValue<E>(query, name);
        if (auto *e = std::get_if<FieldError>(&v))
            return *e;
        *into = std::get<std::optional<E>>(v);
        return std::nullopt;
    };
    if (auto e = pick(QStringLiteral("code"), &f.publicCode))
        return *e;
    if (auto e = pick(QStringLiteral("kind"), &f.kind))
        return *e;
    if (auto e = pick(QStringLiteral("stage"), &f.stage))
        return *e;
    if (auto e = pick(QStringLiteral("provider"), &f.provider))
        return *e;
    f.userKey = query.queryItemValue(QStringLiteral("user"), QUrl::FullyDecoded).left(128);
    f.userId = query.queryItemValue(QStringLiteral("user_id"), QUrl::FullyDecoded).left(256);
    f.idPrefix = query.queryItemValue(QStringLiteral("id_prefix"), QUrl::FullyDecoded).left(128);
    f.instance = query.queryItemValue(QStringLiteral("instance"), QUrl::FullyDecoded).left(128);
    if (query.hasQueryItem(QStringLiteral("relieved"))) {
        const QString v = query.queryItemValue(QStringLiteral("relieved"), QUrl::FullyDecoded).toLower(); // any case, as every filter
        if (v != u"true" && v != u"false")
            return FieldError { QStringLiteral("relieved"), QStringLiteral("must be true or false") };
        f.fallbackApplied = v == u"true";
    }
    if (query.hasQueryItem(QStringLiteral("failed_attempt"))) {
        const QString v = query.queryItemValue(QStringLiteral("failed_attempt"), QUrl::FullyDecoded);
        f.failedAttempt = HistoryFilter::AttemptScope::fromString(v);
        if (!f.failedAttempt)
            return FieldError { QStringLiteral("failed_attempt"),
                                QStringLiteral("\"%1\" is not provider/role/stage, such as gemini/primary/storyboard").arg(v.left(64)) };
    }
    f.fallbackReason = query.queryItemValue(QStringLiteral("fallback_reason"), QUrl::FullyDecoded).left(128);
    if (query.hasQueryItem(QStringLiteral("synthetic"))) {
        const QString v = query.queryItemValue(QStringLiteral("synthetic"), QUrl::FullyDecoded).toLower();
        const qsizetype at = kSyntheticValues.indexOf(v);
        if (at < 0)
            return FieldError {
                QStringLiteral("synthetic"),
                QStringLiteral("must be %1 (probes are left out by default)").arg(kSyntheticValues.join(QStringLiteral(", ")))
            };
        f.synthetic = static_cast<HistoryFilter::Synthetic>(at);
    }
    f.beforeId = query.queryItemValue(QStringLiteral("before_id"), QUrl::FullyDecoded).left(128);
    return f;
}

QJsonObject HistoryJson::comparison(const ComparisonRow &r)
{
    return QJsonObject { { QStringLiteral("comparison_id"), r.id },
                         { QStringLiteral("created_at_ms"), static_cast<double>(r.createdAtMs) },
                         { QStringLiteral("primary_provider"), r.primaryProvider },
                         { QStringLiteral("fallback_provider"), r.fallbackProvider },
                         { QStringLiteral("body"), r.body } };
}

ComparisonRow HistoryJson::comparisonFromJson(const QJsonObject &o)
{
    return ComparisonRow { o.value(QLatin1StringView("comparison_id")).toString(), o.value(QLatin1StringView("created_at_ms")).toInteger(),
                           o.value(QLatin1StringView("primary_provider")).toString(),
                           o.value(QLatin1StringView("fallback_provider")).toString(), o.value(QLatin1StringView("body")).toObject() };
}

// Compact arrays: a latency chart may carry tens of thousands of samples.
QJsonArray HistoryJson::samples(const QList<LatencySample> &samples)
{
    QJsonArray a;
    for (const LatencySample &s : samples)
        a.append(QJsonArray { static_cast<double>(s.atMs), s.durationMs, s.success });
    return a;
}

QList<LatencySample> HistoryJson::samplesFromJson(const QJsonArray &json)
{
    QList<LatencySample> out;
    out.reserve(json.size());
    for (const QJsonValue &v : json) {
        const QJsonArray s = v.toArray();
        out << LatencySample { s.at(0).toInteger(), s.at(1).toDouble(), s.at(2).toBool() };
    }
    return out;
}

QJsonArray HistoryJson::durationCells(const QList<DurationCell> &cells)
{
    QJsonArray a;
    for (const DurationCell &c : cells)
        a.append(QJsonArray { static_cast<double>(c.startMs), c.success, c.bin, static_cast<double>(c.count) });
    return a;
}

QList<DurationCell> HistoryJson::durationCellsFromJson(const QJsonArray &json)
{
    QList<DurationCell> out;
    out.reserve(json.size());
    for (const QJsonValue &v : json) {
        const QJsonArray c = v.toArray();
        out << DurationCell { c.at(0).toInteger(), c.at(1).toBool(), c.at(2).toInt(), c.at(3).toInteger() };
    }
    return out;
}

QJsonArray HistoryJson::fallbackWaitCells(const QList<FallbackWaitCell> &cells)
{
    QJsonArray a;
    for (const FallbackWaitCell &c : cells)
        a.append(QJsonArray { static_cast<double>(c.startMs), c.primaryProvider, c.fallbackProvider, c.bin, static_cast<double>(c.count) });
    return a;
}

QList<FallbackWaitCell> HistoryJson::fallbackWaitCellsFromJson(const QJsonArray &json)
{
    QList<FallbackWaitCell> out;
    out.reserve(json.size());
    for (const QJsonValue &v : json) {
        const QJsonArray c = v.toArray();
        out << FallbackWaitCell { c.at(0).toInteger(), c.at(1).toString(), c.at(2).toString(), c.at(3).toInt(), c.at(4).toInteger() };
    }
    return out;
}

QJsonArray HistoryJson::rateBuckets(const QList<RateBucket> &buckets)
{
    QJsonArray a;
    for (const RateBucket &b : buckets)
        a.append(QJsonObject { { QStringLiteral("start_ms"), static_cast<double>(b.startMs) },
                               { QStringLiteral("generations"), static_cast<double>(b.generations) },
                               { QStringLiteral("fallbacks"), static_cast<double>(b.fallbacks) } });
    return a;
}

QList<RateBucket> HistoryJson::rateBucketsFromJson(const QJsonArray &json)
{
    QList<RateBucket> out;
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        out << RateBucket { o.value(QLatin1StringView("start_ms")).toInteger(), o.value(QLatin1StringView("generations")).toInteger(),
                            o.value(QLatin1StringView("fallbacks")).toInteger() };
    }
    return out;
}

namespace {

QJsonValue probeJson(const std::optional<ProviderHealth::Probe> &probe)
{
    if (!probe)
        return QJsonValue();
    return QJsonObject { { QStringLiteral("at_ms"), static_cast<double>(probe->atMs) },
                         { QStringLiteral("ok"), probe->ok },
                         { QStringLiteral("kind"), probe->kind ? QJsonValue(enumName(*probe->kind)) : QJsonValue() },
                         { QStringLiteral("duration_ms"), probe->durationMs } };
}

std::optional<ProviderHealth::Probe> probeFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    return ProviderHealth::Probe { o.value(QLatin1StringView("at_ms")).toInteger(), o.value(QLatin1StringView("ok")).toBool(),
                                   enumFromName<FailureKind>(o.value(QLatin1StringView("kind")).toString()),
                                   o.value(QLatin1StringView("duration_ms")).toDouble() };
}

} // namespace

QJsonArray HistoryJson::providerHealth(const QList<ProviderHealth> &health)
{
    QJsonArray a;
    for (const ProviderHealth &h : health)
        a.append(QJsonObject { { QStringLiteral("provider"), toId(h.provider) },
                               { QStringLiteral("role"), toId(h.role) },
                               { QStringLiteral("stage"), toId(h.stage) },
                               { QStringLiteral("attempts"), static_cast<double>(h.attempts) },
                               { QStringLiteral("failures"), static_cast<double>(h.failures) },
                               { QStringLiteral("not_provider"), static_cast<double>(h.notProviders) },
                               { QStringLiteral("top_kind"), h.topKind ? QJsonValue(enumName(*h.topKind)) : QJsonValue() },
                               { QStringLiteral("top_kind_count"), static_cast<double>(h.topKindCount) },
                               { QStringLiteral("primary_failures"), static_cast<double>(h.primaryFailures) },
                               { QStringLiteral("relieved"), static_cast<double>(h.handedToFallback) },
                               { QStringLiteral("p50_ms"), h.p50Ms },
                               { QStringLiteral("p90_ms"), h.p90Ms },
                               { QStringLiteral("last_probe"), probeJson(h.lastProbe) } });
    return a;
}

QList<ProviderHealth> HistoryJson::providerHealthFromJson(const QJsonArray &json)
{
    QList<ProviderHealth> out;
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        const auto provider = providerFromId(o.value(QLatin1StringView("provider")).toString());
        const auto role = roleFromId(o.value(QLatin1StringView("role")).toString());
        const auto stage = stageFromId(o.value(QLatin1StringView("stage")).toString());
        if (!provider || !role || !stage)
            continue; // a provider or stage this console does not know
        ProviderHealth h;
        h.provider = *provider;
        h.role = *role;
        h.stage = *stage;
        const auto n = [&](const char *name) {
            return o.value(QLatin1StringView(name)).toInteger();
        };
        h.attempts = n("attempts");
        h.failures = n("failures");
        h.notProviders = n("not_provider");
        h.topKind = enumFromName<FailureKind>(o.value(QLatin1StringView("top_kind")).toString());
        h.topKindCount = n("top_kind_count");
        h.primaryFailures = n("primary_failures");
        h.handedToFallback = n("relieved");
        h.p50Ms = o.value(QLatin1StringView("p50_ms")).toDouble();
        h.p90Ms = o.value(QLatin1StringView("p90_ms")).toDouble();
        h.lastProbe = probeFromJson(o.value(QLatin1StringView("last_probe")));
        out << h;
    }
    return out;
}

QJsonArray HistoryJson::fallbackWaits(const QList<FallbackWait> &waits)
{
    QJsonArray a;
    for (const FallbackWait &w : waits)
        a.append(QJsonObject { { QStringLiteral("at_ms"), static_cast<double>(w.atMs) },
                               { QStringLiteral("primary_provider"), w.primaryProvider },
                               { QStringLiteral("fallback_provider"), w.fallbackProvider },
                               { QStringLiteral("primary_ms"), w.primaryMs },
                               { QStringLiteral("fallback_ms"), w.fallbackMs },
                               { QStringLiteral("fallback_succeeded"), w.fallbackSucceeded } });
    return a;
}

QList<FallbackWait> HistoryJson::fallbackWaitsFromJson(const QJsonArray &json)
{
    QList<FallbackWait> out;
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        out << FallbackWait { o.value(QLatin1StringView("at_ms")).toInteger(),
                              o.value(QLatin1StringView("primary_provider")).toString(),
                              o.value(QLatin1StringView("fallback_provider")).toString(),
                              o.value(QLatin1StringView("primary_ms")).toDouble(),
                              o.value(QLatin1StringView("fallback_ms")).toDouble(),
                              o.value(QLatin1StringView("fallback_succeeded")).toBool() };
    }
    return out;
}

QJsonArray HistoryJson::counts(const QList<std::pair<QString, qint64>> &counts)
{
    QJsonArray a;
    for (const auto &[key, n] : counts)
        a.append(QJsonObject { { QStringLiteral("key"), key }, { QStringLiteral("count"), static_cast<double>(n) } });
    return a;
}

QList<std::pair<QString, qint64>> HistoryJson::countsFromJson(const QJsonArray &json)
{
    QList<std::pair<QString, qint64>> out;
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        out.append({ o.value(QLatin1StringView("key")).toString(), o.value(QLatin1StringView("count")).toInteger() });
    }
    return out;
}

} // namespace bullpen
