// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <chrono>

namespace bullpen::units {

// The one way the console says a duration, in the reader's language: "850 ms" under a second,
// "12.5 s" under a minute, "2 min 05 s" from there on. Charts' axes keep one unit per axis.
QString duration(double ms);
inline QString duration(std::chrono::microseconds us)
{
    return duration(static_cast<double>(us.count()) / 1000.0);
}
inline QString duration(std::chrono::milliseconds d)
{
    return duration(static_cast<double>(d.count()));
}

// An axis says its ticks in one unit, chosen from the largest value on it (step: the distance between
// ticks, for the decimals): "0 ms, 200 ms, 400 ms", "0 s, 0.5 s, 1.0 s", "0 min, 1 min, 2 min" — never
// "0 ms … 1.0 s … 1 min 00 s" on one axis.
QString onAxis(double ms, double maxMs, double stepMs);

// A duration as a field shows it, and as every duration field takes it back (parseDuration): "60 s",
// "2.5 s", "250 ms", "1234 ms"; the same unit words in every language, as typed. Empty for zero.
QString field(std::chrono::milliseconds d);

} // namespace bullpen::units
