// SPDX-License-Identifier: MIT
#include "runview.h"

#include "config/settings.h"
#include "contract/providerregistry.h"
#include "models/units.h"
#include "providerpicker.h"
#include "sim/scenario.h"
#include "tones.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace bullpen {

RunView::RunView(const StagePolicy &defaults, const QStringList &scenarios, const ProviderTable &providers, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("runView"));
    m_story = new QPlainTextEdit;
    m_story->setTabChangesFocus(true); // Tab leaves the story (a story has no use for a tab character)
    m_story->setObjectName(QStringLiteral("storyEdit"));
    m_story->setPlaceholderText(tr("Write a short story (Korean or English)…"));
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(tr("user id (stored only as a keyed hash and a mask)"));
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("presetCombo"));
    m_preset->addItems(StagePolicy::presetNames());
    m_preset->setCurrentText(defaults.preset);
    m_primary = new QComboBox;
    m_primary->setObjectName(QStringLiteral("primaryCombo"));
    m_fallback = new QComboBox;
    m_fallback->setObjectName(QStringLiteral("fallbackCombo"));
    m_fallback->addItem(tr("none"), QString());
    setProviders(providers);
    m_primary->setCurrentIndex(m_primary->findData(toId(defaults.primary)));
    m_fallback->setCurrentIndex(defaults.fallback ? m_fallback->findData(toId(*defaults.fallback)) : 0);
    m_primaryTimeout = new QLineEdit(units::field(defaults.primaryTimeout));
    m_primaryTimeout->setObjectName(QStringLiteral("primaryTimeoutEdit"));
    m_fallbackTimeout = new QLineEdit(units::field(defaults.fallbackTimeout));
    m_fallbackTimeout->setObjectName(QStringLiteral("fallbackTimeoutEdit"));
    m_budget = new QLineEdit;
    m_budget->setObjectName(QStringLiteral("budgetEdit"));
    m_budget->setPlaceholderText(tr("primary + fallback"));
    m_scenario = new QComboBox;
    m_scenario->setObjectName(QStringLiteral("scenarioCombo"));
    // Scenario names are ids and their descriptions the scenario files' own text (in English): data,
    // like a story, not the interface's words.
    m_scenario->setProperty("content", true);
    connect(m_scenario, &QComboBox::currentIndexChanged, m_scenario,
            [this] { m_scenario->setToolTip(m_scenario->currentData(Qt::ToolTipRole).toString()); });
    addScenarios(scenarios);
    m_count = new QSpinBox;
    m_count->setRange(2, 500);
    m_count->setValue(20);
    m_generate = new QPushButton(tr("Generate"));
    m_generate->setObjectName(QStringLiteral("generateButton"));
    m_generate->setDefault(true);
    m_generateMany = new QPushButton(tr("Generate ×N"));
    m_generateMany->setObjectName(QStringLiteral("generateManyButton"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_compare = new QPushButton(tr("Compare"));
    m_compare->setObjectName(QStringLiteral("runCompareButton"));
    m_compare->setToolTip(tr("Run the story on the primary and on the fallback provider at once, each alone, and show them side by side"));
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("settingsError"));
    m_error->setStyleSheet(tones::textStyle(tones::Tone::Failure));
    m_error->setWordWrap(true);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("runStatus"));

    auto *form = new QFormLayout;
    m_form = form;
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Policy"), m_preset);
    form->addRow(tr("Primary"), m_primary);
    form->addRow(tr("Fallback"), m_fallback);
    form->addRow(tr("Primary timeout"), m_primaryTimeout);
    form->addRow(tr("Fallback timeout"), m_fallbackTimeout);
    form->addRow(tr("Stage budget"), m_budget);
    form->addRow(tr("Simulator scenario"), m_scenario);
    form->addRow(QString(), m_error);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_generate);
    buttons->addWidget(m_generateMany);
    buttons->addWidget(m_count);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_cancel);
    buttons->addStretch();
    buttons->addWidget(m_status);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Story")));
    layout->addWidget(m_story, 1);
    layout->addLayout(form);
    layout->addLayout(buttons);

    for (QComboBox *c : { m_preset, m_primary, m_fallback })
        connect(c, &QComboBox::currentIndexChanged, this, &RunView::validate);
    for (QLineEdit *e : { m_primaryTimeout, m_fallbackTimeout, m_budget })
        connect(e, &QLineEdit::textChanged, this, &RunView::validate);
    connect(m_story, &QPlainTextEdit::textChanged, this, &RunView::validate);
    connect(m_generate, &QPushButton::clicked, this, [this] { Q_EMIT generateRequested(1); });
    connect(m_generateMany, &QPushButton::clicked, this, [this] { Q_EMIT generateRequested(m_count->value()); });
    connect(m_cancel, &QPushButton::clicked, this, &RunView::cancelRequested);
    connect(m_compare, &QPushButton::clicked, this, &RunView::compareRequested);
    form->setRowVisible(m_scenario, !scenarios.isEmpty());
    validate();
    setRunning(0);
}

