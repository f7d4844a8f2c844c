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

QString clock(const QJsonValue &iso)
{
    const QDateTime t = time(iso);
    return t.isValid() ? QLocale().toString(t.toLocalTime().time(), QStringLiteral("HH:mm:ss")) : QString();
}

QString minutes(const QJsonValue &iso)
{
    const QDateTime t = time(iso);
    return t.isValid() ? QLocale().toString(t.toLocalTime().time(), QStringLiteral("HH:mm")) : QString();
}

QString dateTime(const QJsonValue &iso)
{
    const QDateTime t = time(iso);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

QString role(const QJsonValue &id)
{
    if (const auto r = roleFromId(id.toString()))
        return words::role(*r);
    return id.isString() ? id.toString() : QCoreApplication::translate("bullpen::ControlView", "every role");
}

QString targetKey(const QJsonObject &row)
{
    return row.value(QLatin1StringView("provider")).toString() + QLatin1Char('/') + row.value(QLatin1StringView("role")).toString()
        + QLatin1Char('/') + row.value(QLatin1StringView("stage")).toString();
}

QString stage(const QJsonValue &id)
{
    if (const auto s = stageFromId(id.toString()))
        return words::stage(*s);
    return id.isString() ? id.toString() : QCoreApplication::translate("bullpen::ControlView", "every stage");
}

QString remaining(const QJsonValue &until, const QDateTime &now)
{
    const QDateTime end = time(until);
    if (!end.isValid())
        return QCoreApplication::translate("bullpen::ControlView", "until restored");
    const qint64 ms = now.msecsTo(end);
    if (ms <= 0)
        return QCoreApplication::translate("bullpen::ControlView", "ending");
    return durationText(double(ms / 1000 * 1000)); // whole seconds: it ticks once a second
}

} // namespace bullpen::controltext
