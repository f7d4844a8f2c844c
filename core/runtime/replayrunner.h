// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/replayplayer.h"

#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace bullpen {

class EngineSetup;
class Masking;
class Store;

// Plays a replay scenario (docs/contract.md §14) in an engine of its own on the built-in simulator: a
// neutral story, no user, never from the cache. With a store, the replay is recorded there as a
// synthetic generation linked to the one it plays (left out of users' figures); without, nothing is
// written. The CLI, the console's replay dialog and the tests all run replays through this.
class ReplayRunner final : public ReplayPlayer
{
    Q_OBJECT
public:
    struct Options
    {
        QString scenarioFile; // ReplayScenario::scenario, written out
        QString settingsFile; // the recorded policy (RecordedPolicy::settingsJson) or edited settings
        QString keyFile; // a file that need not exist: a replay uses no provider key
        QString replayOf; // the generation it plays
        Store *into = nullptr; // another engine's store, which must outlive the replay; none: nothing written
        const Masking *masking = nullptr; // that store's
    };

    explicit ReplayRunner(QObject *parent = nullptr);
    // A player for front ends (EngineConnection::newReplay): its replays are recorded into `into`
    // (none: nothing written), which must outlive it.
    ReplayRunner(Store *into, const Masking *masking, QObject *parent);
    ~ReplayRunner() override;

    // Starts the replay; false with *why when its settings are refused (each setting named).
    bool start(const Options &options, QString *why);
    // The same, recorded where this player was made to record.
    bool start(const Plan &plan, QString *why) override;
    bool running() const override { return m_setup != nullptr; }
    bool recorded() const override { return m_into != nullptr; }
    // The replay from start to end on a local event loop; nothing, with *why, when refused or when it
    // has not ended within `limit`.
    static std::optional<GenerationResult> play(const Options &options, std::chrono::milliseconds limit, QString *why);

private:
    std::unique_ptr<EngineSetup> m_setup;
    Store *m_into = nullptr;
    const Masking *m_masking = nullptr;
};

} // namespace bullpen
