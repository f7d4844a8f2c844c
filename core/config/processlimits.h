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

// Grows the process's descriptor table now to hold `descriptors` (at most the open-file limit, and at
// most kMaxReservedDescriptors), so that a burst of connections does not grow it on the way. Linux
// grows the table to the next power of two (of 128 slots) that holds the slot asked for and never
// shrinks it, and in a process with threads each growth waits for an RCU grace period (synchronize_rcu
// in expand_fdtable): tens of milliseconds each on a 2-core virtual machine, inside the socket() call of
// whichever attempt needed the next slot. The table is the process's: an engine reserves for itself, and
// two engines in one process share what the larger asked for. Returns the table's size after
// (/proc/self/status, FDSize), or -1 when it cannot be read.
constexpr qint64 kMaxReservedDescriptors = 65'536; // the table costs about 8 bytes per slot
qint64 reserveDescriptorTable(qint64 descriptors);

} // namespace bullpen
