// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "httpstagegenerator.h"
#include "networkpool.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <map>
#include <memory>

namespace bullpen {

class StageService;

// The HTTP client of the text stages (storyboard and captions): one adapter per provider, built from
// Settings. The image stage gets a separate client, so nothing set here (timeouts, retries) can change
// it. The connections are the engine stack's shared pool (enginestack.h), or the client's own when none
// is given.
class StoryboardClient final : public QObject
{
    Q_OBJECT
public:
    explicit StoryboardClient(const Settings &settings, NetworkPool *sharedPool = nullptr, QObject *parent = nullptr);
    ~StoryboardClient() override;

    HttpStageGenerator *generator(Provider provider) const;
    void registerWith(StageService &service) const;
    NetworkPool &network() { return m_pool; }

    static ProviderEndpoint endpointFor(const Settings &settings, Provider provider);

private:
    std::unique_ptr<NetworkPool> m_ownPool; // when not given the stack's; outlives the adapters
    NetworkPool &m_pool;
    std::map<Provider, std::unique_ptr<HttpStageGenerator>> m_generators;
};

} // namespace bullpen
