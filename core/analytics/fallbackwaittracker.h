// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "history/historyreader.h"

#include <QHash>

#include <optional>

namespace bullpen {

// "The extra wait that fallback added", live: joins each fallback attempt of one stage with the time its
// generation's primary attempts of that stage took, from the event stream (the store's fallbackWaits()
// answers the same question for recorded history). Generations that never needed the fallback are forgotten
// once more than 10,000 are pending.
class FallbackWaitTracker
{
public:
    explicit FallbackWaitTracker(Stage stage = Stage::Storyboard)
        : m_stage(stage)
    {
    }
    void setStage(Stage stage);

    // The wait, when `event` completes a fallback attempt of the stage. A fallback with no primary attempt
    // before it (the primary was skipped: an open breaker or a drain, docs/contract.md §13) added no
    // wait: it is counted in skippedPrimaries() instead of as a zero.
    std::optional<FallbackWait> add(const Event &event);
    int skippedPrimaries() const { return m_skipped; }

    // Whether a wait belongs on the chart of `provider` in `role` ("primary": the provider that
    // failed; "fallback": the one that took over).
    static bool concerns(const FallbackWait &wait, const QString &provider, const QString &role);

private:
    struct PrimaryTime
    {
        QString provider;
        double ms = 0;
    };
    Stage m_stage;
    QHash<QString, PrimaryTime> m_primaryOf;
    int m_skipped = 0;
};

} // namespace bullpen
