// SPDX-License-Identifier: MIT
#include "draindialog.h"

#include "models/words.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace bullpen {

namespace {

constexpr int kMaxReason = 500; // the engine's limit (docs/api.md, drain)

} // namespace

namespace {

// The expiries offered, each with its words (as an operator says them); 0 minutes: until restored.
struct Expiry
{
    int minutes;
    const char *label;
};
constexpr Expiry kExpiries[] = {
    { 15, QT_TRANSLATE_NOOP("bullpen::DrainDialog", "for 15 minutes") },
    { 60, QT_TRANSLATE_NOOP("bullpen::DrainDialog", "for 1 hour") },
    { 240, QT_TRANSLATE_NOOP("bullpen::DrainDialog", "for 4 hours") },
    { 0, QT_TRANSLATE_NOOP("bullpen::DrainDialog", "until restored") },
};

} // namespace

QList<std::optional<std::chrono::minutes>> DrainDialog::expiries()
{
    QList<std::optional<std::chrono::minutes>> out;
    for (const Expiry &e : kExpiries)
        out << (e.minutes > 0 ? std::optional(std::chrono::minutes(e.minutes)) : std::nullopt);
    return out;
}

DrainDialog::DrainDialog(Provider provider, std::optional<Role> role, std::optional<Stage> stage, QWidget *parent)
    : QDialog(parent)
    , m_provider(provider)
    , m_role(role)
    , m_stage(stage)
    , m_scope(new QComboBox)
    , m_reason(new QLineEdit)
    , m_expiry(new QComboBox)
    , m_effect(new QLabel)
{
    setObjectName(QStringLiteral("drainDialog"));
    setWindowTitle(tr("Drain %1").arg(toId(provider)));
    m_scope->setObjectName(QStringLiteral("drainScope"));
    if (role && stage)
        m_scope->addItem(tr("Only %1 as %2 at the %3 stage").arg(toId(provider), words::role(*role), words::stage(*stage)), true);
    else if (role)
        m_scope->addItem(tr("Only %1 as %2, at every stage").arg(toId(provider), words::role(*role)), true);
    m_scope->addItem(tr("%1 in every role and at every stage").arg(toId(provider)), false);
    m_reason->setObjectName(QStringLiteral("drainReason"));
    m_reason->setMaxLength(kMaxReason);
    m_reason->setPlaceholderText(tr("e.g. 503s since 03:10, ticket 4711"));
    m_expiry->setObjectName(QStringLiteral("drainExpiry"));
    for (const Expiry &e : kExpiries)
        m_expiry->addItem(tr(e.label));
    m_expiry->setCurrentIndex(1); // 1 h: an incident's drain that nobody restores ends by itself
    m_effect->setObjectName(QStringLiteral("drainEffect"));
    m_effect->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("drainConfirm"));
    m_ok->setText(tr("Drain"));
    auto *form = new QFormLayout(this);
    form->addRow(tr("Applies to"), m_scope);
    form->addRow(tr("Why"), m_reason);
    form->addRow(tr("How long"), m_expiry);
    form->addRow(m_effect);
    form->addRow(buttons);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &DrainDialog::updateText);
    connect(m_expiry, &QComboBox::currentIndexChanged, this, &DrainDialog::updateText);
    connect(m_reason, &QLineEdit::textChanged, this, &DrainDialog::updateText);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_reason->text().trimmed().isEmpty())
            return; // the button is disabled then; Enter in the field lands here
        const DrainRequest r = request();
        accept();
        Q_EMIT drainAccepted(r);
    });
    updateText();
    setMinimumWidth(std::min(560, 40 * fontMetrics().averageCharWidth()));
}

DrainRequest DrainDialog::request(const QDateTime &nowUtc) const
{
    DrainRequest r;
    r.provider = m_provider;
    if (m_scope->currentData().toBool()) {
        r.role = m_role;
        r.stage = m_stage;
    }
    r.reason = m_reason->text().trimmed();
    if (const auto e = expiries().value(m_expiry->currentIndex()))
        r.until = nowUtc.addSecs(std::chrono::seconds(*e).count());
    return r;
}

void DrainDialog::updateText()
{
    const DrainRequest r = request();
    const QString id = toId(m_provider);
    QString what;
    if (r.role && r.stage)
        what = r.role == Role::Primary
            ? tr("Requests of the %1 stage go straight to its fallback, with the whole budget, instead of %2. If the stage has no "
                 "usable fallback, %2 is still called. Every other stage and role of %2 is unchanged.")
                  .arg(words::stage(*r.stage), id)
            : tr("%1 is not used as the fallback of the %2 stage; a failing primary there fails without a fallback. Every other "
                 "stage and role of %1 is unchanged.")
                  .arg(id, words::stage(*r.stage));
    else
        what = tr("Every stage with %1 as its primary goes straight to its fallback, with the whole budget; stages with no usable "
                  "fallback still call %1, and %1 is not used as anyone's fallback.")
                   .arg(id);
    const QString until = r.until
        ? tr("It ends by itself at %1, or when restored.").arg(QLocale().toString(r.until->toLocalTime().time(), QStringLiteral("HH:mm")))
        : tr("It lasts until someone restores it.");
    m_effect->setText(what + QLatin1Char(' ') + until);
    m_ok->setEnabled(!r.reason.isEmpty());
    m_ok->setToolTip(r.reason.isEmpty() ? tr("Say why first: the audit and the other operators read it") : QString());
}

} // namespace bullpen
