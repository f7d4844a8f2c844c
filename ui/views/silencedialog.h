// SPDX-License-Identifier: MIT
#pragma once

#include "pipeline/engineconnection.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace bullpen {

// Acknowledge = silence (docs/console.md, "Control view"): an alert rule's notifications stop for
// 15 min, 1 h or 4 h (AlertBoard::kSilenceLengths), with why (required: the audit and the other
// operators read it). It holds its own copy of the rule, so the list behind it may refresh while it is
// open. Opened with open(); silenceAccepted() carries the request.
class SilenceDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SilenceDialog(const QString &rule, QWidget *parent = nullptr);
    SilenceRequest request() const;

Q_SIGNALS:
    void silenceAccepted(const bullpen::SilenceRequest &request);

private:
    QString m_rule;
    QComboBox *m_length;
    QLineEdit *m_reason;
    QPushButton *m_ok;
};

} // namespace bullpen
