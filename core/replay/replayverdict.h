// SPDX-License-Identifier: MIT
#pragma once

#include "replayscenario.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace bullpen {

// One side of a replay's comparison: how a generation ended and its attempts in order.
struct ReplayRun
{
    QString state; // "succeeded", "failed", "cancelled"
    bool fallbackApplied = false;
    QString fallbackReason;
    double elapsedMs = 0;
    QList<RecordedAttempt> attempts;

    QJsonObject toJson() const;
    // What toJson() wrote (`bullpen-cli replay --json`'s "recorded" and "replayed"); attempts it cannot
    // read are left out.
    static ReplayRun fromJson(const QJsonObject &json);
};

// docs/contract.md §14: *reproduced* when the replay has the same outcome, the same attempts in order
// (provider, role, kind), the same fallback decision, and every attempt's duration within 10 % or
// 50 ms of the recorded one, whichever is larger. Otherwise each difference, in words.
struct ReplayVerdict
{
    bool reproduced = false;
    QStringList differences;
    QString summary; // one line: "reproduced" or "differs: …"; under other settings, the difference they made

    // `approximate`: attempts the scenario could not play exactly (ReplayScenario::approximate); their
    // kinds are compared, their durations are not.
    static ReplayVerdict judge(const ReplayRun &recorded, const ReplayRun &replayed, bool sameSettings,
                               const QList<qsizetype> &approximate = {});
    static constexpr double kTolerance = 0.10;
    static constexpr double kToleranceFloorMs = 50.0;
    QJsonObject toJson() const;
};

// Both timelines as text, on one scale: a row per attempt, a bar from its start to its end.
QString replayTimelines(const ReplayRun &recorded, const ReplayRun &replayed, int width = 60);

} // namespace bullpen
