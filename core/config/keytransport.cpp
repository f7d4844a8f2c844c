// SPDX-License-Identifier: MIT
#include "keytransport.h"

#include <QHostAddress>

namespace bullpen {

bool sendsInTheClear(const QUrl &url)
{
    if (url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) != 0)
        return false;
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
        || host.endsWith(QLatin1String(".localhost"), Qt::CaseInsensitive))
        return false;
    const QHostAddress address(host);
    return address.isNull() || !address.isLoopback();
}

QList<KeyTransportWarning> keyTransportWarnings(const Settings &settings)
{
    QList<KeyTransportWarning> out;
    for (const auto &[provider, ps] : settings.providers) {
        if (!ps.hasKey() || !sendsInTheClear(ps.baseUrl))
            continue;
        out << KeyTransportWarning { provider, ps.baseUrl,
                                     QStringLiteral("%1's API key would be sent over plain http to %2, readable on the way; "
                                                    "use an https:// endpoint (or a loopback address for a server on this machine)")
                                         .arg(toId(provider), ps.baseUrl.host()) };
    }
    return out;
}

} // namespace bullpen
