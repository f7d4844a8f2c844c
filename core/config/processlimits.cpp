// SPDX-License-Identifier: MIT
#include "processlimits.h"

#include <QFile>
#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcLimits, "bullpen.limits")

namespace bullpen {

void raiseOpenFileLimit()
{
    rlimit lim {};
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
            const int error = errno;
            qCWarning(lcLimits) << "could not raise the open-file limit:" << qt_error_string(error);
        }
    }
}

qint64 openFileLimit()
{
    rlimit lim {};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return qint64(1) << 40;
    return static_cast<qint64>(lim.rlim_cur);
}

namespace {

qint64 descriptorTableSize()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine()) {
        if (line.startsWith("FDSize:"))
            return line.mid(7).trimmed().toLongLong();
    }
    return -1;
}

} // namespace

qint64 reserveDescriptorTable(qint64 descriptors)
{
    const qint64 wanted = std::min({ descriptors, openFileLimit(), kMaxReservedDescriptors });
    const qint64 before = descriptorTableSize();
    if (wanted <= 0 || before >= wanted)
        return before;
    // A descriptor placed at the highest slot wanted makes the kernel grow the table once, to the next
    // size that holds it; closing it leaves the table as grown.
    const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (probe < 0) {
        const int error = errno;
        qCWarning(lcLimits) << "could not reserve the descriptor table:" << qt_error_string(error);
        return before;
    }
    const int high = ::fcntl(probe, F_DUPFD_CLOEXEC, static_cast<int>(wanted - 1)); // wanted <= 65,536
    if (high < 0) {
        const int error = errno;
        qCWarning(lcLimits) << "could not reserve a descriptor table of" << wanted << "slots:" << qt_error_string(error);
    } else {
        ::close(high);
    }
    ::close(probe);
    return descriptorTableSize();
}

} // namespace bullpen
