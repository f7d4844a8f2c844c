// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "engine/admission.h"
#include "engine/clock.h"
#include "engine/storyboardgenerationservice.h"
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
    EngineStack(const Settings &settings, Clock &clock);
    ~EngineStack();
    EngineStack(const EngineStack &) = delete;
    EngineStack &operator=(const EngineStack &) = delete;

    StoryboardClient &storyboardClient() { return m_client; }
    ImageClient &imageClient() { return m_imageClient; }
    StoryboardGenerationService &storyboard() { return m_storyboard; }
    StoryboardGenerationService &captions() { return m_captions; }
    StoryboardGenerationService &image() { return m_image; }
    GenerationPipeline &pipeline() { return m_pipeline; }
    Admission &admission() { return m_admission; }

    // The stage policies Settings describe (SPEC 2, 4); the caller adds storage and the cache digest.
    static PipelineOptions optionsFor(const Settings &settings);

private:
    Admission m_admission; // first in, last out: every stage releases its slots into it
    StoryboardClient m_client;
    ImageClient m_imageClient;
    StoryboardGenerationService m_storyboard;
    StoryboardGenerationService m_captions;
    StoryboardGenerationService m_image;
    GenerationPipeline m_pipeline;
};

} // namespace bullpen
