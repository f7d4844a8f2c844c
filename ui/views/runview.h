// SPDX-License-Identifier: MIT
#pragma once

#include "contract/providertable.h"
#include "engine/stagepolicy.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace bullpen {

// docs/contract.md §9.1: story, user id, policy preset, providers, timeouts and budget, simulator scenario;
// Generate, Generate ×N, Cancel. A setting that start-up would refuse (docs/contract.md §4.6) shows its error beside
// the field and Generate stays off.
class RunView final : public QWidget
{
    Q_OBJECT
public:
    // `providers`: the engine's (EngineConnection::providers()), for the primary and fallback pickers.
    RunView(const StagePolicy &defaults, const QStringList &scenarios, const ProviderTable &providers, QWidget *parent = nullptr);

    QString story() const;
    QString userId() const;
    QString scenario() const; // empty without the simulator
    // The policy the fields describe; nothing while a field is invalid.
    std::optional<StagePolicy> policy() const;
    void setStory(const QString &story);
    void setScenario(const QString &name);
    // The engine's defaults, when they arrive after the view was made (an attached engine's
    // configuration): providers, timeouts and, where a simulator answers, its scenarios. The scenario
    // row is shown only then.
    void setEngineDefaults(const StagePolicy &defaults, const QStringList &scenarios, const QString &scenario);
    // The primary and fallback pickers list these (the engine's: EngineConnection::providers()).
    void setProviders(const ProviderTable &providers);
    void setRunning(int running);
    // Whether the engine can take a generation now; when not, Generate, Generate ×N and Compare are
    // off and their tooltip says why (`why`: the engine, named, and what is wrong with it).
    void setEngineAvailable(bool available, const QString &why = {});
    // The keyboard in the story (Ctrl+L, and at start): typing goes there first.
    void focusStory();

Q_SIGNALS:
    void generateRequested(int count);
    void cancelRequested();
    void compareRequested();

private:
    void validate();
    void addScenarios(const QStringList &scenarios);

    QPlainTextEdit *m_story;
    QLineEdit *m_user;
    QComboBox *m_preset;
    QComboBox *m_primary;
    QComboBox *m_fallback;
    QLineEdit *m_primaryTimeout;
    QLineEdit *m_fallbackTimeout;
    QLineEdit *m_budget;
    QComboBox *m_scenario;
    QFormLayout *m_form = nullptr;
    QSpinBox *m_count;
    QPushButton *m_generate;
    QPushButton *m_generateMany;
    QPushButton *m_cancel;
    QPushButton *m_compare;
    QLabel *m_error;
    QLabel *m_status;
    bool m_engineAvailable = true;
    QString m_engineWhy;
};

} // namespace bullpen
