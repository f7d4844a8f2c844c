// SPDX-License-Identifier: MIT
#pragma once

#include "config/enginecontext.h"
#include "config/processlimits.h"
#include "config/settings.h"
#include "engine/alertboard.h"
#include "engine/stageservice.h"
#include "enginestack.h"
#include "localengine.h"
#include "pipeline/comparison.h"
#include "pipeline/engineconnection.h"
#include "sim/providersimulator.h"
#include "sim/simulatorthread.h"
#include "store/masking.h"
#include "store/store.h"

#include <QJsonArray>
#include <QObject>
#include <QTimer>

#include <memory>

namespace bullpen {

class SilenceRecords;

// What a front end (CLI, console, tests) asks for.
struct SetupOptions
{
    QString settingsFile; // empty: the default location
    QString keyFile; // empty: the default location
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    bool forceSimulator = false; // run on the simulator even when keys are configured
    QString scenario; // built-in name or file; only with the simulator
    quint16 simulatorPort = 0; // 0: any free port
    QString dataDir; // empty: BULLPEN_DATA_DIR, else the user's data location
    bool useStore = true; // false: nothing is written (e.g. --no-store)
    // With useStore false: the generations are written into this store (another engine's, which owns
    // it and must outlive this one) instead of none. A replay (docs/contract.md §14) is recorded so.
    Store *writeInto = nullptr;
    const Masking *writeIntoMasking = nullptr;
    bool namedFilesMustExist = false; // settingsFile/keyFile were typed by the user: a missing one is refused
    // 0: the engine runs on the calling thread (pipeline() and the stage accessors work). n > 0: on n
    // engine threads (engine() only). kThreadsFromEnvironment: BULLPEN_ENGINE_THREADS, else the cores.
    static constexpr int kThreadsFromEnvironment = -1;
    int engineThreads = 0;
    // Look for provider keys in the system keychain too (keychain/secretstore.h): the console does; the
    // service (systemd credentials) and the CLI do not.
    bool useKeychain = false;
    // The clock the engine runs on (EngineContext::clock): a test's, which must outlive the engine and is
    // refused with engine threads (a ManualClock fires its timers on the thread that advances it); none:
    // the steady clock.
    Clock *clock = nullptr;
};

// Builds the engine the way every front end runs it: settings loaded and validated (docs/contract.md §4.6); with no
// provider key at all (or when asked), the built-in simulator started in-process on 127.0.0.1 and every
// provider pointed at it over real HTTP (docs/contract.md §7, 8); the storyboard client and the generation service
// wired together.
class EngineSetup final : public EngineConnection
{
    Q_OBJECT
public:
    explicit EngineSetup(QObject *parent = nullptr);
    ~EngineSetup() override;

    // False on a refusal; errors() then names each setting and what to do.
    bool init(const SetupOptions &options);
    // The keys the system keychain holds for `providers` (empty where there is none).
    static QProcessEnvironment keychainKeys(const ProviderTable &providers = ProviderTable());
    const QList<ConfigError> &errors() const { return m_errors; }

    const Settings &settings() const { return m_settings; }
    StagePolicy storyboardPolicy() const override { return m_settings.storyboardPolicy(); }
    const ProviderTable &providers() const override { return m_settings.providerTable; }
    BreakerSettings breakerSettings() const override { return m_settings.breaker; }
    bool usingSimulator() const { return m_simulator != nullptr; }
    ProviderSimulator *simulator() const { return m_simulator; }
    // The engine: start, cancel, events and results, whichever thread it runs on.
    LocalEngine &engine() const { return *m_engine; }
    // Only with engineThreads == 0, for tests and tools that drive the parts on their own thread:
    StoryboardClient &storyboardClient() const { return m_engine->inlineStack()->storyboardClient(); }
    // The storyboard stage's service (events and results of that stage alone).
    StageService &service() const { return m_engine->inlineStack()->storyboard(); }
    // The whole generation: storyboard, captions, image, storage, cache.
    GenerationPipeline &pipeline() const { return m_engine->inlineStack()->pipeline(); }
    // Attempts in flight and generations waiting, per provider, across every stage.
    Admission &admission() const { return m_engine->inlineStack()->admission(); }
    PipelineOptions pipelineOptions() const;
    // A line for people: which providers are live, or that the simulator is in use and where.
    QString describe() const override;
    // Things to fix that do not stop the engine, one line each: a configured model past or near its
    // announced end of life (config/modeldeprecations.h).
    QStringList warnings() const override;

    // EngineConnection: the embedded engine as the console holds it.
    EngineClient &client() override { return *m_engine; }
    QStringList scenarios() const override;
    QString defaultScenario() const override;
    bool attached() const override { return false; }
    void refreshProviders() override;
    void drainProvider(const DrainRequest &drain) override;
    void restoreProvider(Provider provider) override;
    void restoreDrains(const RestoreRequest &restore) override;
    void resetBreaker(const BreakerResetRequest &reset) override;
    void refreshAudit() override;
    void refreshAlerts() override;
    void silenceAlert(const SilenceRequest &silence) override;
    void endSilence(const QString &rule) override;