// Each scenario with what it does as its tooltip (the simulator's own description: "primary-outage"
// is healthy for its first 10 s, which a first try would otherwise read as the outage not working).
void RunView::addScenarios(const QStringList &scenarios)
{
    m_scenario->clear();
    for (const QString &name : scenarios) {
        const std::optional<Scenario> s = Scenario::load(name, nullptr);
        m_scenario->addItem(name);
        if (s && !s->description.isEmpty())
            m_scenario->setItemData(m_scenario->count() - 1, s->description, Qt::ToolTipRole);
    }
    m_scenario->setEnabled(!scenarios.isEmpty());
    m_scenario->setToolTip(m_scenario->currentData(Qt::ToolTipRole).toString());
}

void RunView::setProviders(const ProviderTable &providers)
{
    const auto id = [](Provider p) {
        return toId(p);
    };
    fillProviderPicker(m_primary, providers.all(), 0, id);
    fillProviderPicker(m_fallback, providers.all(), 1, id); // after "none"
}

void RunView::setEngineDefaults(const StagePolicy &defaults, const QStringList &scenarios, const QString &scenario)
{
    m_preset->setCurrentIndex(std::max(0, m_preset->findText(defaults.preset)));
    m_primary->setCurrentIndex(m_primary->findData(toId(defaults.primary)));
    m_fallback->setCurrentIndex(defaults.fallback ? m_fallback->findData(toId(*defaults.fallback)) : 0);
    m_primaryTimeout->setText(units::field(defaults.primaryTimeout));
    m_fallbackTimeout->setText(units::field(defaults.fallbackTimeout));
    addScenarios(scenarios);
    if (!scenario.isEmpty())
        m_scenario->setCurrentText(scenario);
    m_form->setRowVisible(m_scenario, !scenarios.isEmpty());
    validate();
}

QString RunView::story() const
{
    return m_story->toPlainText();
}
QString RunView::userId() const
{
    return m_user->text();
}
QString RunView::scenario() const
{
    return m_scenario->isEnabled() ? m_scenario->currentText() : QString();
}
void RunView::setStory(const QString &story)
{
    m_story->setPlainText(story);
}
void RunView::setScenario(const QString &name)
{
    m_scenario->setCurrentText(name);
}

void RunView::setRunning(int running)
{
    m_cancel->setEnabled(running > 0);
    m_status->setText(running > 0 ? tr("Generations running: %L1").arg(running) : QString());
}

std::optional<StagePolicy> RunView::policy() const
{
    const auto primary = providerFromId(m_primary->currentData().toString());
    const QString fb = m_fallback->currentData().toString();
    const std::optional<Provider> fallback = fb.isEmpty() ? std::nullopt : providerFromId(fb);
    if (!primary || (fallback && *fallback == *primary))
        return std::nullopt;
    auto p = StagePolicy::fromPreset(m_preset->currentText(), *primary, fallback);
    const auto pt = parseDuration(m_primaryTimeout->text());
    const auto ft = parseDuration(m_fallbackTimeout->text());
    if (!p || !pt || !ft)
        return std::nullopt;
    p->primaryTimeout = *pt;
    p->fallbackTimeout = *ft;
    if (!m_budget->text().trimmed().isEmpty()) {
        const auto b = parseDuration(m_budget->text());
        if (!b)
            return std::nullopt;
        p->totalBudget = *b;
    }
    return p;
}

void RunView::validate()
{
    QStringList errors;
    QString why;
    if (m_primary->currentData() == m_fallback->currentData())
        errors << tr("Fallback: the same provider as the primary; choose another or none (STORYBOARD_FALLBACK_PROVIDER).");
    if (!parseDuration(m_primaryTimeout->text(), &why))
        errors << tr("Primary timeout: %1").arg(why);
    if (!parseDuration(m_fallbackTimeout->text(), &why))
        errors << tr("Fallback timeout: %1").arg(why);
    if (!m_budget->text().trimmed().isEmpty() && !parseDuration(m_budget->text(), &why))
        errors << tr("Stage budget: %1").arg(why);
    m_error->setText(errors.join(QLatin1Char('\n')));
    const bool ok = errors.isEmpty() && !m_story->toPlainText().trimmed().isEmpty() && m_engineAvailable;
    m_generate->setEnabled(ok);
    m_generateMany->setEnabled(ok);
    m_count->setEnabled(ok);
    m_compare->setEnabled(ok && m_fallback->currentIndex() > 0);
    const QString unavailable = m_engineAvailable ? QString() : tr("The engine cannot take a generation now: %1").arg(m_engineWhy);
    for (QPushButton *b : { m_generate, m_generateMany, m_compare })
        b->setToolTip(unavailable);
}

void RunView::focusStory()
{
    m_story->setFocus(Qt::ShortcutFocusReason);
}

void RunView::setEngineAvailable(bool available, const QString &why)
{
    m_engineAvailable = available;
    m_engineWhy = why;
    validate();
}

} // namespace bullpen
