// SPDX-License-Identifier: MIT
#pragma once

#include <QThread>

namespace bullpen {

// The threads that keep history (the store's writer and its WAL checkpointer, the audit trail, the
// relay of a shared store's events, the threads that read history for the API and the console, the
// thread that hashes and writes comics) run below the engine's threads, kBackgroundNice above the
// process's own nice. When the cores are busy, an engine thread whose deadline fires takes a core
// from them at once instead of waiting out their turn: a writer committing a burst's records once held
// a core for 2.8 ms while a deadline waited behind it (docs/contract.md 4.8). At +10 such a thread still
// gets about a tenth of a core that normal threads are using, and every idle core; its queue takes up
// the slack. Lowering a thread's priority needs no privilege; raising it back would, so a thread once
// lowered stays so (and a thread it starts inherits it).
inline constexpr int kBackgroundNice = 10;

// The nice value background threads take: the process's own plus kBackgroundNice, at most 19.
int backgroundNice();

// Lowers the calling thread's priority to backgroundNice() unless it is that low already and, if
// `name` is given, names it (at most 15 bytes: a std::thread's name in `top -H` and /proc). Linux only;
// elsewhere it does nothing.
void becomeBackgroundThread(const char *name = nullptr);

// Starts `thread` as a background thread: lowered as it starts, before it runs any event.
void startInBackground(QThread &thread);

// The calling thread's nice value (tests and diagnostics).
int currentThreadNice();

} // namespace bullpen
