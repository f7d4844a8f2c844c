// SPDX-License-Identifier: MIT
#include "imageclient.h"

#include "engine/stageservice.h"
#include "storyboardclient.h"

namespace bullpen {

ImageClient::ImageClient(const Settings &settings, ProviderTransport *transport, QObject *parent)
    : QObject(parent)
    , m_ownTransport(transport ? nullptr : std::make_unique<ProviderTransport>())
    , m_transport(transport ? *transport : *m_ownTransport)
{
    ProviderEndpoint e = StoryboardClient::endpointFor(settings, Provider::Gemini);
    e.model = settings.pipeline.imageModel;
    e.stream = false; // images come whole
    m_generator = std::make_unique<HttpStageGenerator>(m_transport.pool, e, &m_guard);
}

ImageClient::~ImageClient()
{
    const QList<QObject *> children = m_transport.pool.children(); // pending exchanges abort before the adapter goes
    for (QObject *child : children)
        delete child;
}

void ImageClient::registerWith(StageService &service) const { service.addGenerator(m_generator.get()); }

} // namespace bullpen
