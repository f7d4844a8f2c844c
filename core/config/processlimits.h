// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

namespace bullpen {

// Every attempt in flight holds a descriptor (its connection to the provider), and the provider's end
// holds another when the provider is the built-in simulator in the same process: a burst of a thousand
// attempts to the simulator is ~2,000. Linux's usual soft limit is 1,024 and its hard limit far higher,
// so every Bullpen process takes what the hard limit allows (EngineSetup::init does; mains that build
// engines another way, and the simulator, call it first).
void raiseOpenFileLimit();
// The open-file limit in force (the soft one); a very large number when there is none.
qint64 openFileLimit();

} // namespace bullpen
