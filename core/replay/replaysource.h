// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"
#include "replayscenario.h"
#include "replayverdict.h"

#include <optional>

namespace bullpen {

struct GenerationResult;

// The replayed side of a verdict: how the replay ended and its attempts, as the engine recorded them.
ReplayRun replayedRun(const GenerationResult &result);

// What the history holds of one generation, read for a replay (docs/contract.md §14): its row, its
// attempts in order, and the policy it ran under.
struct ReplaySource
{
    GenerationRow row;
    QList<RecordedAttempt> attempts;
    std::optional<RecordedPolicy> policy; // from its events, else rebuilt from its row (policyRebuilt says so)
    bool policyRebuilt = false;

    ReplayRun run() const; // the recorded side of the verdict
    // The scenario; a rebuilt policy is named among its approximations.
    ReplayScenario scenario() const;
    // Nothing, with *why, for an unknown id ("no generation …") or an unreadable history.
    static std::optional<ReplaySource> read(HistoryReader &history, const QString &id, QString *why);
};

} // namespace bullpen
