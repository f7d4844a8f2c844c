// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "replayverdict.h"
#include "tuning/tuner.h"

#include <QString>

namespace bullpen {

// docs/contract.md §17, checked against §14: the tuner's prediction for one generation under a
// candidate, beside a real replay of that generation under the same candidate. They agree when the
// stage's outcome is the same (answered or not, and whether the fallback was called and answered) and
// the stage's latency (its attempts' times summed, as the tuner sums them) is within the replay's
// tolerance of the prediction (ReplayVerdict: 10 % or 50 ms, whichever is larger).
struct ReplayAgreement
{
    bool agrees = false;
    QString difference; // empty when they agree: "outcome: predicted failed, replayed succeeded"

    // What the replay did in `stage`: the same figures the tuner predicts, from the replayed attempts.
    static PredictedGeneration replayed(const ReplayRun &run, Stage stage);
    static ReplayAgreement judge(const PredictedGeneration &predicted, const ReplayRun &run, Stage stage);
};

} // namespace bullpen
