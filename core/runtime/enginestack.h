// SPDX-License-Identifier: MIT
#pragma once

#include "config/enginecontext.h"
#include "config/settings.h"
#include "engine/admission.h"
#include "engine/clock.h"
#include "engine/stageservice.h"
#include "pipeline/generationpipeline.h"
#include "providers/imageclient.h"
#include "providers/storyboardclient.h"

namespace bullpen {

// The engine's parts for one set of Settings, wired once: the storyboard client (text providers) serving
// the storyboard and captions stages, the image client serving the image stage, one service per stage,
// and the pipeline over them. Destroying it shuts every stage down first, so cancel handlers run while
// the clients still exist.
class EngineStack final
{
public:
    // `context`: its engine's (EngineSetup's); for a stack built by hand, one of its own: no proxy.
    EngineStack(const Settings &settings, Clock &clock, const EngineContext &context = EngineContext::standalone());
    ~EngineStack();
    EngineStack(const EngineStack &) = delete;
    EngineStack &operator=(const EngineStack &) = delete;

    StoryboardClient &storyboardClient() { return m_client; }
    ImageClient &imageClient() { return m_imageClient; }
    StageService &storyboard() { return m_storyboard; }
    StageService &captions() { return m_captions; }
    StageService &image() { return m_image; }
    GenerationPipeline &pipeline() { return m_pipeline; }
    Admission &admission() { return m_admission; }
    // The engine's breakers and drains, shared with the other engine threads' stacks; not owned.
    void setBreakers(BreakerBoard *breakers);

    // The stage policies Settings describe (docs/contract.md §2, 4); the caller adds storage and the cache digest.
    static PipelineOptions optionsFor(const Settings &settings);

private:
    Admission m_admission; // first in, last out: every stage releases its slots into it
    // The connections both clients share, so that a provider serving several stages is one set of kept
    // connections: one TLS handshake, and through a proxy one tunnel (docs/contract.md 12.3). Each
    // client keeps its own adapters, timeouts and retries (they travel with each request, never with a
    // connection); the pool holds Qt's managers (https://) and the egress guard's connections (http://).
    // Outlives both clients.
    NetworkPool m_pool;
    StoryboardClient m_client;
    ImageClient m_imageClient;
    StageService m_storyboard;
    StageService m_captions;
    StageService m_image;
    GenerationPipeline m_pipeline;
};

} // namespace bullpen
