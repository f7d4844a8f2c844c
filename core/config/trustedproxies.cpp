// SPDX-License-Identifier: MIT
#include "trustedproxies.h"

namespace bullpen {

namespace {

// ::ffff:10.0.0.1 is 10.0.0.1: a dual-stack socket reports IPv4 peers so.
QHostAddress plain(const QHostAddress &address)
{
    bool mapped = false;
    const quint32 v4 = address.toIPv4Address(&mapped);
    return mapped ? QHostAddress(v4) : address;
}

} // namespace

std::optional<TrustedProxies> TrustedProxies::parse(const QString &text, QString *why)
{
    TrustedProxies out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.compare(u"none", Qt::CaseInsensitive) == 0)
        return out;
    for (const QString &entry : trimmed.split(QLatin1Char(','))) {
        const QString e = entry.trimmed();
        QPair<QHostAddress, int> subnet = e.contains(QLatin1Char('/')) ? QHostAddress::parseSubnet(e) : QPair<QHostAddress, int>();
        if (!e.contains(QLatin1Char('/'))) {
            const QHostAddress address(e);
            if (!address.isNull())
                subnet = { address, address.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128 };
        }
        if (subnet.first.isNull()) {
            if (why)
                *why = QStringLiteral("\"%1\" is not an address or a subnet; write addresses and subnets separated by commas, e.g. "
                                      "10.0.0.0/8, 127.0.0.1 (or none)")
                           .arg(e.left(64));
            return std::nullopt;
        }
        out.m_subnets << subnet;
    }
    return out;
}

bool TrustedProxies::contains(const QHostAddress &address) const
{
    const QHostAddress a = plain(address);
    for (const auto &subnet : m_subnets) {
        if (a.isInSubnet(subnet))
            return true;
    }
    return false;
}

QHostAddress TrustedProxies::client(const QHostAddress &peer, const QList<QByteArray> &forwardedFor) const
{
    QHostAddress current = plain(peer);
    if (!contains(current))
        return current;
    QList<QByteArray> hops;
    for (const QByteArray &value : forwardedFor)
        hops << value.split(',');
    for (auto it = hops.crbegin(); it != hops.crend(); ++it) {
        const QHostAddress hop(QString::fromLatin1(it->trimmed()));
        if (hop.isNull())
            break;
        current = plain(hop);
        if (!contains(current))
            break;
    }
    return current;
}

} // namespace bullpen
