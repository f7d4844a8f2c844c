// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen::words {

// A generation's state as the reader's language says it ("failed" → "실패"); records and the API keep
// the id. An id this build does not know is shown as it is.
QString state(const QString &id);

} // namespace bullpen::words
