// SPDX-License-Identifier: MIT
#include "remotestorewatch.h"

#include "config/proxyrules.h"
#include "wire/apiroutes.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>

namespace bullpen {

RemoteStoreWatch::RemoteStoreWatch(EngineEndpoint endpoint, std::chrono::milliseconds every, QObject *parent)
    : HistoryWrites(parent)
    , m_endpoint(std::move(endpoint))
{
    useProxyRules(m_network, m_endpoint.routes);
    m_timer.setInterval(every);
    connect(&m_timer, &QTimer::timeout, this, &RemoteStoreWatch::ask);
}

void RemoteStoreWatch::start()
{
    m_timer.start();
    ask();
}

void RemoteStoreWatch::ask()
{
    if (m_asking)
        return; // one question at a time: a slow engine is not asked twice
    m_asking = true;
    QNetworkRequest request = m_endpoint.request(ApiRoutes::path(ApiRoute::Readyz));
    request.setTransferTimeout(static_cast<int>(std::max<qint64>(1000, m_timer.interval())));
    QNetworkReply *reply = m_network.get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        m_asking = false;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 200 && status != 503)
            return; // the engine itself is out of reach: the connection's own state says so
        const QJsonObject o = QJsonDocument::fromJson(reply->read(64 * 1024)).object();
        const qint64 since = o.value(QLatin1StringView("store_unreachable_since_ms")).toInteger();
        if (since > 0 && m_stats.unreachableSinceMs == 0) {
            m_stats.unreachableSinceMs = since;
            m_stats.lastError = o.value(QLatin1StringView("reason")).toString();
            Q_EMIT reachabilityChanged(false, tr("The engine at %1: %2").arg(m_endpoint.display(), m_stats.lastError));
        } else if (since == 0 && m_stats.unreachableSinceMs > 0) {
            m_stats.unreachableSinceMs = 0;
            Q_EMIT reachabilityChanged(true, tr("The engine at %1 reaches its store again").arg(m_endpoint.display()));
        }
    });
}

} // namespace bullpen
