// SPDX-License-Identifier: MIT
#pragma once

namespace bullpen {

// Which event loop Qt gives each thread (docs/architecture.md, "Event loops"). Qt on Linux runs every
// thread's event loop on GLib's main loop unless QT_NO_GLIB or QT_NO_THREADED_GLIB says otherwise. The
// engine's threads and Qt's network threads post to each other for every https:// request and abort, and
// GLib's loop costs more per wake-up than Qt's own (it writes the wake-up descriptor for every posted
// event; Qt's writes it once until the thread has woken). Measured on 2 cores: 200 deadlines due within
// 2 ms on one engine thread were aborted p99 10.0 ms late on GLib's loops and 6.7 ms on Qt's (medians
// of six alternating bench_engine runs); on two engine threads the difference was within the noise.
enum class GlibLoops {
    GuiThreadOnly, // the console: desktop integration (a GTK platform theme) wants GLib on the GUI thread
    None, // headless programs
};

// Call first thing in main(), before the application object and before any thread starts. Leaves the
// choice alone if QT_NO_GLIB or QT_NO_THREADED_GLIB is already set, even to an empty value (so
// `QT_NO_THREADED_GLIB=` keeps GLib everywhere).
void chooseEventLoops(GlibLoops glib);

} // namespace bullpen
