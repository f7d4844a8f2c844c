// SPDX-License-Identifier: MIT
#include "networkpool.h"

#include "config/providertrust.h"
#include "config/proxyrules.h"
#include "guardedreply.h"

namespace bullpen {

NetworkPool::NetworkPool(QObject *parent)
    : NetworkPool(std::make_shared<ProxyRoutes>(), std::make_shared<ProviderTrust>(), parent)
{
}

NetworkPool::NetworkPool(std::shared_ptr<ProxyRoutes> routes, std::shared_ptr<const ProviderTrust> trust, QObject *parent)
    : QObject(parent)
    , m_routes(std::move(routes))
    , m_trust(std::move(trust))
    , m_guarded(std::make_unique<GuardedConnections>(m_routes))
{
}

NetworkPool::~NetworkPool()
{
    // The exchanges (our children) and their replies go before the managers (members, destroyed after
    // this body, while children would otherwise be deleted only after them by ~QObject).
    const QObjectList exchanges = children(); // a copy: each delete takes itself off the live list
    qDeleteAll(exchanges);
}

QString NetworkPool::origin(const QUrl &url)
{
    return url.scheme() + QStringLiteral("://") + url.host() + QLatin1Char(':')
        + QString::number(url.port(url.scheme() == u"https" ? 443 : 80));
}

QNetworkAccessManager *NetworkPool::acquire(const QUrl &url)
{
    const QString key = origin(url);
    QNetworkAccessManager *chosen = nullptr;
    for (const auto &m : m_managers) {
        if (m_inFlight[{ m.get(), key }] < kPerManager) {
            chosen = m.get();
            break;
        }
    }
    if (!chosen) {
        auto manager = std::make_unique<QNetworkAccessManager>();
        manager->setAutoDeleteReplies(false);
        manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
        useProxyRules(*manager, m_routes); // its engine's proxy, if any (proxyrules.h)
        chosen = manager.get();
        m_managers.push_back(std::move(manager));
    }
    ++m_inFlight[{ chosen, key }];
    ++m_total;
    return chosen;
}

void NetworkPool::release(QNetworkAccessManager *manager, const QUrl &url)
{
    const auto it = m_inFlight.find({ manager, origin(url) });
    if (it == m_inFlight.end() || it->second <= 0)
        return;
    --it->second;
    --m_total;
}

} // namespace bullpen
