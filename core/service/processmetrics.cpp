// SPDX-License-Identifier: MIT
#include "processmetrics.h"

#include <QDir>
#include <QFile>
#include <QList>

#include <optional>
#include <sys/resource.h>
#include <unistd.h>

namespace bullpen {

namespace {

QByteArray readProc(const char *path)
{
    QFile f(QString::fromLatin1(path));
    return f.open(QIODevice::ReadOnly) ? f.read(64 * 1024) : QByteArray();
}

// /proc/self/stat's fields after the command name (which may hold spaces and parentheses): field 3 on.
QList<QByteArray> statFields()
{
    const QByteArray stat = readProc("/proc/self/stat");
    const qsizetype close = stat.lastIndexOf(')');
    return close < 0 ? QList<QByteArray>() : stat.mid(close + 2).trimmed().split(' ');
}

std::optional<double> bootTimeSeconds()
{
    for (const QByteArray &line : readProc("/proc/stat").split('\n')) {
        if (line.startsWith("btime "))
            return line.mid(6).trimmed().toDouble();
    }
    return std::nullopt;
}

void metric(QByteArray &out, const char *name, const char *type, const char *help, double value)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n' + name + ' '
        + QByteArray::number(value, 'g', 15) + '\n';
}

} // namespace

QByteArray processMetrics()
{
    QByteArray out;
    const QList<QByteArray> f = statFields(); // f[0] is stat's field 3 (state)
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
    if (f.size() > 21 && ticks > 0) {
        metric(out, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
               (f.at(11).toDouble() + f.at(12).toDouble()) / ticks); // utime, stime (fields 14, 15)
        if (const auto boot = bootTimeSeconds())
            metric(out, "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
                   *boot + f.at(19).toDouble() / ticks); // starttime (field 22), in ticks since boot
        metric(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", f.at(20).toDouble()); // vsize (23)
        metric(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", f.at(21).toDouble() * page); // rss (24)
    }
    const qsizetype fds = QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System).size();
    if (fds > 0)
        metric(out, "process_open_fds", "gauge", "Number of open file descriptors.", static_cast<double>(fds));
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        metric(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.", static_cast<double>(limit.rlim_cur));
    return out;
}

} // namespace bullpen
