// SPDX-License-Identifier: MIT
#include "imageclient.h"

#include "engine/stageservice.h"
#include "storyboardclient.h"

namespace bullpen {

ImageClient::ImageClient(const Settings &settings, NetworkPool *sharedPool, QObject *parent)
    : QObject(parent)
    , m_ownPool(sharedPool ? nullptr : std::make_unique<NetworkPool>())
    , m_pool(sharedPool ? *sharedPool : *m_ownPool)
{
    ProviderEndpoint e = StoryboardClient::endpointFor(settings, Provider::Gemini);
    e.model = settings.pipeline.imageModel;
    e.stream = false; // images come whole
    m_generator = std::make_unique<HttpStageGenerator>(m_pool, e);
}

ImageClient::~ImageClient()
{
    const QList<QObject *> children = m_pool.children(); // pending exchanges abort before the adapter goes
    for (QObject *child : children)
        delete child;
}

void ImageClient::registerWith(StageService &service) const
{
    service.addGenerator(m_generator.get());
}

} // namespace bullpen
