// SPDX-License-Identifier: MIT
#include "owner.h"

#include <QFile>
#include <QSysInfo>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace bullpen::Owner {

namespace {

// Field 22 of /proc/PID/stat: the process's start time in clock ticks after boot.
QString startTicks(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray stat = f.read(4096);
    const qsizetype close = stat.lastIndexOf(')'); // the command name may hold spaces
    if (close < 0)
        return {};
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    return fields.size() > 19 ? QString::fromLatin1(fields.at(19)) : QString();
}

} // namespace

QString thisProcess()
{
    static const QString tag =
        QSysInfo::machineHostName() + QLatin1Char('/') + QString::number(::getpid()) + QLatin1Char('/') + startTicks(::getpid());
    return tag;
}

bool isAlive(const QString &tag)
{
    const QStringList parts = tag.split(QLatin1Char('/'));
    if (parts.size() != 3)
        return false; // not a tag this build writes: nobody can be holding it
    if (parts.at(0) != QSysInfo::machineHostName())
        return true;
    bool ok = false;
    const qint64 pid = parts.at(1).toLongLong(&ok);
    if (!ok || pid <= 0)
        return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        return false;
    return startTicks(pid) == parts.at(2);
}

} // namespace bullpen::Owner
