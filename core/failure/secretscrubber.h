// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace bullpen {

// Removes credentials from text a provider sent back before it is recorded, printed or shown
// (docs/contract.md §4.6, 11.9): providers quote the key they were sent in their auth errors. Replaces the
// configured key values wherever they appear, and anything shaped like a credential (`Bearer …`,
// `key=…`, `x-api-key: …`, `sk-…`, `AIza…`, Bullpen's own `bp_…` API tokens and `sim-…` simulator keys), with a `…9f3c` tail, the same form
// the Settings view shows. Control characters become spaces, so terminal escapes in provider text never reach a tty.
namespace SecretScrubber {
QString scrub(const QString &text, const QStringList &secrets = {});
QString tail(QStringView secret); // "…9f3c"
// Control and format characters (ESC/OSC sequences) as spaces, so provider text cannot drive a
// terminal; with keepLineBreaks, \n, \r and \t stay (a quoted CSV cell may hold them).
QString printable(QString text, bool keepLineBreaks = false);
bool isControl(QChar c);
} // namespace SecretScrubber

} // namespace bullpen
