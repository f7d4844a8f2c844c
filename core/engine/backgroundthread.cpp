// SPDX-License-Identifier: MIT
#include "backgroundthread.h"

#include <QLoggingCategory>

#include <cerrno>
#include <cstring>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcBackground, "bullpen.threads")

namespace bullpen {

void becomeBackgroundThread(const char *name)
{
    if (name)
        pthread_setname_np(pthread_self(), name);
#ifdef Q_OS_LINUX
    // On Linux a nice value belongs to a thread: PRIO_PROCESS with the thread's own id sets only it.
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kBackgroundNice) != 0)
        qCWarning(lcBackground) << "could not lower this thread's priority:" << strerror(errno);
#endif
}

void startInBackground(QThread &thread)
{
    // `started` is emitted from the new thread itself, before its event loop runs.
    QObject::connect(
        &thread, &QThread::started, &thread, [] { becomeBackgroundThread(); }, Qt::DirectConnection);
    thread.start();
}

int currentThreadNice()
{
#ifdef Q_OS_LINUX
    errno = 0;
    return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
#else
    return 0;
#endif
}

} // namespace bullpen
