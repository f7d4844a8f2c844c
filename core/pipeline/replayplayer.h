// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "pipeline/generationresult.h"

#include <QObject>
#include <QString>

namespace bullpen {

// A replay as a front end starts it (docs/contract.md §14), made by its engine connection
// (EngineConnection::newReplay): the console's replay dialog names the files and the generation, and
// the connection decides where the replay is recorded (embedded: the engine's own history; attached:
// nowhere, the history is the engine's). So a view never holds a store to record into.
class ReplayPlayer : public QObject
{
    Q_OBJECT
public:
    struct Plan
    {
        QString scenarioFile; // ReplayScenario::scenario, written out
        QString settingsFile; // the recorded policy (RecordedPolicy::settingsJson) or edited settings
        QString keyFile; // a file that need not exist: a replay uses no provider key
        QString replayOf; // the generation it plays
    };

    using QObject::QObject;

    // Starts the replay; false with *why when its settings are refused (each setting named).
    virtual bool start(const Plan &plan, QString *why) = 0;
    virtual bool running() const = 0;
    // Whether the replay is written to the history the views read (then its id links the report).
    virtual bool recorded() const = 0;

Q_SIGNALS:
    void eventRecorded(const Event &event);
    // The replay ended; its engine goes at the next turn of the event loop.
    void finished(const GenerationResult &result);
};

} // namespace bullpen
