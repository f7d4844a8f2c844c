// SPDX-License-Identifier: MIT
#pragma once

#include "breakerboard.h"

#include <QString>

#include <chrono>
#include <functional>
#include <vector>

namespace bullpen {

// What an engine knows about itself at one evaluation (docs/operations.md, "Alerts").
struct AlertFacts
{
    std::vector<BreakerView> breakers;
    std::vector<Drain> drains;
    bool storeReachable = true;
};

// One series of a rule as the engine sees it now: its labels ("gemini/primary/storyboard", "gemini", ""),
// its value (the metric's: a breaker's bullpen_breaker_state, 1 for a drain or an unreachable store) and
// whether the rule's condition holds on it. A series reported with `holds` false (a breaker seen closed:
// its state is 0) is the latest sample saying "no", and ends the series' alert at once.
struct AlertSample
{
    QString labels;
    double value = 0;
    bool holds = true;
};

// The shipped Prometheus rules (resources/monitoring/bullpen-alerts.yml) as the engine evaluates them:
// one row per rule, with the same name, severity, `for` and runbook; tst_alertboard checks the table
// against the file, so the two cannot drift. `hold` is the rule's last_over_time window. In Prometheus
// it bridges missed scrapes: last_over_time takes the latest sample in the window, so a breaker that
// closed 30 s ago reads 0 at the next evaluation and the alert ends. Here a series the engine no longer
// reports at all (its provider gone from the settings) stays active `hold` after it was last seen; one
// reported as not holding ends at once. A rule the engine cannot evaluate about itself
// (its own absence, the fleet's fallback rate) has no `active` and says why in `elsewhere`.
struct AlertRule
{
    const char *name;
    const char *severity;
    std::chrono::seconds forDuration;
    std::chrono::seconds hold;
    std::function<std::vector<AlertSample>(const AlertFacts &)> active;
    const char *elsewhere = nullptr;
    QString runbookUrl() const; // docs/operations.md#<name in lower case>
};

const std::vector<AlertRule> &alertRules();

} // namespace bullpen
