// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "egressguard.h"
#include "httpstagegenerator.h"
#include "providertransport.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <map>
#include <memory>

namespace bullpen {

class StageService;

// The HTTP client of the text stages (storyboard and captions): one adapter per provider, built from
// Settings. The image stage gets a separate client, so nothing set here (timeouts, retries) can change
// it. The connections are the engine stack's (providertransport.h), or the client's own when none is given.
class StoryboardClient final : public QObject
{
    Q_OBJECT
public:
    explicit StoryboardClient(const Settings &settings, ProviderTransport *transport = nullptr, QObject *parent = nullptr);
    ~StoryboardClient() override;

    HttpStageGenerator *generator(Provider provider) const;
    void registerWith(StageService &service) const;
    NetworkPool &network() { return m_transport.pool; }

    static ProviderEndpoint endpointFor(const Settings &settings, Provider provider);

private:
    EgressGuard m_guard; // first: outlives every exchange
    std::unique_ptr<ProviderTransport> m_ownTransport; // when not given the stack's; outlives the adapters
    ProviderTransport &m_transport;
    std::map<Provider, std::unique_ptr<HttpStageGenerator>> m_generators;
};

} // namespace bullpen
