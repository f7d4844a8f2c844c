// SPDX-License-Identifier: MIT
#include "backgroundthread.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef Q_OS_LINUX
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

Q_LOGGING_CATEGORY(lcBackground, "bullpen.threads")

namespace bullpen {

#ifdef Q_OS_LINUX

int backgroundNice()
{
    // Relative to the process's own nice (its main thread's), so that an engine started with `nice` or
    // systemd's Nice= keeps the same distance, and never above 19.
    errno = 0;
    const int process = getpriority(PRIO_PROCESS, static_cast<id_t>(getpid()));
    return std::min(19, (errno ? 0 : process) + kBackgroundNice);
}

void becomeBackgroundThread(const char *name)
{
    if (name)
        pthread_setname_np(pthread_self(), name);
    // On Linux a nice value belongs to a thread: PRIO_PROCESS with the thread's own id sets only it.
    // A thread already that low (a pool thread lowered by an earlier task, a thread started by a
    // background thread, which inherits its nice) is left alone.
    const int target = backgroundNice();
    if (currentThreadNice() >= target)
        return;
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), target) != 0)
        qCDebug(lcBackground) << "could not lower this thread's priority:" << strerror(errno);
}

int currentThreadNice()
{
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    return errno ? 0 : nice;
}

#else

int backgroundNice()
{
    return 0;
}
void becomeBackgroundThread(const char *) { }
int currentThreadNice()
{
    return 0;
}

#endif

void startInBackground(QThread &thread)
{
    // `started` is emitted from the new thread itself, before its event loop runs.
    QObject::connect(
        &thread, &QThread::started, &thread, [] { becomeBackgroundThread(); }, Qt::DirectConnection);
    thread.start();
}

} // namespace bullpen
