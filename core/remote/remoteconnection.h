// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/engineconnection.h"
#include "remoteengine.h"
#include "remotehistory.h"
#include "remotestorewatch.h"
#include "wire/engineconfigjson.h"

#include <memory>

namespace bullpen {

// A running bullpen-engine as the console holds it (`bullpen --engine URL`, Connect…): its client
// (RemoteEngine), its history (RemoteHistory), its running configuration, and the connection's state
// for the status bar. The provider keys stay with the engine.
class RemoteConnection final : public EngineConnection
{
    Q_OBJECT
public:
    explicit RemoteConnection(EngineEndpoint endpoint, QObject *parent = nullptr);
    ~RemoteConnection() override;

    void open()
    {
        m_engine->connectToEngine();
        m_storeWatch->start();
    }
    RemoteEngine &remote() { return *m_engine; }

    EngineClient &client() override { return *m_engine; }
    HistoryReader *history() const override { return m_history.get(); }
    // The engine's store's reachability (its /readyz), for the status bar; the writes are the engine's.
    HistoryWrites *historyWrites() const override { return m_storeWatch.get(); }
    StagePolicy storyboardPolicy() const override;
    const ProviderTable &providers() const override { return m_providers; }
    QStringList scenarios() const override;
    QString defaultScenario() const override;
    QString describe() const override;
    QStringList warnings() const override { return {}; }
    ComparisonRunner *newComparisonRunner(QObject *parent) override;
    // Played in this process on the built-in simulator, recorded nowhere (the history is the engine's).
    ReplayPlayer *newReplay(QObject *parent) override;
    bool attached() const override { return true; }
    QJsonObject runningConfig() const override { return m_engine->config(); }
    bool usable() const override { return m_engine->state() == RemoteEngine::State::Connected; }
    void refreshProviders() override;
    void drainProvider(const DrainRequest &drain) override;
    void restoreProvider(Provider provider) override;
    void restoreDrains(const RestoreRequest &restore) override;
    void resetBreaker(const BreakerResetRequest &reset) override;
    void refreshAudit() override;
    void refreshAlerts() override;
    void silenceAlert(const SilenceRequest &silence) override;
    void endSilence(const QString &rule) override;
    // Where this machine keeps its keys (Connect… keeps the engine's token there, 0600).
    QString keyFilePath() const override { return m_keyFile; }
    void setKeyFilePath(const QString &path) { m_keyFile = path; }

private:
    void adoptProviders(); // and reads the rest of the engine's configuration into m_config
    // A drain's or restore's answer: the providers read again, or the engine's refusal said.
    void providerAction(QNetworkReply *reply);
    void alertAction(QNetworkReply *reply);
    std::unique_ptr<RemoteEngine> m_engine;
    std::unique_ptr<RemoteHistory> m_history;
    std::unique_ptr<RemoteStoreWatch> m_storeWatch;
    QString m_keyFile;
    ProviderTable m_providers; // the built-ins and the engine's added providers (GET /v1/config)
    std::optional<EngineConfig> m_config; // GET /v1/config's answer, read; none until it arrives or when unreadable
};

} // namespace bullpen
