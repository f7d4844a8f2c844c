// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providerrolestage.h"
#include "engine/stagegenerator.h"
#include "engine/stagepolicy.h"

#include <QString>

#include <optional>

namespace bullpen {

// One generation as a front end asks for it (EngineClient::start): what the console, the CLI and the
// service hold, without the pipeline that runs it.
struct GenerationRequest
{
    QString story;
    QString userId; // raw: hashed and masked before anything is stored
    QString generationId;
    bool fresh = false; // skip the cache
    // This request's storyboard policy instead of the pipeline's (the compare view runs one provider
    // alone, with no fallback).
    std::optional<StagePolicy> storyboardPolicy;
    // The built-in simulator's scenario for this request (every stage). Roles left unset are taken from
    // the storyboard policy (its primary and fallback).
    ScenarioChoice scenario;
    // A probe (docs/contract.md §13): one minimal synthetic request to this provider in this role of this
    // stage, under the pipeline's policy for the stage, and nothing else; recorded as synthetic.
    std::optional<ProbeTarget> probe;
    // A replay (docs/contract.md §14) of this stored generation: recorded as synthetic, linked to it.
    QString replayOf;
};

} // namespace bullpen
