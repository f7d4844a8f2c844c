// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"

#include <QString>
#include <QTimer>

#include <memory>

class QHttpServerRequest;
class QObject;

namespace bullpen {

class DrainRecords;
class Prober;
class StoreLocation;
struct ApiToken;
struct BreakerChange;
struct ServiceContext;

// The service's handlers under /v1/providers (docs/api.md, "Providers"): breakers and drains, and the
// prober's targets. They own the drains' records in the store (read back into the engine's breakers),
// and the prober.
class ProviderHandlers final
{
public:
    // Opens the drains' records in `store` (the tokens' store); breaker changes are announced while
    // `owner` (the service) lives.
    ProviderHandlers(ServiceContext &context, const StoreLocation &store, QObject *owner);
    ~ProviderHandlers();

    ApiReply providers() const;
    ApiReply drain(const QHttpServerRequest &request, const QString &id, const ApiToken &token);
    ApiReply restore(const QHttpServerRequest &request, const QString &id, const ApiToken &token);
    ApiReply resetBreaker(const QHttpServerRequest &request, const QString &id, const ApiToken &token);

    // With --probe-every, once the instance is named (EngineService::listen()); stopped by a drain of the process.
    void startProbes();
    void stopProbes();
    bool probing() const { return m_prober != nullptr; }

private:
    void announce(const BreakerChange &change);
    void syncDrains();

    ServiceContext &m_context;
    std::unique_ptr<DrainRecords> m_drainRecords; // drains in the store, shared by every engine on it
    QTimer m_drainSync; // reads them back every second
    QString m_drainSyncError; // the last failure, said once
    std::unique_ptr<Prober> m_prober; // with --probe-every
};

} // namespace bullpen
