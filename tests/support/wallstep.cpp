// SPDX-License-Identifier: MIT
// An LD_PRELOAD shim for tst_wall_clock_step: moves the process's wall clock (CLOCK_REALTIME through
// clock_gettime, gettimeofday and time) by the whole seconds written in the file $BULLPEN_WALLSTEP_FILE,
// read again at most every 50 ms. The monotonic clock and every sleep and timeout stay untouched, as
// when NTP steps the time. (libfaketime was tried first: with the monotonic clock left real, its sleep
// and poll wrappers fail with EINVAL after a step, which stalls any program, so it cannot tell a bug.)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>
#include <sys/time.h>

namespace {

using clock_gettime_fn = int (*)(clockid_t, struct timespec *);

clock_gettime_fn realClockGettime()
{
    static clock_gettime_fn real;
    if (!real)
        real = reinterpret_cast<clock_gettime_fn>(dlsym(RTLD_NEXT, "clock_gettime"));
    return real;
}

long long offsetSeconds()
{
    static long long offset;
    static struct timespec read_at;
    struct timespec now
    {
    };
    realClockGettime()(CLOCK_MONOTONIC, &now);
    const long long since_ms = (now.tv_sec - read_at.tv_sec) * 1000LL + (now.tv_nsec - read_at.tv_nsec) / 1000000;
    if (read_at.tv_sec != 0 && since_ms < 50)
        return offset;
    read_at = now;
    const char *path = std::getenv("BULLPEN_WALLSTEP_FILE");
    FILE *f = path ? std::fopen(path, "r") : nullptr;
    if (f) {
        long long value = 0;
        if (std::fscanf(f, "%lld", &value) == 1)
            offset = value;
        std::fclose(f);
    }
    return offset;
}

} // namespace

extern "C" int clock_gettime(clockid_t clock, struct timespec *tp) noexcept
{
    const int rc = realClockGettime()(clock, tp);
    if (rc == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE))
        tp->tv_sec += offsetSeconds();
    return rc;
}

extern "C" int gettimeofday(struct timeval *__restrict tv, void *__restrict) noexcept
{
    struct timespec ts
    {
    };
    const int rc = clock_gettime(CLOCK_REALTIME, &ts);
    if (rc == 0) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    return rc;
}

extern "C" time_t time(time_t *t) noexcept
{
    struct timespec ts
    {
    };
    clock_gettime(CLOCK_REALTIME, &ts);
    if (t)
        *t = ts.tv_sec;
    return ts.tv_sec;
}
