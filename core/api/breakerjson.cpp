// SPDX-License-Identifier: MIT
#include "breakerjson.h"

#include "contract/isotime.h"
#include "contract/providerregistry.h"
#include "wire/breakerrowjson.h"
#include "wire/drainrowjson.h"

#include <QJsonDocument>

namespace bullpen {

namespace {

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

constexpr int kMaxReason = 500;

// The role and stage of a drain or a restore; *refused names a value that is neither.
DrainScope scopeFromJson(const QJsonObject &o, std::optional<FieldError> *refused)
{
    DrainScope scope;
    if (const QJsonValue role = o.value(QLatin1StringView("role")); !role.isUndefined() && !role.isNull()) {
        scope.role = role.isString() ? roleFromId(role.toString()) : std::nullopt;
        if (!scope.role)
            *refused = FieldError { QStringLiteral("role"), QStringLiteral("primary or fallback (leave it out for both)") };
    }
    if (const QJsonValue stage = o.value(QLatin1StringView("stage")); !stage.isUndefined() && !stage.isNull()) {
        scope.stage = stage.isString() ? stageFromId(stage.toString()) : std::nullopt;
        if (!scope.stage && !*refused)
            *refused =
                FieldError { QStringLiteral("stage"), QStringLiteral("storyboard, captions or image (leave it out for every stage)") };
    }
    return scope;
}

} // namespace

std::optional<FieldError> BreakerJson::reasonRefusal(const QString &reason)
{
    if (reason.toUcs4().size() > kMaxReason)
        return FieldError { QStringLiteral("reason"), QStringLiteral("at most %1 characters").arg(kMaxReason) };
    for (qsizetype i = 0; i < reason.size(); ++i) {
        if (reason.at(i).category() == QChar::Other_Control)
            return FieldError { QStringLiteral("reason"),
                                QStringLiteral("must be one line of text without control characters (line breaks, escape sequences, "
                                               "NUL); U+%1 at offset %2")
                                    .arg(reason.at(i).unicode(), 4, 16, QLatin1Char('0'))
                                    .arg(i) };
    }
    return std::nullopt;
}

std::variant<BreakerJson::Restore, FieldError> BreakerJson::restoreFromJson(const QByteArray &body)
{
    Restore out;
    if (body.trimmed().isEmpty())
        return out;
    QJsonParseError perr {};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return FieldError { {},
                            QStringLiteral("the body, if any, is a JSON object such as {\"reason\": \"fixed\", \"role\": \"primary\"}") };
    const QJsonObject o = doc.object();
    static const QStringList known { QStringLiteral("reason"), QStringLiteral("role"), QStringLiteral("stage") };
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            return FieldError { it.key(), QStringLiteral("unknown field; a restore takes reason, role and stage") };
    if (const QJsonValue reason = o.value(QLatin1StringView("reason")); !reason.isUndefined() && !reason.isNull()) {
        if (!reason.isString())
            return FieldError { QStringLiteral("reason"), QStringLiteral("a string: why, for the audit and the other operators") };
        if (std::optional<FieldError> refused = reasonRefusal(reason.toString()))
            return *refused;
        out.reason = reason.toString().trimmed();
    }
    std::optional<FieldError> refused;
    out.scope = scopeFromJson(o, &refused);
    if (refused)
        return *refused;
    return out;
}

std::variant<BreakerJson::Reset, FieldError> BreakerJson::resetFromJson(const QByteArray &body)
{
    auto parsed = restoreFromJson(body); // the same fields, read the same way
    if (const auto *e = std::get_if<FieldError>(&parsed))
        return *e;
    const Restore &r = std::get<Restore>(parsed);
    if (!r.scope.role)
        return FieldError { QStringLiteral("role"), QStringLiteral("required: primary or fallback (a reset is of one breaker)") };
    if (!r.scope.stage)
        return FieldError { QStringLiteral("stage"),
                            QStringLiteral("required: storyboard, captions or image (a reset is of one breaker)") };
    return Reset { *r.scope.role, *r.scope.stage, r.reason };
}

namespace {

QString reasonToSend(const QString &reason)
{
    return reason.trimmed().left(kMaxReason);
}

void insertScope(std::optional<Role> role, std::optional<Stage> stage, QJsonObject *body)
{
    if (role)
        body->insert(QStringLiteral("role"), toId(*role));
    if (stage)
        body->insert(QStringLiteral("stage"), toId(*stage));
}

} // namespace

QJsonObject BreakerJson::drainRequest(const DrainRequest &drain)
{
    QJsonObject body { { QStringLiteral("reason"), reasonToSend(drain.reason) } };
    insertScope(drain.role, drain.stage, &body);
    if (drain.until)
        body.insert(QStringLiteral("until"), drain.until->toUTC().toString(Qt::ISODateWithMs));
    return body;
}

QJsonObject BreakerJson::restoreRequest(const RestoreRequest &restore)
{
    QJsonObject body;
    if (!restore.reason.trimmed().isEmpty())
        body.insert(QStringLiteral("reason"), reasonToSend(restore.reason));
    insertScope(restore.role, restore.stage, &body);
    return body;
}

QJsonObject BreakerJson::resetRequest(const BreakerResetRequest &reset)
{
    return restoreRequest(RestoreRequest { reset.provider, reset.role, reset.stage, reset.reason });
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
        o.insert(QStringLiteral("drain"), DrainRowJson::toJson(*c.drain));
    if (view)
        o.insert(QStringLiteral("breaker"), BreakerRowJson::toJson(*view));
    return o;
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
    if (std::optional<FieldError> refused = reasonRefusal(reason.toString()))
        return *refused;
    d.reason = reason.toString().trimmed();
    std::optional<FieldError> refused;
    const DrainScope scope = scopeFromJson(o, &refused);
    if (refused)
        return *refused;
    d.role = scope.role;
    d.stage = scope.stage;
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
