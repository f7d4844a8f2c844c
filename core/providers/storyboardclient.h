// SPDX-License-Identifier: MIT
#pragma once

#include "config/settings.h"
#include "egressguard.h"
#include "networkpool.h"
#include "httpstagegenerator.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <map>
#include <memory>

namespace bullpen {

class StageService;

// The storyboard stage's own HTTP client: its own QNetworkAccessManager and one adapter per provider,
// built from Settings. The image stage gets a separate client, so nothing set here (timeouts, retries)
// can change it (docs/contract.md §4.4).
class StoryboardClient final : public QObject
{
    Q_OBJECT
public:
    explicit StoryboardClient(const Settings &settings, QObject *parent = nullptr);
    ~StoryboardClient() override;

    HttpStageGenerator *generator(Provider provider) const;
    void registerWith(StageService &service) const;
    NetworkPool &network() { return m_pool; }

    static ProviderEndpoint endpointFor(const Settings &settings, Provider provider);

private:
    EgressGuard m_guard; // first: outlives the manager and every exchange
    NetworkPool m_pool; // managers enough that every request is on the wire when its attempt starts
    std::map<Provider, std::unique_ptr<HttpStageGenerator>> m_generators;
};

} // namespace bullpen
