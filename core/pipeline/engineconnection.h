// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/alertboard.h"
#include "engine/breakersettings.h"
#include "engine/stagepolicy.h"
#include "pipeline/engineclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>

#include <chrono>

namespace bullpen {

class ComparisonRunner;
class HistoryReader;
class HistoryWrites;
class ReplayPlayer;

// An operator's drain as a front end asks for it (docs/contract.md §13): one provider, in one role and
// at one stage or (left out) in all of them, with a reason, until restored or until `until`.
struct DrainRequest
{
    Provider provider = Provider::Gemini;
    std::optional<Role> role; // none: every role
    std::optional<Stage> stage; // none: every stage
    QString reason;
    std::optional<QDateTime> until; // none: until restored
};

// The restore of the drains of one provider made for exactly `role` and `stage` (none: any), and the reset
// of one breaker (role and stage both given), as a front end asks for them (docs/api.md, "Providers").
struct RestoreRequest
{
    Provider provider = Provider::Gemini;
    std::optional<Role> role;
    std::optional<Stage> stage;
    QString reason;
};
struct BreakerResetRequest
{
    Provider provider = Provider::Gemini;
    Role role = Role::Primary;
    Stage stage = Stage::Storyboard;
    QString reason;
};

// An operator's silence of one alert rule for one of AlertBoard::kSilenceLengths (docs/api.md, "Alerts").
struct SilenceRequest
{
    QString rule;
    std::chrono::seconds length { 0 };
    QString reason;
};

// An engine as a front end holds it (docs/contract.md §12, docs/architecture.md): embedded in this process
// (EngineSetup) or attached to a running bullpen-engine (RemoteConnection). The console's views use
// only this, so every view works the same in both modes.
class EngineConnection : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual EngineClient &client() = 0;
    // The history the views read; null when nothing is recorded (--no-store).
    virtual HistoryReader *history() const = 0;
    // How the history's writes are going, where this process writes them (embedded only; null attached).
    virtual HistoryWrites *historyWrites() const = 0;
    // The storyboard policy requests start from (the Run view's defaults).
    virtual StagePolicy storyboardPolicy() const = 0;
    // What each provider is for this engine: the built-ins and those its settings add (attached: read
    // from its GET /v1/config). The views' pickers, filters and cards list these; the process's own
    // registry is not written by attaching (docs/architecture.md, "The engine's providers").
    virtual const ProviderTable &providers() const = 0;
    // The breaker's settings (docs/contract.md §13) the engine runs with, as the Tune panel replays them;
    // attached: the shipped ones (the engine's own, in GET /v1/providers, are not read for this yet).
    virtual BreakerSettings breakerSettings() const { return {}; }
    // The built-in simulator's scenarios where a simulator answers; empty for real providers.
    virtual QStringList scenarios() const = 0;
    virtual QString defaultScenario() const = 0;
    // A line for the status bar: which engine, which providers or the simulator, the connection.
    virtual QString describe() const = 0;
    virtual QStringList warnings() const = 0;
    virtual ComparisonRunner *newComparisonRunner(QObject *parent) = 0;
    // A replay started here (docs/contract.md §14), played in an engine of its own on the built-in
    // simulator in this process; the connection decides where it is recorded: embedded, in the engine's
    // store under its masking key; attached, nowhere (the history is the engine's).
    virtual ReplayPlayer *newReplay(QObject *parent) = 0;

    // Attached: the engine's running configuration (GET /v1/config), shown read-only; embedded: empty,
    // and the settings are this machine's files (settingsFilePath …).
    virtual bool attached() const = 0;
    virtual QJsonObject runningConfig() const { return {}; }
    virtual QString settingsFilePath() const { return {}; }
    virtual QString keyFilePath() const { return {}; }
    virtual QString dataDir() const { return {}; }
    virtual QProcessEnvironment environment() const { return {}; }
    // Attached: the connection is healthy (connected), not merely configured.
    virtual bool usable() const { return true; }

    // Breakers and drains (docs/contract.md §13), in GET /v1/providers' shape. refreshProviders() asks,
    // providersChanged() answers (embedded: from the event loop; attached: when the engine answers).
    virtual void refreshProviders() { }
    // An operator's drain, and the restore of every drain of a provider; providersChanged follows, or
    // providerActionFailed with the reason (attached with a viewer's token: the engine's 403).
    virtual void drainProvider(const DrainRequest &drain) { Q_UNUSED(drain); }
    virtual void restoreProvider(Provider provider) { Q_UNUSED(provider); }
    // The Control view's Restore of one row and Reset of one breaker (audited); providersChanged
    // follows, or providerActionFailed.
    virtual void restoreDrains(const RestoreRequest &restore) { Q_UNUSED(restore); }
    virtual void resetBreaker(const BreakerResetRequest &reset) { Q_UNUSED(reset); }
    // The audit trail, newest first, in GET /v1/audit's shape ({"at", "token", "action", "target",
    // "instance"}); auditChanged answers. Embedded: this console's own drains, restores and resets.
    virtual void refreshAudit() { }
    // The engine's alerts in GET /v1/alerts' shape; alertsChanged answers (embedded: evaluated here,
    // and every few seconds whether or not anything asks).
    virtual void refreshAlerts() { }
    // Acknowledge = silence an alert rule for a while, or end its silence (operators; audited);
    // alertsChanged follows, or providerActionFailed with the reason.
    virtual void silenceAlert(const SilenceRequest &silence) { Q_UNUSED(silence); }
    virtual void endSilence(const QString &rule) { Q_UNUSED(rule); }

Q_SIGNALS:
    // describe() or usable() changed (a remote engine connected, was lost, came back).
    void statusChanged();
    // The running configuration arrived or changed (attached).
    void configChanged();
    void providersChanged(const QJsonObject &providers);
    void providerActionFailed(const QString &message);
    void auditChanged(const QJsonArray &entries);
    void alertsChanged(const QJsonObject &alerts);
};

} // namespace bullpen
