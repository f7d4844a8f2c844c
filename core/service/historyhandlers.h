// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"
#include "engine/clock.h"
#include "statistics.h"

#include <QByteArray>
#include <QString>

#include <optional>

class QHttpServerRequest;
class QTcpSocket;
class QUrlQuery;

namespace bullpen {

class HistoryReader;
class ServiceMetrics;
struct ServiceContext;

// The service's handlers that read the history (docs/api.md, "History" and "Statistics"): one
// generation, its replay scenario, the list, the statistics and the comics, answered from the history
// thread; and this engine's own providers' figure, which they keep for a second.
class HistoryHandlers final
{
public:
    HistoryHandlers(ServiceContext &context, const ServiceMetrics &metrics);

    void list(const QHttpServerRequest &request, QTcpSocket *socket);
    void entry(const QString &id, QTcpSocket *socket);
    void scenario(const QString &id, QTcpSocket *socket);
    // GET /v1/stats/<one of Statistics::endpoints()>: its query read, then answered from the history thread.
    void stats(const QHttpServerRequest &request, QTcpSocket *socket, Statistics::Plan (*plan)(const QUrlQuery &, const ProviderTable &));
    ApiReply statsProviders(); // this engine's last 5 and 15 minutes, at most a second old
    void image(const QString &sha256, QTcpSocket *socket);

private:
    HistoryReader *historyOr404(QTcpSocket *socket); // none: answered 404 (started with --no-store)

    ServiceContext &m_context;
    const ServiceMetrics &m_metrics;
    QByteArray m_providersAnswer; // GET /v1/stats/providers, at most a second old
    std::optional<Clock::time_point> m_providersAt; // when m_providersAnswer was computed, on the engine's clock
};

} // namespace bullpen
