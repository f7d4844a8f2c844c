// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

namespace bullpen {

// This process's own figures under the names Prometheus' client libraries give them (the "process
// collector"): CPU seconds, resident and virtual memory, open and maximum file descriptors, start time.
// Read from /proc at each scrape; a figure the system does not give is left out, never made up.
QByteArray processMetrics();

} // namespace bullpen
