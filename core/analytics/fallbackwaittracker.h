// SPDX-License-Identifier: MIT
#pragma once

#include "events/event.h"
#include "history/historyreader.h"

#include <QHash>

#include <optional>

namespace bullpen {

// "The extra wait that fallback added", live: joins each fallback attempt of one stage with the time its
// generation's primary attempts of that stage took, from the event stream (the store's fallbackWaits()
// answers the same question for recorded history). Generations that never needed relief are forgotten
// once more than 10,000 are pending.
class FallbackWaitTracker
{
public:
    explicit FallbackWaitTracker(Stage stage = Stage::Storyboard)
        : m_stage(stage)
    {
    }
    void setStage(Stage stage);

    // The wait, when `event` completes a fallback attempt of the stage.
    std::optional<FallbackWait> add(const Event &event);

    // Whether a wait belongs on the chart of `provider` in `role` ("primary": the provider that
    // failed; "fallback": the one that relieved it).
    static bool concerns(const FallbackWait &wait, const QString &provider, const QString &role);

private:
    struct PrimaryTime
    {
        QString provider;
        double ms = 0;
    };
    Stage m_stage;
    QHash<QString, PrimaryTime> m_primaryOf;
};

} // namespace bullpen
