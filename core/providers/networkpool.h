// SPDX-License-Identifier: MIT
#pragma once

#include <QNetworkAccessManager>
#include <QObject>
#include <QUrl>

#include <map>
#include <memory>
#include <vector>

namespace bullpen {

class GuardedConnections;
class ProviderTrust;
class ProxyRoutes;

// Puts every request on the wire when its attempt starts (docs/contract.md §4.5): no client-side queue may eat a
// budget. One QNetworkAccessManager opens at most 6 HTTP/1.1 connections per host and queues further
// requests inside Qt, where their deadline already runs (Qt 6.4 has no setting for it). The pool
// hands each request a manager with fewer than 6 requests in flight to that origin, and makes a new
// manager (each with its own network thread) when all are busy. Managers are kept for reuse.
//
// No manager ever resends (docs/contract.md §4.4): the adapters' request settings apply on every one of them.
//
// Ownership, one owner each: the pool owns its managers (m_managers) and the exchanges in flight (its
// QObject children); each exchange owns its reply. The destructor deletes the exchanges, and with them
// their replies, before any manager goes, because a reply must not outlive its manager.
class NetworkPool final : public QObject
{
    Q_OBJECT
public:
    static constexpr int kPerManager = 6; // Qt 6.4's fixed per-host connection count

    explicit NetworkPool(QObject *parent = nullptr); // no proxy, the system's authorities
    // Its managers follow `routes`, its https requests trust `trust` (its engine's, EngineContext).
    NetworkPool(std::shared_ptr<ProxyRoutes> routes, std::shared_ptr<const ProviderTrust> trust, QObject *parent = nullptr);
    const std::shared_ptr<ProxyRoutes> &proxyRoutes() const { return m_routes; }
    const ProviderTrust &trust() const { return *m_trust; }
    // The egress guard's connections of this pool (guardedreply.h): they follow the same routes.
    GuardedConnections &guarded() { return *m_guarded; }
    ~NetworkPool() override;

    // A manager that sends a request to `url`'s origin at once. Pair with release().
    QNetworkAccessManager *acquire(const QUrl &url);
    void release(QNetworkAccessManager *manager, const QUrl &url);

    int managerCount() const { return static_cast<int>(m_managers.size()); }
    int inFlight() const { return m_total; }

private:
    static QString origin(const QUrl &url);

    std::shared_ptr<ProxyRoutes> m_routes;
    std::shared_ptr<const ProviderTrust> m_trust;
    std::vector<std::unique_ptr<QNetworkAccessManager>> m_managers;
    std::unique_ptr<GuardedConnections> m_guarded; // not a child: it outlives the exchanges (our children)
    std::map<std::pair<QNetworkAccessManager *, QString>, int> m_inFlight;
    int m_total = 0;
};

} // namespace bullpen
