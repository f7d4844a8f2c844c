// SPDX-License-Identifier: MIT
#pragma once

#include "egressguard.h"
#include "networkpool.h"

namespace bullpen {

// The connections one engine stack keeps to the providers, shared by its storyboard and image clients:
// the pool of managers that puts every request on the wire at once and never resends (networkpool.h),
// and the egress guard's relays for http:// endpoints (egressguard.h). Shared, so that a provider that
// serves several stages is one set of kept connections: one TLS handshake, and through a proxy one
// tunnel (docs/contract.md 12.3). The clients stay apart where it matters: each has its own adapters,
// and its stage's timeouts and retries, which travel with each request and never with a connection.
struct ProviderTransport
{
    EgressGuard guard; // first: outlives the pool and every exchange
    NetworkPool pool;
};

} // namespace bullpen
