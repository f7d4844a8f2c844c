// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/event.h"
#include "replay/replaysource.h"

#include <QDialog>
#include <QTemporaryDir>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace bullpen {

struct GenerationResult;
class ReplayPlayer;
class TimelineWidget;

// Failures → Replay locally… (docs/contract.md §14, docs/console.md): the selected generation played
// again in an engine of its own on the built-in simulator (a ReplayPlayer its engine connection made), under the recorded policy
// or edited settings (timeouts, budget, fallback provider, breaker). The recorded and the replayed
// timelines are drawn one above the other on the same scale, with the verdict under them.
class ReplayDialog final : public QDialog
{
    Q_OBJECT
public:
    // Plays with `player` (EngineConnection::newReplay), which it takes over: the player says whether
    // each replay is kept in the history (embedded) or not (attached).
    // `providers`: the engine's (EngineConnection::providers()); its storyboard providers are the fallbacks offered.
    ReplayDialog(ReplaySource source, const QList<Event> &recordedEvents, ReplayPlayer *player, const ProviderTable &providers,
                 QWidget *parent = nullptr);
    ~ReplayDialog() override;

    // Starts the replay (the Replay button's work); false, with the reason shown, when it cannot start.
    bool startReplay();
    QString verdictText() const;
    bool running() const;
    // The settings file the replay runs under (for tests): the recorded policy, or it edited.
    QJsonObject replaySettings() const;
    // The last replay as a bug report (docs/contract.md §14; the Export… button's work, after it asks
    // where): false, with *why, before a replay has ended or when the file cannot be written.
    bool exportReport(const QString &path, QString *why) const;

Q_SIGNALS:
    void replayFinished(bool reproduced);

private:
    void finished(const GenerationResult &result);
    void askAndExport();
    QWidget *settingsBox(const ProviderTable &providers);

    ReplaySource m_source;
    ReplayScenario m_scenario;
    QTemporaryDir m_work;
    ReplayPlayer *m_runner;
    ProviderTable m_providers; // the engine's: its added providers are named in the replay's settings
    QList<Event> m_replayEvents;
    QRadioButton *m_asRecorded = nullptr;
    QLineEdit *m_primaryTimeout = nullptr;
    QLineEdit *m_fallbackTimeout = nullptr;
    QLineEdit *m_budget = nullptr;
    QComboBox *m_fallback = nullptr;
    QCheckBox *m_breaker = nullptr;
    TimelineWidget *m_recorded = nullptr;
    TimelineWidget *m_replayed = nullptr;
    QLabel *m_verdict = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_export = nullptr;
    bool m_runAsRecorded = true; // what the running replay was started with (the radio may change meanwhile)
    QJsonObject m_runSettings; // and its settings
    QJsonObject m_report; // the last replay's, for Export…
};

} // namespace bullpen
