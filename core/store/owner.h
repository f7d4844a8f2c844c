// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// Who holds a running generation in an embedded (SQLite) store: "host/pid/start-ticks". The start
// time tells a live process from a later one that reused the pid. Used to finish, once, as ABANDONED
// the generations whose process is gone (docs/contract.md §4.5, 11.10).
namespace Owner {
QString thisProcess();
// True when `tag` names a process on this host that is still running; false when it is certainly
// gone; a tag from another host is presumed alive (its own engine reconciles it).
bool isAlive(const QString &tag);
} // namespace Owner

} // namespace bullpen
