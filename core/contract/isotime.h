// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// "2026-12-02T01:52:55.123Z": the same text as QDateTime::toString(Qt::ISODateWithMs) for a UTC time,
// made without Qt's locale and time-zone machinery, which costs more than the rest of an event's JSON
// (every event and every log line carries one). Years outside 0000–9999 go through Qt.
QString isoUtcWithMs(qint64 msSinceEpoch);

} // namespace bullpen
