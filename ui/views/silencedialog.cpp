// SPDX-License-Identifier: MIT
#include "silencedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace bullpen {

SilenceDialog::SilenceDialog(const QString &rule, QWidget *parent)
    : QDialog(parent)
    , m_rule(rule)
    , m_length(new QComboBox)
    , m_reason(new QLineEdit)
{
    setObjectName(QStringLiteral("silenceDialog"));
    setWindowTitle(tr("Silence %1").arg(rule));
    m_length->setObjectName(QStringLiteral("silenceLength"));
    for (const std::chrono::minutes length : AlertBoard::kSilenceLengths)
        m_length->addItem(length < std::chrono::hours(1)        ? tr("for %1 minutes").arg(length.count())
                              : length == std::chrono::hours(1) ? tr("for 1 hour")
                                                                : tr("for %1 hours").arg(length.count() / 60),
                          QVariant::fromValue(qint64(std::chrono::seconds(length).count())));
    m_length->setCurrentIndex(1); // 1 h
    m_reason->setObjectName(QStringLiteral("silenceReason"));
    m_reason->setMaxLength(500); // the engine's limit (docs/api.md, "Alerts")
    m_reason->setPlaceholderText(tr("e.g. known outage, ticket 4711"));
    auto *effect = new QLabel(tr("Its alerts stay listed and keep their state; no desktop notification is raised for them until "
                                 "the silence ends. It ends on its own, or with End silence."));
    effect->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("silenceConfirm"));
    m_ok->setText(tr("Silence"));
    m_ok->setEnabled(false);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Why"), m_reason);
    form->addRow(tr("How long"), m_length);
    form->addRow(effect);
    form->addRow(buttons);
    connect(m_reason, &QLineEdit::textChanged, this, [this](const QString &text) { m_ok->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_reason->text().trimmed().isEmpty())
            return; // the button is disabled then; Enter in the field lands here
        const SilenceRequest r = request();
        accept();
        Q_EMIT silenceAccepted(r);
    });
    setMinimumWidth(std::min(560, 40 * fontMetrics().averageCharWidth()));
}

SilenceRequest SilenceDialog::request() const
{
    return SilenceRequest { m_rule, std::chrono::seconds(m_length->currentData().toLongLong()), m_reason->text().trimmed() };
}

} // namespace bullpen
