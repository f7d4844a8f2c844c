// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"
#include "wire/engineconfigjson.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>

class QHttpServerRequest;
class QTcpSocket;

namespace bullpen {

class ApiTokens;
class CappedTcpServer;
class ProviderHandlers;
class ServiceMetrics;
enum class ApiRole;
struct ServiceContext;
struct Settings;

// The service's endpoints about the engine itself (docs/api.md, "Operations"): its configuration, the
// instances sharing its store, readiness, /metrics and the audit log. They report the process's own
// state, read from what the other parts own; the one thing kept here is when this engine started.
class AdminHandlers final
{
public:
    // `server`: the service's listening socket, null until EngineService::listen() has made it.
    AdminHandlers(ServiceContext &context, ApiTokens &tokens, const ServiceMetrics &metrics, const ProviderHandlers &providers,
                  CappedTcpServer *const &server);

    ApiReply config(ApiRole role) const;
    void instances(QTcpSocket *socket) const;
    ApiReply readiness() const;
    ApiReply metrics() const;
    ApiReply auditLog(const QHttpServerRequest &request);

private:
    // The providers with the endpoint and model in use (a viewer is not told where the store is).
    static QList<EngineConfig::ProviderEntry> providerEntries(const Settings &settings);
    QMap<QString, EngineConfig::Key> keyStates(const Settings &settings) const;

    ServiceContext &m_context;
    ApiTokens &m_tokens;
    const ServiceMetrics &m_metrics;
    const ProviderHandlers &m_providers;
    CappedTcpServer *const &m_server;
    const QDateTime m_startedAt; // as shown in GET /v1/instances
};

} // namespace bullpen
