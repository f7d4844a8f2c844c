// SPDX-License-Identifier: MIT
// The main window's menus and keyboard: File, Engine, View (a key per tab), Help (the shortcut list,
// made from the actions and shortcuts themselves, so it cannot miss one), and Tab that leaves tables.
#include "controlview.h"
#include "mainwindow.h"
#include "runview.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QShortcut>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bullpen {

void MainWindow::buildMenusAndKeys()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcutContext(Qt::ApplicationShortcut);

    QMenu *engineMenu = menuBar()->addMenu(tr("&Engine"));
    QAction *connectAction = engineMenu->addAction(tr("&Connect to an engine…"), this, &MainWindow::connectToEngine);
    connectAction->setObjectName(QStringLiteral("connectAction"));
    QAction *go = engineMenu->addAction(tr("&Generate"), this, [this] { generate(1); });
    go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    QAction *stop = engineMenu->addAction(tr("Cancel &everything running"), this, &MainWindow::cancelAll);
    stop->setShortcut(QKeySequence(Qt::Key_Escape));
    engineMenu->addSeparator();
    // Drains, breakers and the audit trail have one place: the Control view (docs/console.md).
    QAction *drain = engineMenu->addAction(tr("&Drain a provider…"), this, [this] {
        m_tabs->setCurrentWidget(m_control);
        m_control->askToDrain();
    });
    drain->setObjectName(QStringLiteral("drainMenuAction"));
    drain->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    QAction *control =
        engineMenu->addAction(tr("C&ontrol: drains, breakers, audit"), this, [this] { m_tabs->setCurrentWidget(m_control); });
    control->setObjectName(QStringLiteral("controlMenuAction"));
    control->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *story = view->addAction(tr("Write a story (Run)"), this, [this] {
        m_tabs->setCurrentWidget(m_run);
        m_run->focusStory();
    });
    story->setObjectName(QStringLiteral("storyAction"));
    story->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addSeparator();
    for (int i = 0; i < m_tabs->count() && i < 9; ++i) {
        QAction *show = view->addAction(m_tabs->tabText(i), this, [this, i] { m_tabs->setCurrentIndex(i); });
        show->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    // Every view's state as a link (docs/console.md, "Links"): bullpen --open LINK comes back to it.
    QAction *copyLink =
        view->addAction(tr("Copy link to this view"), this, [this] { QGuiApplication::clipboard()->setText(currentLink()); });
    copyLink->setObjectName(QStringLiteral("copyLinkAction"));
    copyLink->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    QAction *next =
        view->addAction(tr("Next view"), this, [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
    QAction *previous = view->addAction(
        tr("Previous view"), this, [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count()); });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcut(QKeySequence(Qt::Key_F1));
    QAction *about = help->addAction(tr("&About Bullpen"), this, [this] {
        QMessageBox::about(this, tr("About Bullpen"),
                           tr("<p><b>Bullpen</b> %1</p><p>An operator console for an AI generation engine with fallback providers: "
                              "run test generations, watch every attempt and fallback, read failures and latency.</p>")
                               .arg(QApplication::applicationVersion()));
    });
    about->setObjectName(QStringLiteral("aboutAction"));

    // Tab moves between controls, never from cell to cell (a table is one stop; arrows move in it).
    for (QAbstractItemView *table : findChildren<QAbstractItemView *>())
        table->setTabKeyNavigation(false);
}

void MainWindow::showShortcuts()
{
    QList<std::pair<QString, QString>> rows;
    for (const QAction *a : findChildren<QAction *>()) {
        if (!a->shortcut().isEmpty())
            // Qt names Shift+Tab "Backtab"; a person presses Tab
            rows.append({ a->shortcut().toString(QKeySequence::NativeText).replace(QLatin1String("Backtab"), QLatin1String("Tab")),
                          QString(a->text()).remove(QLatin1Char('&')) });
    }
    rows.append({ tr("Tab, Shift+Tab"), tr("Next or previous control; a table is one stop") });
    rows.append({ tr("Arrow keys"), tr("Move within a table or chart list") });
    rows.append({ tr("Enter"), tr("Open the selected row (Failures, Compare)") });
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    auto *table = new QTableWidget(static_cast<int>(rows.size()), 2, dialog);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({ tr("Keys"), tr("What") });
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setTabKeyNavigation(false);
    for (int r = 0; r < rows.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(560, 420);
    dialog->show();
}

} // namespace bullpen
