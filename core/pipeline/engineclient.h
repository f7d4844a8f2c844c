// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"
#include "pipeline/generationrequest.h"
#include "pipeline/generationresult.h"

#include <QObject>

namespace bullpen {

// The engine as a front end sees it (docs/architecture.md): start a generation, cancel it, and hear its
// events and its final result. Each request carries what it needs (its storyboard policy when it
// differs from the engine's settings); nothing here changes the engine for other requests. The
// in-process engine is LocalEngine; a remote one implements the same interface.
class EngineClient : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Returns the generation id (the request's own, or a new one) at once; everything else arrives
    // through the signals, in order: every event of a generation before its result.
    virtual QString start(const GenerationRequest &request) = 0;
    // False when no generation with this id is running here.
    virtual bool cancel(const QString &generationId) = 0;
    virtual int activeCount() const = 0;

Q_SIGNALS:
    void eventRecorded(const bullpen::Event &event);
    void finished(const bullpen::GenerationResult &result);
};

} // namespace bullpen
