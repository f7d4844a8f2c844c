// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

namespace bullpen {

// Every attempt in flight holds up to four descriptors (Qt's socket, both ends of the egress guard's
// relay, the guard's socket to the provider): 256 in flight per provider is ~1,000. Linux's usual soft
// limit is 1,024 and its hard limit far higher, so every Bullpen process takes what the hard limit
// allows (EngineSetup::init does; mains that build engines another way, and the simulator, call it
// first).
void raiseOpenFileLimit();
// The open-file limit in force (the soft one); a very large number when there is none.
qint64 openFileLimit();

} // namespace bullpen
