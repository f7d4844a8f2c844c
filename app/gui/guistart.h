// SPDX-License-Identifier: MIT
#pragma once
// The start of a console process, shared by `bullpen` and `bullpen-tour` (which is the console shooting
// its own views): what must happen before the QApplication exists, and the names it goes by after.

namespace bullpen {

// Before QApplication: GLib's event loops on the GUI thread only (config/eventloops.h), Qt's noise muted
// (config/qtnoise.h), and offscreen drawing when there is no display at all (a CI machine, ssh) rather
// than a failure to start.
void prepareConsoleProcess();

// After QApplication: the console's names (its settings and translations are found by them) and version.
void nameConsoleApplication();

} // namespace bullpen
