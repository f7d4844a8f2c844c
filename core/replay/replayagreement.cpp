// SPDX-License-Identifier: MIT
#include "replayagreement.h"

#include <algorithm>
#include <cmath>

namespace bullpen {

namespace {

QString said(bool yes, const char *word, const char *other)
{
    return QLatin1StringView(yes ? word : other);
}

} // namespace

PredictedGeneration ReplayAgreement::replayed(const ReplayRun &run, Stage stage)
{
    PredictedGeneration g;
    for (const RecordedAttempt &a : run.attempts) {
        if (a.stage != stage)
            continue;
        g.ms += a.durationMs;
        g.success = g.success || a.success;
        if (a.role == Role::Fallback) {
            g.fallbackCalled = true;
            g.fallbackAnswered = g.fallbackAnswered || a.success;
        }
    }
    return g;
}

ReplayAgreement ReplayAgreement::judge(const PredictedGeneration &predicted, const ReplayRun &run, Stage stage)
{
    const PredictedGeneration r = replayed(run, stage);
    ReplayAgreement out;
    if (predicted.success != r.success)
        out.difference = QStringLiteral("outcome: predicted %1, replayed %2")
                             .arg(said(predicted.success, "answered", "failed"), said(r.success, "answered", "failed"));
    else if (predicted.fallbackCalled != r.fallbackCalled || predicted.fallbackAnswered != r.fallbackAnswered)
        out.difference = QStringLiteral("fallback: predicted %1, replayed %2")
                             .arg(said(predicted.fallbackCalled, predicted.fallbackAnswered ? "answered" : "called", "not called"),
                                  said(r.fallbackCalled, r.fallbackAnswered ? "answered" : "called", "not called"));
    else if (const double tolerance = std::max(ReplayVerdict::kToleranceFloorMs, ReplayVerdict::kTolerance * predicted.ms);
             std::abs(predicted.ms - r.ms) > tolerance)
        out.difference = QStringLiteral("latency: predicted %1 ms, replayed %2 ms (tolerance %3 ms)")
                             .arg(std::llround(predicted.ms))
                             .arg(std::llround(r.ms))
                             .arg(std::llround(tolerance));
    out.agrees = out.difference.isEmpty();
    return out;
}

} // namespace bullpen
