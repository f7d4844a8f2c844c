// SPDX-License-Identifier: MIT
#pragma once

#include "models/controltext.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;

namespace bullpen {

class AlertListModel;
class AuditLogModel;
class BreakerListModel;
class DrainListModel;
class ProbeListModel;
class EngineConnection;

// The Control view (docs/console.md, "Control view"; docs/contract.md §15): the active drains with what
// remains of each (ticking once a second) and Restore per row, Drain… with the one DrainDialog, the
// breakers per provider × role × stage with an audited Reset, the prober's targets with their last
// result and next due time (where a prober runs; otherwise it says so), the engine's alerts with Silence… and End
// silence per rule (acknowledge = silence, audited), and the audit trail with a filter and an export. It holds the engine only as an
// EngineConnection (embedded and attached alike); refreshes update its models in place, so a menu or a dialog opened from it survives them.
class ControlView final : public QWidget
{
    Q_OBJECT
public:
    explicit ControlView(EngineConnection &engine, QWidget *parent = nullptr);
    ~ControlView() override;

    // Tests: a fake wall clock for Remaining and Next trial.
    void setClock(controltext::WallClock clock);
    // The drain picker lists the engine's providers again (an attached engine's configuration arrived).
    void updateProviders();
    DrainListModel *drains() const { return m_drains; }
    BreakerListModel *breakers() const { return m_breakers; }
    AuditLogModel *audit() const { return m_audit; }
    AlertListModel *alerts() const { return m_alertsModel; }
    ProbeListModel *probes() const { return m_probes; }
    // Drain… (the provider picked beside it) with the same dialog as a health card's menu.
    void askToDrain();
    // The audit rows the filter shows, written to `path` as CSV (".csv") or JSON; false with *error.
    bool exportAudit(const QString &path, QString *error) const;
    // Asks the engine for its providers and audit trail again.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *makeDrainsBox();
    QWidget *makeBreakersBox();
    QWidget *makeProbesBox();
    void showProbes();
    QWidget *makeAuditBox();
    QWidget *makeAlertsBox();
    void silenceCurrentAlert();
    void endCurrentSilence();
    void restoreCurrentDrain();
    void resetCurrentBreaker();
    void updateButtons();
    void tick();
    void exportAuditAs();

    EngineConnection &m_engine;
    DrainListModel *m_drains;
    BreakerListModel *m_breakers;
    AuditLogModel *m_audit;
    AlertListModel *m_alertsModel;
    ProbeListModel *m_probes;
    QSortFilterProxyModel *m_auditFilter;
    QTableView *m_drainTable = nullptr;
    QTableView *m_breakerTable = nullptr;
    QTableView *m_auditTable = nullptr;
    QTableView *m_alertTable = nullptr;
    QTableView *m_probeTable = nullptr;
    QStackedWidget *m_probePages = nullptr; // the table, or why there is none
    QLabel *m_noProber = nullptr;
    QLabel *m_probeNote = nullptr;
    QPushButton *m_silenceButton = nullptr;
    QPushButton *m_endSilenceButton = nullptr;
    QComboBox *m_provider = nullptr;
    QPushButton *m_drainButton = nullptr;
    QPushButton *m_restoreButton = nullptr;
    QPushButton *m_resetButton = nullptr;
    QLineEdit *m_auditSearch = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_ticker;
    int m_ticks = 0;
};

} // namespace bullpen
