// SPDX-License-Identifier: MIT
#pragma once

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <mutex>
#include <optional>

namespace bullpen {

// Which proxy a provider call (or an attached console's call to its engine) goes through
// (docs/contract.md, "Proxies"). Qt's QNetworkAccessManager ignores the usual environment variables
// unless told: these rules read them the way curl does.
//   - The `proxy` setting (BULLPEN_PROXY), when given, is the proxy for every call; "none" turns
//     proxies off whatever the environment says.
//   - Otherwise https_proxy (or HTTPS_PROXY) for https:// targets, http_proxy for http:// targets
//     (lower case only, as curl: HTTP_PROXY can be set by a CGI request's Proxy header).
//   - no_proxy (or NO_PROXY): a comma- or space-separated list of host names (a name matches itself and
//     its subdomains; a leading dot is ignored), IP addresses, CIDR ranges (10.0.0.0/8), each with an
//     optional :port, or "*" for everything.
// A proxy without a scheme is http://. Credentials in a proxy URL are used, never shown (describe()).
// Every call goes through the proxy as a CONNECT tunnel, plain http:// included: the proxy relays bytes
// and cannot resend a request on its own (docs/contract.md, no hidden retries).
class ProxyRules final
{
public:
    // nullopt with *error said when a proxy URL is not one (e.g. "ftp://…").
    static std::optional<ProxyRules> from(const QString &setting, const QProcessEnvironment &environment, QString *error);

    // The proxy for a call to `target`; nullopt: a direct connection.
    std::optional<QUrl> proxyFor(const QUrl &target) const;
    bool isEmpty() const { return !m_http && !m_https; }
    // For the status line and logs: "https via http://proxy:3128 (https_proxy); no_proxy: .corp, 10.0.0.0/8".
    QString describe() const;

private:
    bool bypassed(const QUrl &target) const;

    std::optional<QUrl> m_http;
    std::optional<QUrl> m_https;
    QString m_httpFrom, m_httpsFrom; // the variable or setting each came from
    QStringList m_noProxy;
};

// One engine's proxy rules and the origins it reaches directly whatever they say (its built-in
// simulator): an engine's, made by EngineSetup and handed down to its network pools, with their Qt
// managers and their egress guard's connections (EngineContext), so that two engines in one process each follow their own. An
// attached client's are its endpoint's (EngineEndpoint::routes). No routes belong to the process.
// Thread-safe: engine threads ask on every request.
class ProxyRoutes final
{
public:
    void install(const ProxyRules &rules);
    void addDirectOrigin(const QUrl &url);
    // The proxy for one connection to `target` (NoProxy: direct).
    QNetworkProxy proxyFor(const QUrl &target) const;

private:
    mutable std::mutex m_mutex;
    ProxyRules m_rules;
    QSet<QString> m_direct;
};

// Proxy routes as Qt's proxy factory, one per QNetworkAccessManager (useProxyRules): it reads the
// routes' rules on every query, so managers made before an install follow it too. A factory of the
// manager's own, not the application-wide one: Qt's application-wide lookup never proxies a loopback
// host, and a proxy on loopback is how the rules are tested.
class RulesProxyFactory final : public QNetworkProxyFactory
{
public:
    explicit RulesProxyFactory(std::shared_ptr<const ProxyRoutes> routes)
        : m_routes(std::move(routes))
    {
    }
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override;
    static QNetworkProxy toQt(const QUrl &proxy);

private:
    std::shared_ptr<const ProxyRoutes> m_routes;
};

// Gives `manager` a RulesProxyFactory over `routes` (it takes ownership).
void useProxyRules(QNetworkAccessManager &manager, std::shared_ptr<const ProxyRoutes> routes);

} // namespace bullpen
