// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// Qt's own log lines that a Bullpen program never passes on: the HTTP server's debug lines, which carry
// whole request URLs (a query string may hold a user id, docs/api.md), and the runtime-directory warning
// every Qt program prints when run by root or from a service ("XDG_RUNTIME_DIR not set"), which says
// nothing an operator can act on.
bool isQtNoise(const char *category, const QString &message);

// Installs a message handler that drops isQtNoise() lines and passes every other one to the handler
// installed before it (Qt's own by default). Call first thing in main(); a later handler (the engine's
// log sink) asks isQtNoise() itself.
void muteQtNoise();

} // namespace bullpen
