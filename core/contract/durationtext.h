// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// The one way Bullpen says a duration to a person, in the reader's language: "850 ms" under a second,
// "12.5 s" under a minute, "2 min 05 s" from there on (context bullpen::units). The console's views,
// the replay verdict and the CLI's text all use it; records and the API keep milliseconds.
QString durationText(double ms);

} // namespace bullpen
