// SPDX-License-Identifier: MIT
#include "controltext.h"

#include "contract/durationtext.h"
#include "contract/enums.h"
#include "words.h"

#include <QCoreApplication>
#include <QLocale>

namespace bullpen::controltext {

QDateTime time(const QJsonValue &iso)
{
    return iso.isString() ? QDateTime::fromString(iso.toString(), Qt::ISODateWithMs) : QDateTime();
}

QString clock(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime().time(), QStringLiteral("HH:mm:ss")) : QString();
}

QString clock(const QJsonValue &iso)
{
    return clock(time(iso));
}

QString minutes(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime().time(), QStringLiteral("HH:mm")) : QString();
}

QString minutes(const QJsonValue &iso)
{
    return minutes(time(iso));
}

QString dateTime(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

QString dateTime(const QJsonValue &iso)
{
    return dateTime(time(iso));
}

QString role(std::optional<Role> r)
{
    return r ? words::role(*r) : QCoreApplication::translate("bullpen::ControlView", "every role");
}

QString role(const QJsonValue &id)
{
    if (const auto r = roleFromId(id.toString()))
        return role(r);
    return id.isString() ? id.toString() : role(std::optional<Role>());
}

QString targetKey(const QJsonObject &row)
{
    return row.value(QLatin1StringView("provider")).toString() + QLatin1Char('/') + row.value(QLatin1StringView("role")).toString()
        + QLatin1Char('/') + row.value(QLatin1StringView("stage")).toString();
}

QString stage(std::optional<Stage> s)
{
    return s ? words::stage(*s) : QCoreApplication::translate("bullpen::ControlView", "every stage");
}

QString stage(const QJsonValue &id)
{
    if (const auto s = stageFromId(id.toString()))
        return stage(s);
    return id.isString() ? id.toString() : stage(std::optional<Stage>());
}

QString remaining(const QJsonValue &until, const QDateTime &now)
{
    const QDateTime end = time(until);
    return remaining(end.isValid() ? std::optional(end) : std::nullopt, now);
}

QString remaining(const std::optional<QDateTime> &until, const QDateTime &now)
{
    if (!until || !until->isValid())
        return QCoreApplication::translate("bullpen::ControlView", "until restored");
    const QDateTime &end = *until;
    const qint64 ms = now.msecsTo(end);
    if (ms <= 0)
        return QCoreApplication::translate("bullpen::ControlView", "ending");
    return durationText(double(ms / 1000 * 1000)); // whole seconds: it ticks once a second
}

} // namespace bullpen::controltext
