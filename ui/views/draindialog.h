// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/engineconnection.h"

#include <QDialog>

#include <chrono>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace bullpen {

// The one way an operator drains a provider from the console (docs/console.md, "Drain and restore"):
// which roles and stages change (a card's own, or every one of the provider), why (required: the
// audit and the other operators read it) and for how long (15 min, 1 h, 4 h or until restored). It
// holds its own copy of what it drains, so the views behind it may refresh, or drop the card it was
// opened from, while it is open. Opened with open(); drainAccepted() carries the request.
class DrainDialog final : public QDialog
{
    Q_OBJECT
public:
    DrainDialog(Provider provider, std::optional<Role> role, std::optional<Stage> stage, QWidget *parent = nullptr);

    // The drain as filled in now; `until` from `nowUtc` plus the chosen expiry.
    DrainRequest request(const QDateTime &nowUtc = QDateTime::currentDateTimeUtc()) const;
    // The expiries offered, in order; none: until restored.
    static QList<std::optional<std::chrono::minutes>> expiries();

Q_SIGNALS:
    void drainAccepted(const bullpen::DrainRequest &request);

private:
    void updateText();

    Provider m_provider;
    std::optional<Role> m_role;
    std::optional<Stage> m_stage;
    QComboBox *m_scope;
    QLineEdit *m_reason;
    QComboBox *m_expiry;
    QLabel *m_effect;
    QPushButton *m_ok;
};

} // namespace bullpen
