// SPDX-License-Identifier: MIT
#pragma once

#include "networkpool.h"

namespace bullpen {

// The connections one engine stack keeps to the providers, shared by its storyboard and image clients:
// the pool of managers that puts every request on the wire at once and never resends (networkpool.h).
// Shared, so that a provider that serves several stages is one set of kept connections: one TLS
// handshake, and through a proxy one tunnel (docs/contract.md 12.3). The clients stay apart where it
// matters: each has its own adapters, and its stage's timeouts and retries, which travel with each
// request and never with a connection. Each client keeps its own egress guard (egressguard.h) for
// http:// endpoints, which closes every upstream connection after its response anyway: one relay
// thread per client spreads that work over the cores.
struct ProviderTransport
{
    NetworkPool pool;
};

} // namespace bullpen
