// SPDX-License-Identifier: MIT
#include "historyjson.h"

#include "contract/providerregistry.h"
#include "wire/statsquery.h"

#include <QFileInfo>
#include <QJsonValue>
#include <QMetaEnum>

namespace bullpen {

namespace {

// The filter's parameters; those a statistic takes too are named by the statistics' table.
const QStringList kFilterFields { StatsQuery::name(StatsParam::FromMs),
                                  StatsQuery::name(StatsParam::ToMs),
                                  QStringLiteral("state"),
                                  QStringLiteral("code"),
                                  QStringLiteral("kind"),
                                  StatsQuery::name(StatsParam::Stage),
                                  StatsQuery::name(StatsParam::Provider),
                                  QStringLiteral("user"),
                                  QStringLiteral("relieved"),
                                  QStringLiteral("before_ms"),
                                  QStringLiteral("before_id"),
                                  QStringLiteral("instance"),
                                  QStringLiteral("user_id"),
                                  QStringLiteral("id_prefix"),
                                  QStringLiteral("failed_attempt"),
                                  QStringLiteral("fallback_reason"),
                                  QStringLiteral("synthetic") };

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

std::variant<std::optional<Provider>, FieldError> HistoryJson::providerValue(const QUrlQuery &query, const QString &name,
                                                                             const ProviderTable &providers)
{
    if (!query.hasQueryItem(name))
        return std::optional<Provider>();
    const QString given = query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    if (const std::optional<Provider> p = providerFromId(given))
        return std::optional<Provider>(*p);
    return FieldError { name, QStringLiteral("\"%1\" is not one of %2").arg(given.left(64), providers.idList()) };
}

template std::variant<std::optional<Role>, FieldError> HistoryJson::enumValue<Role>(const QUrlQuery &, const QString &);
template std::variant<std::optional<Stage>, FieldError> HistoryJson::enumValue<Stage>(const QUrlQuery &, const QString &);

QUrlQuery HistoryJson::filterQuery(const HistoryFilter &f)
{
    QUrlQuery q;
    const auto put = [&](const QString &name, const QString &value) {
        q.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(value)));
    };
    if (f.fromMs)
        put(StatsQuery::name(StatsParam::FromMs), QString::number(*f.fromMs));
    if (f.toMs)
        put(StatsQuery::name(StatsParam::ToMs), QString::number(*f.toMs));
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
        put(StatsQuery::name(StatsParam::Stage), toId(*f.stage));
    if (f.provider)
        put(StatsQuery::name(StatsParam::Provider), toId(*f.provider));
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

std::variant<HistoryFilter, FieldError> HistoryJson::filterFromQuery(const QUrlQuery &query, const QStringList &extra,
                                                                     const ProviderTable &providers)
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
    for (const auto &[name, into] :
         { std::pair { StatsQuery::name(StatsParam::FromMs), &f.fromMs }, std::pair { StatsQuery::name(StatsParam::ToMs), &f.toMs },
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
    if (auto e = pick(StatsQuery::name(StatsParam::Stage), &f.stage))
        return *e;
    {
        auto v = providerValue(query, StatsQuery::name(StatsParam::Provider), providers);
        if (auto *e = std::get_if<FieldError>(&v))
            return *e;
        f.provider = std::get<std::optional<Provider>>(v);
    }
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

} // namespace bullpen
