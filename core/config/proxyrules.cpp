// SPDX-License-Identifier: MIT
#include "proxyrules.h"

#include <QHostAddress>
#include <QRegularExpression>

#include <mutex>

namespace bullpen {

namespace {

QString originOf(const QUrl &url)
{
    return url.scheme().toLower() + QStringLiteral("://") + url.host().toLower() + QLatin1Char(':')
        + QString::number(url.port(url.scheme() == u"https" ? 443 : 80));
}

// "proxy:3128" → http://proxy:3128; a scheme other than http or socks5 is refused.
std::optional<QUrl> parseProxy(const QString &text, const QString &from, QString *error)
{
    QString t = text.trimmed();
    if (!t.contains(QStringLiteral("://")))
        t.prepend(QStringLiteral("http://"));
    const QUrl url(t);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() || (scheme != u"http" && scheme != u"socks5" && scheme != u"socks5h")) {
        *error = QStringLiteral("%1: \"%2\" is not a proxy Bullpen can use; write http://host:port (or socks5://host:port), or none")
                     .arg(from, url.toString(QUrl::RemoveUserInfo));
        return std::nullopt;
    }
    return url;
}

} // namespace

std::optional<ProxyRules> ProxyRules::from(const QString &setting, const QProcessEnvironment &environment, QString *error)
{
    ProxyRules rules;
    const auto env = [&](const char *name) {
        return environment.value(QLatin1StringView(name)).trimmed();
    };
    QString noProxy = env("no_proxy");
    if (noProxy.isEmpty())
        noProxy = env("NO_PROXY");
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (QString entry : noProxy.split(separators, Qt::SkipEmptyParts)) {
        if (entry.startsWith(QLatin1Char('.')))
            entry.remove(0, 1);
        if (!entry.isEmpty())
            rules.m_noProxy << entry.toLower();
    }
    const QString chosen = setting.trimmed();
    if (chosen.compare(u"none", Qt::CaseInsensitive) == 0) {
        rules.m_noProxy.clear();
        return rules;
    }
    if (!chosen.isEmpty()) {
        const auto p = parseProxy(chosen, QStringLiteral("BULLPEN_PROXY"), error);
        if (!p)
            return std::nullopt;
        rules.m_http = rules.m_https = p;
        rules.m_httpFrom = rules.m_httpsFrom = QStringLiteral("proxy setting");
        return rules;
    }
    for (const char *name : { "https_proxy", "HTTPS_PROXY" }) {
        if (const QString v = env(name); !v.isEmpty()) {
            rules.m_https = parseProxy(v, QLatin1StringView(name), error);
            if (!rules.m_https)
                return std::nullopt;
            rules.m_httpsFrom = QLatin1StringView(name);
            break;
        }
    }
    if (const QString v = env("http_proxy"); !v.isEmpty()) {
        rules.m_http = parseProxy(v, QStringLiteral("http_proxy"), error);
        if (!rules.m_http)
            return std::nullopt;
        rules.m_httpFrom = QStringLiteral("http_proxy");
    }
    return rules;
}

bool ProxyRules::bypassed(const QUrl &target) const
{
    const QString host = target.host().toLower();
    const int port = target.port(target.scheme() == u"https" ? 443 : 80);
    const QHostAddress address(host);
    for (const QString &entry : m_noProxy) {
        if (entry == u"*")
            return true;
        QString name = entry;
        int entryPort = -1;
        // host:port (not an IPv6 literal, which has more than one colon).
        if (const qsizetype colon = entry.lastIndexOf(QLatin1Char(':')); colon > 0 && entry.count(QLatin1Char(':')) == 1) {
            bool ok = false;
            entryPort = entry.mid(colon + 1).toInt(&ok);
            if (!ok)
                continue;
            name = entry.left(colon);
        }
        if (entryPort >= 0 && entryPort != port)
            continue;
        if (!address.isNull()) {
            if (name.contains(QLatin1Char('/'))) {
                const auto subnet = QHostAddress::parseSubnet(name);
                if (!subnet.first.isNull() && address.isInSubnet(subnet))
                    return true;
            } else if (const QHostAddress other(name); !other.isNull() && other.isEqual(address)) {
                return true;
            }
            continue;
        }
        if (host == name || host.endsWith(QLatin1Char('.') + name))
            return true;
    }
    return false;
}

std::optional<QUrl> ProxyRules::proxyFor(const QUrl &target) const
{
    const std::optional<QUrl> &proxy = target.scheme() == u"https" ? m_https : m_http;
    if (!proxy || bypassed(target))
        return std::nullopt;
    return proxy;
}

QString ProxyRules::describe() const
{
    if (isEmpty())
        return QStringLiteral("direct (no proxy)");
    QStringList parts;
    if (m_https)
        parts << QStringLiteral("https via %1 (%2)").arg(m_https->toString(QUrl::RemoveUserInfo), m_httpsFrom);
    if (m_http)
        parts << QStringLiteral("http via %1 (%2)").arg(m_http->toString(QUrl::RemoveUserInfo), m_httpFrom);
    QString out = parts.join(QStringLiteral("; "));
    if (!m_noProxy.isEmpty())
        out += QStringLiteral("; no_proxy: ") + m_noProxy.join(QStringLiteral(", "));
    return out;
}

QNetworkProxy RulesProxyFactory::toQt(const QUrl &proxy)
{
    const bool socks = proxy.scheme().startsWith(u"socks");
    QNetworkProxy p(socks ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy, proxy.host(),
                    static_cast<quint16>(proxy.port(socks ? 1080 : 80)), proxy.userName(QUrl::FullyDecoded),
                    proxy.password(QUrl::FullyDecoded));
    if (!socks) {
        // Without the caching capability Qt tunnels plain http:// too (CONNECT), instead of handing the
        // proxy a request it could resend.
        p.setCapabilities(QNetworkProxy::TunnelingCapability | QNetworkProxy::HostNameLookupCapability);
    }
    return p;
}

void ProxyRoutes::install(const ProxyRules &rules)
{
    std::lock_guard lock(m_mutex);
    m_rules = rules;
}

void ProxyRoutes::addDirectOrigin(const QUrl &url)
{
    std::lock_guard lock(m_mutex);
    m_direct.insert(originOf(url));
}

QNetworkProxy ProxyRoutes::proxyFor(const QUrl &target) const
{
    std::optional<QUrl> proxy;
    {
        std::lock_guard lock(m_mutex);
        if (!m_direct.contains(originOf(target)))
            proxy = m_rules.proxyFor(target);
    }
    return proxy ? RulesProxyFactory::toQt(*proxy) : QNetworkProxy(QNetworkProxy::NoProxy);
}

QList<QNetworkProxy> RulesProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    return { m_routes->proxyFor(query.url()) };
}

void useProxyRules(QNetworkAccessManager &manager, std::shared_ptr<const ProxyRoutes> routes)
{
    manager.setProxyFactory(new RulesProxyFactory(std::move(routes)));
}

} // namespace bullpen
