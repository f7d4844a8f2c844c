// SPDX-License-Identifier: MIT
#pragma once

#include "config/providertrust.h"
#include "config/proxyrules.h"
#include "config/settings.h"
#include "engine/stageservice.h"
#include "providers/networkpool.h"
#include "providers/storyboardclient.h"
#include "sim/providersimulator.h"

#include <QList>

#include <functional>
#include <memory>

namespace bullpen::test {

// The real thing over loopback: the simulator on 127.0.0.1, the real adapters pointed at it (through
// the egress guard, as every http:// provider is reached), the generation service on the steady clock.
class LoopbackRig
{
public:
    // `adjust` may change the settings (point a provider elsewhere) before the client is built.
    LoopbackRig(const QString &scenario, Provider primary, std::optional<Provider> fallback, bool stream = true,
                const std::function<void(Settings &)> &adjust = {});
    ~LoopbackRig();

    bool ok() const { return m_ok; }
    QString error() const { return m_error; }
    ProviderSimulator &simulator() { return *m_sim; }
    StageService &service() { return *m_service; }
    StoryboardClient &client() { return *m_client; }
    Settings &settings() { return m_settings; }
    // The authorities its client's https calls trust besides the system's (a test's private CA), as an
    // engine's provider_ca would.
    ProviderTrust &trust() { return *m_trust; }
    // The rig's proxy routes (none: direct), which its calls follow from the next request on.
    ProxyRoutes &proxyRoutes() { return *m_routes; }

    // Runs one generation to its end (the event loop turns meanwhile); nothing if it did not end in time.
    std::optional<StageResult> run(const StagePolicy &policy, const QString &story, int waitMs = 30000);
    QList<Event> events;

private:
    bool m_ok = false;
    QString m_error;
    Settings m_settings;
    std::unique_ptr<ProviderSimulator> m_sim;
    std::shared_ptr<ProviderTrust> m_trust = std::make_shared<ProviderTrust>();
    std::shared_ptr<ProxyRoutes> m_routes = std::make_shared<ProxyRoutes>();
    std::unique_ptr<NetworkPool> m_pool; // the client's connections; outlives it
    std::unique_ptr<StoryboardClient> m_client;
    std::unique_ptr<StageService> m_service;
};

} // namespace bullpen::test
