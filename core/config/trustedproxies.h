// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace bullpen {

// The balancers whose X-Forwarded-For bullpen-engine believes ("trusted_proxies",
// BULLPEN_TRUSTED_PROXIES; docs/operations.md, "Behind a load balancer"): addresses or subnets. From
// any other peer the header is ignored, so a client cannot name an address of its choosing.
class TrustedProxies final
{
public:
    // "10.0.0.0/8, 127.0.0.1, ::1": addresses or subnets, comma-separated; empty or "none": none.
    // Nothing, with *why saying what to write, for an entry that is neither.
    static std::optional<TrustedProxies> parse(const QString &text, QString *why = nullptr);

    bool isEmpty() const { return m_subnets.isEmpty(); }
    bool contains(const QHostAddress &address) const;
    // The client a request comes from: `peer` itself unless it is trusted; then X-Forwarded-For read
    // from its end (`forwardedFor`: every such header's value, in order), each trusted hop skipped, up
    // to the first address not trusted. An entry that is not an address ends the walk at the hop
    // before it.
    QHostAddress client(const QHostAddress &peer, const QList<QByteArray> &forwardedFor) const;

private:
    QList<QPair<QHostAddress, int>> m_subnets;
};

} // namespace bullpen