    // The shipped alert rules (docs/api.md, "Alerts") are evaluated here every kAlertInterval from
    // init() on, whether or not a view or a client asks: each change goes out as alertChanged (the
    // event stream's alert_* notice, without the instance), then the whole list as alertsChanged.
    static constexpr std::chrono::seconds kAlertInterval { 5 };
    void evaluateAlerts();
    // GET /v1/alerts' answer, and the silences an operator sets (the service audits them with its
    // token's name; the console's own through silenceAlert, as "console").
    QJsonObject alertsJson(const QString &instance) const;
    AlertBoard &alertBoard() { return m_alerts; }
    // An operator's silence (made by AlertBoard::makeSilence) put in force, and a rule's silence ended
    // early by `by`: kept in the store first when there is one, so that every engine sharing it obeys
    // and a restart keeps it. Nothing, with *storeError, when the store refused; an ended silence is
    // nothing with *storeError empty when the rule was not silenced.
    std::optional<Silence> putSilence(const Silence &made, QString *storeError);
    std::optional<Silence> liftSilence(const QString &rule, const QString &by, QString *storeError);
    // The silences in the store become this engine's (AlertBoard::adoptSilences), and those that ran out
    // here are marked so there. The store is read at most every kSilenceRefresh unless `force`: at each
    // evaluation, for GET /v1/alerts, and at once when another engine announces a change (PostgreSQL).
    static constexpr std::chrono::seconds kSilenceRefresh { 1 };
    void syncSilences(bool force = false);
    // Tests: the clock alerts and silences are judged on (the engine's, EngineContext::clock, unless set;
    // outlives this).
    void setAlertClock(const Clock &clock) { m_alertClock = &clock; }
    const Clock &alertClock() const { return m_alertClock ? *m_alertClock : *m_context.clock; }

    // Starts a whole generation (the pipeline) and records it: every event, and the final state with the
    // user's keyed hash and display mask (never the raw id) once it ends.
    QString startGeneration(const GenerationRequest &request);
    Store *store() const { return m_store.get(); }
    // The history as front ends read it (typed queries; no store type above it), and how its writes
    // are going. Both null without a store (--no-store).
    HistoryReader *history() const override { return m_store.get(); }
    HistoryWrites *historyWrites() const override { return m_store.get(); }
    // Side-by-side comparisons on this engine, recorded in this store.
    ComparisonRunner *newComparisonRunner(QObject *parent) override;
    const Masking *masking() const { return m_masking ? &*m_masking : nullptr; }
    QString dataDir() const override { return m_dataDir; }
    // Where a replay started here is recorded (newReplay): this store and its masking key.
    Store *replayStore() const { return m_store.get(); }
    const Masking *replayMasking() const { return masking(); }
    ReplayPlayer *newReplay(QObject *parent) override;
    QString settingsFilePath() const override { return m_settingsFilePath; }
    QString keyFilePath() const override { return m_keyFilePath; }
    QProcessEnvironment environment() const override { return m_environment; }

    // The proxy routes (proxyrules.h) from the settings file's `proxy`, BULLPEN_PROXY and the usual
    // environment variables: for front ends that attach to an engine without setting one up, which
    // hand them to their endpoints (EngineEndpoint::routes). Null with the reason when a proxy
    // variable does not parse.
    static std::shared_ptr<ProxyRoutes> proxyRoutes(const QProcessEnvironment &environment, QString *error);
    // What calls go through, for the status line: "direct (no proxy)" or the proxies and exceptions.
    QString proxyDescription() const { return m_proxyDescription; }
    // What this engine owns (its proxy routes; its providers are m_settings.providerTable).
    const EngineContext &context() const { return m_context; }

    static QString defaultSettingsFile();
    static QString defaultKeyFile();
    static QString defaultDataDir(const QProcessEnvironment &environment);

Q_SIGNALS:
    void alertChanged(const QJsonObject &alert);

private:
    bool openStore(const SetupOptions &options);
    bool startSimulator(const SetupOptions &options);
    bool installNetworkRules(const SetupOptions &options);
    void emitAlerts(); // alertsChanged, queued
    // This console's own actions (who: "console") and its engine's breaker transitions ("engine"), newest first.
    void auditConsole(const QString &action, const QString &target, const QString &who = QStringLiteral("console"));
    QJsonArray m_consoleAudit;
    AlertBoard m_alerts; // the shipped rules, evaluated by m_alertTimer and at each refreshAlerts()
    std::unique_ptr<SilenceRecords> m_silenceRecords; // the silences in the store, shared by every engine on it
    std::optional<Clock::time_point> m_silencesRead; // when syncSilences last read them (the steady clock)
    QString m_silenceSyncError; // the last failure, said once
    QTimer m_alertTimer;
    const Clock *m_alertClock = nullptr; // none: the engine's
    Settings m_settings;
    EngineContext m_context; // made here, handed down to the engine's stacks
    QList<ConfigError> m_errors;
    bool m_simulatedFallback = false;
    QString m_dataDir;
    QString m_proxyDescription;
    QString m_settingsFilePath;
    QString m_keyFilePath;
    QProcessEnvironment m_environment;
    std::unique_ptr<Store> m_store;
    std::optional<Masking> m_masking;

    std::unique_ptr<SimulatorThread> m_simulatorThread;
    ProviderSimulator *m_simulator = nullptr; // m_simulatorThread's
    std::unique_ptr<LocalEngine> m_engine;
};

} // namespace bullpen
