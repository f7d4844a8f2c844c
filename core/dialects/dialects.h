// SPDX-License-Identifier: MIT
#pragma once

#include "dialect.h"

namespace bullpen {

// The dialects this process speaks: the built-ins (dialects.cpp, one line each) and any registered
// beside them before the engine starts (a test's toy dialect). Each is a Dialect; nothing else
// switches on which one a provider speaks.
class Dialects final
{
public:
    static const Dialect &of(WireDialect dialect);
    // Registers `dialect` (which must outlive the process's engines) under its id, and returns the
    // WireDialect a provider's spec names it by. Call it before any engine or simulator runs.
    static WireDialect add(const Dialect &dialect);
};

} // namespace bullpen
