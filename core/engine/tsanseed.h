// SPDX-License-Identifier: MIT
#pragma once

// A data race seeded on purpose, for ThreadSanitizer's stage to show that it still sees a suite's threads
// through its suppressions and its model of Qt's event queue (scripts/tsan.sh, tests/README.md
// "ThreadSanitizer"). Compiled only where ThreadSanitizer instruments the code (the `tsan` preset); in
// every other build BULLPEN_TSAN_SEED(site) is nothing.
//
// Each site is named at two kinds of places that run on different threads with nothing ordering them:
// one thread writes (BULLPEN_TSAN_SEED or BULLPEN_TSAN_SEED_AWAITED: the caller starting a generation,
// the service publishing an event, an exchange handing a large body to a pool thread) and the others read
// (BULLPEN_TSAN_SEED_READ: the engine threads starting that generation, handing over an event, the pool
// thread parsing that body), so the report
// is between that pair and never between two readers. With BULLPEN_TSAN_SEED=<site> in the environment
// they touch one plain int, which ThreadSanitizer must report; without it they only compare a pointer
// read once.
//
// A report needs the two accesses unordered in the run itself, and a thread that posts again before the
// other takes its first call orders its write before that call's read (the post releases, the delivery
// acquires; tests/support/tsanqueue.cpp), as Qt does. So where the writer goes on posting (a test that
// starts generations in a loop, then cancels them), BULLPEN_TSAN_SEED_AWAITED(site) writes and then,
// once per process, waits up to 2 s until a reader has read, through a relaxed atomic, which orders
// nothing: the pair is then unordered in every run, not in most.
#if defined(__SANITIZE_THREAD__)
#define BULLPEN_TSAN_SEEDS
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BULLPEN_TSAN_SEEDS
#endif
#endif

#ifdef BULLPEN_TSAN_SEEDS
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace bullpen::tsanseed {

inline int racedOn = 0; // deliberately unsynchronised
inline thread_local int lastSeen = 0;
inline std::atomic<bool> readOnce { false }; // relaxed only: it must order nothing
inline std::atomic<bool> awaitedOnce { false };

inline void awaitRead()
{
    if (awaitedOnce.exchange(true, std::memory_order_relaxed))
        return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!readOnce.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
}

inline bool chosen(const char *site)
{
    static const char *const named = std::getenv("BULLPEN_TSAN_SEED");
    return named && std::strcmp(named, site) == 0;
}

} // namespace bullpen::tsanseed

#define BULLPEN_TSAN_SEED(site)                                                                                                            \
    do {                                                                                                                                   \
        if (::bullpen::tsanseed::chosen(site))                                                                                             \
            ++::bullpen::tsanseed::racedOn;                                                                                                \
    } while (false)
#define BULLPEN_TSAN_SEED_READ(site)                                                                                                       \
    do {                                                                                                                                   \
        if (::bullpen::tsanseed::chosen(site)) {                                                                                           \
            ::bullpen::tsanseed::lastSeen = ::bullpen::tsanseed::racedOn;                                                                  \
            ::bullpen::tsanseed::readOnce.store(true, std::memory_order_relaxed);                                                          \
        }                                                                                                                                  \
    } while (false)
#define BULLPEN_TSAN_SEED_AWAITED(site)                                                                                                    \
    do {                                                                                                                                   \
        if (::bullpen::tsanseed::chosen(site)) {                                                                                           \
            ++::bullpen::tsanseed::racedOn;                                                                                                \
            ::bullpen::tsanseed::awaitRead();                                                                                              \
        }                                                                                                                                  \
    } while (false)
#else
#define BULLPEN_TSAN_SEED(site) static_cast<void>(0)
#define BULLPEN_TSAN_SEED_READ(site) static_cast<void>(0)
#define BULLPEN_TSAN_SEED_AWAITED(site) static_cast<void>(0)
#endif
