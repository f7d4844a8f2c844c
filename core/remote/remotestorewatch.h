// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"
#include "remote/engineendpoint.h"

#include <QNetworkAccessManager>
#include <QTimer>

#include <chrono>

namespace bullpen {

// The attached engine's store, as the engine's `GET /readyz` says it (docs/store.md, "When PostgreSQL
// goes away"): asked every few seconds, so that an attached console's status bar says when the
// engine's store is unreachable and when it is back, as an embedded console says it of its own store.
// Only reachability: the engine's write counts are its /metrics.
class RemoteStoreWatch final : public HistoryWrites
{
    Q_OBJECT
public:
    explicit RemoteStoreWatch(EngineEndpoint endpoint, std::chrono::milliseconds every = std::chrono::seconds(5),
                              QObject *parent = nullptr);

    void start();
    HistoryWriteStats writeStats() const override { return m_stats; }

private:
    void ask();

    EngineEndpoint m_endpoint;
    QNetworkAccessManager m_network;
    QTimer m_timer;
    HistoryWriteStats m_stats;
    bool m_asking = false;
};

} // namespace bullpen
