// SPDX-License-Identifier: MIT
#include "storyboardclient.h"

#include "engine/stageservice.h"

namespace bullpen {

StoryboardClient::StoryboardClient(const Settings &settings, NetworkPool *sharedPool, QObject *parent)
    : QObject(parent)
    , m_ownPool(sharedPool ? nullptr : std::make_unique<NetworkPool>())
    , m_pool(sharedPool ? *sharedPool : *m_ownPool)
{
    for (const auto &entry : settings.providers)
        m_generators[entry.first] = std::make_unique<HttpStageGenerator>(m_pool, endpointFor(settings, entry.first));
}

StoryboardClient::~StoryboardClient()
{
    // Pending exchanges are children of the pool: abort them before the adapters go (on a shared pool,
    // the other client's too, whose adapters outlive them).
    const QList<QObject *> children = m_pool.children();
    for (QObject *child : children)
        delete child;
}

HttpStageGenerator *StoryboardClient::generator(Provider provider) const
{
    const auto it = m_generators.find(provider);
    return it == m_generators.end() ? nullptr : it->second.get();
}

void StoryboardClient::registerWith(StageService &service) const
{
    for (const auto &entry : m_generators)
        service.addGenerator(entry.second.get());
}

ProviderEndpoint StoryboardClient::endpointFor(const Settings &settings, Provider provider)
{
    const ProviderSettings &ps = settings.provider(provider);
    ProviderEndpoint e;
    e.provider = provider;
    e.baseUrl = ps.baseUrl;
    e.model = ps.model;
    e.apiKey = ps.apiKey;
    e.stream = ps.stream;
    e.price = ps.price;
    e.spec = settings.providerTable.spec(provider); // this engine's, not the process's
    return e;
}

} // namespace bullpen
