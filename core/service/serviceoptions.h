// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "eventstream.h"
#include "sim/cappedtcpserver.h"

#include <QHostAddress>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>

#include <chrono>
#include <optional>

namespace bullpen {

// How bullpen-engine's HTTP service is run: where it listens, its limits, what it keeps (EngineService).
struct ServiceOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8700; // 0: any free port
    QString instance; // empty: host name and port
    QString version;
    qint64 maxBodyBytes = 256 * 1024;
    qint64 maxHeaderBytes = 16 * 1024;
    RequestLimits request;
    int maxInFlight = 1000; // generations running at once; beyond it, 429
    double tokenRate = 200; // requests per second per token, sustained
    double tokenBurst = 400; // and in a burst
    EventStream::Options events;
    ConnectionLimits connections; // lowered to what the open-file limit leaves room for (listen())
    int resultsKept = 2000; // whole results answered from memory (~8 KB each); older ones from the history
    std::chrono::milliseconds drain { 30000 };
    std::optional<QSslConfiguration> tls; // serve HTTPS (loadServerTls); else plain HTTP
    // Probes (docs/contract.md §13): a target with no traffic this long gets a synthetic generation; 0: none.
    std::chrono::milliseconds probeEvery { 0 };

    // Where the service is reached: its scheme, address and port (the port chosen, once it listens).
    QUrl url() const
    {
        QUrl u;
        u.setScheme(tls ? QStringLiteral("https") : QStringLiteral("http"));
        u.setHost(address.toString());
        u.setPort(port);
        return u;
    }
};

} // namespace bullpen
