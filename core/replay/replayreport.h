// SPDX-License-Identifier: MIT
#pragma once

#include "replaysource.h"
#include "replayverdict.h"

#include <QJsonObject>
#include <QString>

namespace bullpen {

struct GenerationResult;

// docs/contract.md §14: one replay as a bug report, in one JSON document: the scenario, the settings
// it ran under, the verdict, the recorded run with its generation as an export writes it (the user's
// mask, never the id) and the replayed run with its result. Nothing in it is a story, a user id, a key
// or a local path; the replay's own storyboard is the simulator's.
namespace ReplayReport {

inline constexpr int kVersion = 1;

struct Parts
{
    const ReplaySource &source;
    const ReplayScenario &scenario;
    QJsonObject settings; // the settings file the replay ran under
    bool asRecorded = true;
    const ReplayVerdict &verdict;
    const GenerationResult &replayed;
    QString replayId; // where it was kept; empty: not kept
};

QJsonObject build(const Parts &parts);
// Writes it to `path`, mode 0600 from the start, replacing a file there.
bool write(const QString &path, const QJsonObject &report, QString *error);

} // namespace ReplayReport

} // namespace bullpen
