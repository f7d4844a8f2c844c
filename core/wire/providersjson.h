// SPDX-License-Identifier: MIT
#pragma once

#include "engine/breakerboard.h"

#include <QJsonObject>
#include <QList>

#include <vector>

namespace bullpen {

// GET /v1/providers' list (docs/api.md, "Providers"): {"providers": [{"id", "instance", "drained",
// "breakers": [Breaker…], "drains": [Drain…]}…]}, every provider this engine knows. The rows have their
// codecs (wire/breakerrowjson.h, wire/drainrowjson.h); this one holds them together, both ways. The
// service adds the breaker settings and the probes beside it (service/providerhandlers.cpp).
class ProvidersJson final
{
public:
    // One row for each of `providers` (the engine's own, in their order), with its breakers and drains.
    static QJsonObject toJson(const QList<Provider> &providers, const std::vector<BreakerView> &breakers, const std::vector<Drain> &drains,
                              const QString &instance);
    // Every breaker and every drain of the answer, in its order; a row the codec refuses is left out (a
    // provider this console does not know).
    static QList<BreakerView> breakers(const QJsonObject &answer);
    static QList<Drain> drains(const QJsonObject &answer);
};

} // namespace bullpen
