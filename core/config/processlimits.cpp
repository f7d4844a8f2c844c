// SPDX-License-Identifier: MIT
#include "processlimits.h"

#include <QLoggingCategory>

#include <cerrno>
#include <sys/resource.h>

Q_LOGGING_CATEGORY(lcLimits, "bullpen.limits")

namespace bullpen {

void raiseOpenFileLimit()
{
    rlimit lim {};
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
            qCWarning(lcLimits) << "could not raise the open-file limit:" << qt_error_string(errno);
    }
}

qint64 openFileLimit()
{
    rlimit lim {};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return qint64(1) << 40;
    return static_cast<qint64>(lim.rlim_cur);
}

} // namespace bullpen
