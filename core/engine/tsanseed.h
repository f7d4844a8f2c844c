// SPDX-License-Identifier: MIT
#pragma once

// A data race seeded on purpose, for ThreadSanitizer's stage to show that it still sees a suite's threads
// through its suppressions and its model of Qt's event queue (scripts/tsan.sh, tests/README.md
// "ThreadSanitizer"). Compiled only where ThreadSanitizer instruments the code (the `tsan` preset); in
// every other build BULLPEN_TSAN_SEED(site) is nothing.
//
// Each site is named at two places that run on different threads with nothing ordering them (for
// example the egress guard's relay thread accepting a connection, and the caller routing the next
// request). With BULLPEN_TSAN_SEED=<site> in the environment both places increment one plain int, which
// ThreadSanitizer must report; without it they only compare a pointer read once.
#if defined(__SANITIZE_THREAD__)
#define BULLPEN_TSAN_SEEDS
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BULLPEN_TSAN_SEEDS
#endif
#endif

#ifdef BULLPEN_TSAN_SEEDS
#include <cstdlib>
#include <cstring>

namespace bullpen::tsanseed {

inline int racedOn = 0; // deliberately unsynchronised

inline void touch(const char *site)
{
    static const char *const chosen = std::getenv("BULLPEN_TSAN_SEED");
    if (chosen && std::strcmp(chosen, site) == 0)
        ++racedOn;
}

} // namespace bullpen::tsanseed

#define BULLPEN_TSAN_SEED(site) ::bullpen::tsanseed::touch(site)
#else
#define BULLPEN_TSAN_SEED(site) static_cast<void>(0)
#endif
