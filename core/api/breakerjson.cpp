// SPDX-License-Identifier: MIT
#include "breakerjson.h"

#include "contract/isotime.h"
#include "contract/providerregistry.h"

#include <QJsonDocument>

namespace bullpen {

namespace {

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

constexpr int kMaxReason = 500;

} // namespace

QJsonObject BreakerJson::breaker(const BreakerView &v)
{
    return QJsonObject {
        { QStringLiteral("provider"), toId(v.key.provider) },
        { QStringLiteral("role"), toId(v.key.role) },
        { QStringLiteral("stage"), toId(v.key.stage) },
        { QStringLiteral("state"), toId(v.state) },
        { QStringLiteral("since"), time(v.since) },
        { QStringLiteral("cooldown_ms"),
          v.state == BreakerState::Closed ? QJsonValue() : QJsonValue(static_cast<double>(v.cooldown.count())) },
        { QStringLiteral("retry_at"), v.retryAt ? time(*v.retryAt) : QJsonValue() },
        { QStringLiteral("window_attempts"), v.attempts },
        { QStringLiteral("window_failures"), v.failures },
        { QStringLiteral("opened"), v.opened },
        { QStringLiteral("reason"), v.reason.isEmpty() ? QJsonValue() : QJsonValue(v.reason) },
    };
}

QJsonObject BreakerJson::drain(const Drain &d)
{
    return QJsonObject {
        { QStringLiteral("provider"), toId(d.provider) },
        { QStringLiteral("role"), d.role ? QJsonValue(toId(*d.role)) : QJsonValue() },
        { QStringLiteral("stage"), d.stage ? QJsonValue(toId(*d.stage)) : QJsonValue() },
        { QStringLiteral("reason"), d.reason },
        { QStringLiteral("by"), d.by },
        { QStringLiteral("since"), time(d.since) },
        { QStringLiteral("until"), d.until ? time(*d.until) : QJsonValue() },
    };
}

QJsonObject BreakerJson::change(const BreakerChange &c, const std::optional<BreakerView> &view, const QString &instance)
{
    QJsonObject o {
        { QStringLiteral("type"), c.type },
        { QStringLiteral("instance"), instance },
        { QStringLiteral("provider"), toId(c.key.provider) },
        { QStringLiteral("role"), c.drain && !c.drain->role ? QJsonValue() : QJsonValue(toId(c.key.role)) },
        { QStringLiteral("stage"), c.drain && !c.drain->stage ? QJsonValue() : QJsonValue(toId(c.key.stage)) },
        { QStringLiteral("at"), time(c.at) },
        { QStringLiteral("reason"), c.reason },
    };
    if (c.drain)
        o.insert(QStringLiteral("drain"), drain(*c.drain));
    if (view)
        o.insert(QStringLiteral("breaker"), breaker(*view));
    return o;
}

QJsonObject BreakerJson::providers(const std::vector<BreakerView> &breakers, const std::vector<Drain> &drains, const QString &instance)
{
    QJsonArray list;
    for (const Provider p : ProviderRegistry::all()) {
        QJsonArray b;
        for (const BreakerView &v : breakers)
            if (v.key.provider == p)
                b.append(breaker(v));
        QJsonArray d;
        for (const Drain &x : drains)
            if (x.provider == p)
                d.append(drain(x));
        list.append(QJsonObject { { QStringLiteral("id"), toId(p) },
                                  { QStringLiteral("instance"), instance },
                                  { QStringLiteral("drained"), !d.isEmpty() },
                                  { QStringLiteral("breakers"), b },
                                  { QStringLiteral("drains"), d } });
    }
    return QJsonObject { { QStringLiteral("providers"), list } };
}

std::variant<Drain, FieldError> BreakerJson::drainFromJson(const QByteArray &body, Provider provider, const QString &by,
                                                           const QDateTime &now)
{
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return FieldError { {}, QStringLiteral("the body must be a JSON object such as {\"reason\": \"provider outage, ticket 123\"}") };
    const QJsonObject o = doc.object();
    static const QStringList known { QStringLiteral("reason"), QStringLiteral("role"), QStringLiteral("stage"), QStringLiteral("until") };
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            return FieldError { it.key(), QStringLiteral("unknown field; a drain takes reason, role, stage and until") };
    Drain d;
    d.provider = provider;
    d.by = by;
    d.since = now;
    const QJsonValue reason = o.value(QLatin1StringView("reason"));
    if (!reason.isString() || reason.toString().trimmed().isEmpty())
        return FieldError { QStringLiteral("reason"), QStringLiteral("required: say why, for the audit and the other operators") };
    if (reason.toString().size() > kMaxReason)
        return FieldError { QStringLiteral("reason"), QStringLiteral("at most %1 characters").arg(kMaxReason) };
    d.reason = reason.toString().trimmed();
    if (const QJsonValue role = o.value(QLatin1StringView("role")); !role.isUndefined() && !role.isNull()) {
        const auto r = role.isString() ? roleFromId(role.toString()) : std::nullopt;
        if (!r)
            return FieldError { QStringLiteral("role"), QStringLiteral("primary or fallback (leave it out for both)") };
        d.role = r;
    }
    if (const QJsonValue stage = o.value(QLatin1StringView("stage")); !stage.isUndefined() && !stage.isNull()) {
        const auto s = stage.isString() ? stageFromId(stage.toString()) : std::nullopt;
        if (!s)
            return FieldError { QStringLiteral("stage"), QStringLiteral("storyboard, captions or image (leave it out for every stage)") };
        d.stage = s;
    }
    if (const QJsonValue until = o.value(QLatin1StringView("until")); !until.isUndefined() && !until.isNull()) {
        const QDateTime t = until.isString() ? QDateTime::fromString(until.toString(), Qt::ISODateWithMs) : QDateTime();
        if (!t.isValid() || t.timeSpec() == Qt::LocalTime)
            return FieldError { QStringLiteral("until"), QStringLiteral("an ISO 8601 time with its zone, e.g. 2026-12-03T14:00:00Z") };
        if (t <= now)
            return FieldError { QStringLiteral("until"), QStringLiteral("must be in the future") };
        d.until = t.toUTC();
    }
    return d;
}

} // namespace bullpen
