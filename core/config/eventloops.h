// SPDX-License-Identifier: MIT
#pragma once

namespace bullpen {

// Which event loop Qt gives each thread (docs/architecture.md, "Event loops"). Qt on Linux runs every
// thread's event loop on GLib's main loop unless QT_NO_GLIB or QT_NO_THREADED_GLIB says otherwise. The
// engine's threads and Qt's network threads post to each other for every request and every abort, and
// GLib's loop costs more per wake-up than Qt's own (it writes the wake-up descriptor for every posted
// event; Qt's writes it once until the thread has woken): 200 deadlines due together were aborted
// p99 ~10 ms late on GLib's loops and ~6.7 ms on Qt's own here (bench_engine, alternating runs).
enum class GlibLoops {
    GuiThreadOnly, // the console: desktop integration (a GTK platform theme) wants GLib on the GUI thread
    None,          // headless programs
};

// Call first thing in main(), before the application object and before any thread starts. Leaves the
// choice alone if QT_NO_GLIB or QT_NO_THREADED_GLIB is already set, even to an empty value (so
// `QT_NO_THREADED_GLIB=` keeps GLib everywhere).
void chooseEventLoops(GlibLoops glib);

} // namespace bullpen
