// SPDX-License-Identifier: MIT
#pragma once

#include "engine/clock.h"
#include "providertrust.h"
#include "proxyrules.h"

#include <memory>

namespace bullpen {

// What one engine owns that the process once held for every engine (docs/architecture.md, "The engine
// context"), made by EngineSetup and handed down: LocalEngine → EngineStack → its NetworkPool (Qt's
// managers and the egress guard's connections). Its providers are a value of its settings (Settings::providerTable: what each
// provider is, read by the settings, the wire, /v1/config); its proxy routes, the certificate
// authorities its provider calls trust and the clock it runs on are here. Two engines in one process,
// or a replay beside an engine, each hold their own. Built without one (a test's stack by hand, which is
// handed its clock apart), an engine gets one of its own: no proxy, the system's authorities only.
struct EngineContext
{
    std::shared_ptr<ProxyRoutes> proxy = std::make_shared<ProxyRoutes>();
    std::shared_ptr<ProviderTrust> trust = std::make_shared<ProviderTrust>(); // the provider_ca setting's
    // Its time: attempt deadlines and budgets, breakers, rate limits, alerts. The steady clock, unless
    // a test hands its own (SetupOptions::clock; it must outlive the engine).
    Clock *clock = &SteadyClock::instance();

    // No proxy and the system's authorities, for an engine built outside EngineSetup (tests, benchmarks).
    static EngineContext standalone() { return EngineContext {}; }
};

} // namespace bullpen
