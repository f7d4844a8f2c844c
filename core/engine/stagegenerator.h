// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/price.h"
#include "contract/wiredialect.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace bullpen {

class AttemptContext;

// For the built-in simulator only (docs/contract.md 8): the scenario this request asks it to play, and
// which provider plays the primary and which the fallback in it. It travels with the request as headers
// (x-bullpen-scenario, x-bullpen-roles), so one simulator serves many consoles and many scenarios at
// once and nothing engine-wide changes per click. Adapters send it only to a loopback endpoint.
struct ScenarioChoice
{
    QString name; // a built-in scenario; empty: whatever the simulator was started with
    std::optional<Provider> primary;
    std::optional<Provider> fallback;

    bool isSet() const { return !name.isEmpty(); }
    // "gemini,qwen", "gemini," (no fallback); empty when the primary is not known.
    QByteArray rolesHeader() const
    {
        if (!primary)
            return {};
        return (toId(*primary) + QLatin1Char(',') + (fallback ? toId(*fallback) : QString())).toLatin1();
    }
};

struct StageRequest
{
    QString story;
    QString userId; // raw: never logged, stored or put in an event (docs/contract.md §5.1)
    QString generationId; // empty: the service makes one
    // Which stage asks. Storyboard: `story` is the user's story. Captions and Image: `stageInput` is
    // what the stage works from (the storyboard as JSON).
    Stage stage = Stage::Storyboard;
    QString stageInput;
    ScenarioChoice scenario;
    // A probe (docs/contract.md §13): only this role's provider is called, once; no fallback, no round.
    std::optional<Role> probeRole;

    static StageRequest forStory(QString story, QString userId = {})
    {
        StageRequest r;
        r.story = std::move(story);
        r.userId = std::move(userId);
        return r;
    }
};

// One provider's call for one stage (the image and captions stages use it too). generate() starts exactly one request and returns; the
// response arrives later through context->deliver(). The generator knows nothing of fallbacks, budgets or other providers. It must register
// a cancel handler that really stops its work (aborts the HTTP request) and must not retry on its own (docs/contract.md §4.4).
class StageGenerator
{
public:
    virtual ~StageGenerator() = default;

    virtual Provider provider() const = 0;
    // The dialect its answers are in, as the engine's own table describes its provider: how failures
    // are read (FailureClassifier).
    virtual WireDialect dialect() const = 0;
    virtual QString model() const = 0;
    // Has what it needs to send a request (key and endpoint).
    virtual bool isConfigured() const = 0;
    // Credentials this generator sends; scrubbed from any text its provider sends back.
    virtual QStringList secrets() const { return {}; }
    // What its answers cost (docs/contract.md §16); unknown unless the generator says.
    virtual Price price() const { return {}; }

    virtual void generate(const StageRequest &request, std::shared_ptr<AttemptContext> context) = 0;
};

} // namespace bullpen
