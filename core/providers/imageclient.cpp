// SPDX-License-Identifier: MIT
#include "imageclient.h"

#include "engine/storyboardgenerationservice.h"
#include "storyboardclient.h"

namespace bullpen {

ImageClient::ImageClient(const Settings &settings, QObject *parent)
    : QObject(parent)
{
    m_nam.setAutoDeleteReplies(false);
    m_nam.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    ProviderEndpoint e = StoryboardClient::endpointFor(settings, Provider::Gemini);
    e.model = settings.pipeline.imageModel;
    e.stream = false; // images come whole
    m_generator = std::make_unique<HttpStoryboardGenerator>(m_nam, e, &m_guard);
}

ImageClient::~ImageClient()
{
    const QList<QObject *> children = m_nam.children();
    for (QObject *child : children)
        delete child;
}

void ImageClient::registerWith(StoryboardGenerationService &service) const { service.addGenerator(m_generator.get()); }

} // namespace bullpen
