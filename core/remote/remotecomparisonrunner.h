// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/comparison.h"

#include <QTimer>

#include <map>

namespace bullpen {

class RemoteEngine;

// Comparisons on a running bullpen-engine (POST /v1/comparisons): the engine runs both sides and keeps
// the comparison in its store, as an embedded engine does; this runner follows it (GET
// /v1/comparisons/{id}, every 150 ms while it runs) and says the same things ComparisonRunner says:
// updated() as each side ends, finished() once both have.
class RemoteComparisonRunner final : public ComparisonRunner
{
    Q_OBJECT
public:
    explicit RemoteComparisonRunner(RemoteEngine &engine, QObject *parent = nullptr);

    QString start(const ComparisonRequest &request) override;
    void cancel(const QString &comparisonId) override;
    bool isRunning(const QString &comparisonId) const override { return m_following.count(comparisonId) != 0; }

private:
    void poll();
    void refused(const QString &localId, const ComparisonRequest &request, const QString &why);

    RemoteEngine &m_remote;
    struct Followed
    {
        QString engineId; // empty until the engine has answered
        int sidesDone = 0;
        bool inFlight = false;
        bool cancelRequested = false;
    };
    std::map<QString, Followed> m_following; // by the id start() returned
    QTimer m_poll;
};

} // namespace bullpen
