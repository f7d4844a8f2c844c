// SPDX-License-Identifier: MIT
#include "enginestack.h"

namespace bullpen {

EngineStack::EngineStack(const Settings &settings, Clock &clock, const EngineContext &context)
    : m_admission(clock)
    , m_pool(context.proxy, context.trust)
    , m_client(settings, &m_pool)
    , m_imageClient(settings, &m_pool)
    , m_storyboard(clock)
    , m_captions(clock)
    , m_image(clock)
    , m_pipeline(clock, m_storyboard, m_captions, m_image)
{
    m_admission.setLimits({ settings.pipeline.maxInFlightPerProvider, settings.pipeline.maxQueuedPerProvider });
    for (StageService *service : { &m_storyboard, &m_captions, &m_image })
        service->setAdmission(&m_admission);
    m_client.registerWith(m_storyboard);
    m_client.registerWith(m_captions);
    m_imageClient.registerWith(m_image);
    m_pipeline.setOptions(optionsFor(settings));
}

void EngineStack::setBreakers(BreakerBoard *breakers)
{
    for (StageService *service : { &m_storyboard, &m_captions, &m_image })
        service->setBreakers(breakers);
}

EngineStack::~EngineStack()
{
    for (StageService *service : { &m_storyboard, &m_captions, &m_image })
        service->shutdown();
}

PipelineOptions EngineStack::optionsFor(const Settings &settings)
{
    PipelineOptions o;
    o.storyboard = settings.storyboardPolicy();
    o.captions = StagePolicy::captionsStage(settings.storyboard.primary);
    o.captions.primaryTimeout = settings.pipeline.captionsTimeout;
    o.image = StagePolicy::imageStage(Provider::Gemini, settings.pipeline.imageTimeout, settings.pipeline.imageRetries);
    o.captionsEnabled = settings.pipeline.captions;
    o.storeContent = settings.pipeline.storeContent;
    o.providers = settings.providerTable;
    return o;
}

} // namespace bullpen
