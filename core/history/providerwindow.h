// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace bullpen {

// One provider over a recent window of one engine's attempts, all stages (GET /v1/stats/providers,
// docs/api.md "History and dashboards"): the service's metrics count it (service/servicemetrics.h), the
// statistics' codec carries it (wire/statsjson.h), `bullpen-cli provider list --engine` shows it.
struct ProviderWindow
{
    QString provider; // its id, as the engine names it (one this side does not know stays text)
    qint64 attempts = 0;
    double errorPercent = 0;
    std::optional<QString> topKind; // the most frequent failure kind's name; none without failures
    std::optional<double> reliefPercent; // failed primaries handed to the fallback; none without failed primaries
    double p50Ms = 0;
    double p90Ms = 0;
    friend bool operator==(const ProviderWindow &, const ProviderWindow &) = default;
};

// The whole answer: who answered, when, and the last 5 and 15 minutes (providers with attempts only).
struct ProviderWindows
{
    QString instance;
    qint64 atMs = 0; // the answer's date (Unix ms); the windows themselves run on the monotonic clock
    QList<ProviderWindow> last5m;
    QList<ProviderWindow> last15m;
    friend bool operator==(const ProviderWindows &, const ProviderWindows &) = default;
};

} // namespace bullpen
