// SPDX-License-Identifier: MIT
#include "monkeyactions.h"

#include "pipeline/engineconnection.h"
#include "views/healthstrip.h"
#include "views/mainwindow.h"
#include "views/tones.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QInputMethodEvent>
#include <QJsonArray>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

namespace bullpen::monkey {

namespace {

constexpr int kStepMs = 40;
constexpr int kTrafficMs = 300;
constexpr int kMaxInFlight = 8;

// What an operator types: durations in every spelling, nonsense, Korean, nothing.
const char *const kTexts[] = { "2.5 s",
                               "2500 ms",
                               "1500ms",
                               "abc",
                               "-1",
                               "0",
                               "99999999999",
                               "1h",
                               "한국어 이야기",
                               "incident 42",
                               "A story. Two. Three. Four.",
                               "user@example.com",
                               " ",
                               "30d",
                               "gemini" };

QString describe(const QWidget *w)
{
    if (!w)
        return QStringLiteral("(none)");
    QString text;
    if (const auto *b = qobject_cast<const QAbstractButton *>(w))
        text = b->text();
    else if (const auto *c = qobject_cast<const QComboBox *>(w))
        text = c->currentText();
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QStringLiteral("%1#%2%3").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                                         text.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(text.left(40)));
}

// A widget a person could click or type into.
bool interactive(const QWidget *w)
{
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QComboBox *>(w) || qobject_cast<const QLineEdit *>(w)
        || qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QTabBar *>(w) || qobject_cast<const QPlainTextEdit *>(w)
        || qobject_cast<const HealthCard *>(w)
        || (w->parentWidget() && qobject_cast<const QAbstractItemView *>(w->parentWidget())
            && qobject_cast<const QAbstractItemView *>(w->parentWidget())->viewport() == w);
}

} // namespace

Actions::Actions(MainWindow *window, EngineConnection *engine, quint32 seed, FILE *log)
    : m_window(window)
    , m_engine(engine)
    , m_rng(seed)
    , m_log(log)
    , m_step(new QTimer(this))
    , m_traffic(new QTimer(this))
{
    m_step->setInterval(kStepMs);
    m_traffic->setInterval(kTrafficMs);
    // Each action runs from the event queue, not in the timer's own slot: an action that opens a
    // dialog with exec() blocks there, and Qt does not fire a timer again while its slot runs; so the
    // timer stays free and the next actions happen inside the dialog's loop, as a person's would.
    connect(m_step, &QTimer::timeout, this, [this] { QMetaObject::invokeMethod(this, &Actions::step, Qt::QueuedConnection); });
    connect(m_traffic, &QTimer::timeout, this, &Actions::traffic);
    connect(engine, &EngineConnection::providersChanged, this, &Actions::countDrains);
    connect(&engine->client(), &EngineClient::finished, this, [this] { --m_inFlight; });
    m_scenarios = engine->scenarios();
}

void Actions::start()
{
    QApplication::setQuitOnLastWindowClosed(false); // a Quit chosen at random closes the window; it is shown again
    m_step->start();
    m_traffic->start();
}

void Actions::note(const QString &what)
{
    if (!m_stepNotes.isEmpty() && m_stepNotes.constLast().isEmpty())
        m_stepNotes.last() = what;
    if (!m_log)
        return;
    std::fprintf(m_log, "%d %s\n", m_counts.actions, qPrintable(what));
    std::fflush(m_log);
}

QWidget *Actions::onTop()
{
    if (QWidget *popup = QApplication::activePopupWidget())
        return popup;
    if (QWidget *modal = QApplication::activeModalWidget())
        return modal;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (qobject_cast<QDialog *>(w) && w->isVisible())
            return w;
    return nullptr;
}

void Actions::step()
{
    if (m_finishing || !m_window)
        return;
    ++m_counts.actions;
    QElapsedTimer took;
    took.start();
    m_stepNotes.append(QString());
    const auto timeIt = qScopeGuard([&] {
        const qint64 ms = took.elapsed();
        const QString what = m_stepNotes.takeLast();
        m_counts.stepMs += ms;
        if (ms > m_counts.slowestStepMs) {
            m_counts.slowestStepMs = ms;
            m_counts.slowestStep = what;
        }
    });
    QWidget *top = onTop();
    if (top && qobject_cast<QDialog *>(top) && !m_seenDialogs.contains(top)) {
        m_seenDialogs << top;
        ++m_counts.dialogsSeen;
        note(QStringLiteral("dialog open: %1 \"%2\"").arg(describe(top), top->windowTitle()));
    }
    act(top);
    if (m_window && !m_window->isVisible() && !m_finishing) {
        note(QStringLiteral("window closed: shown again"));
        m_window->show();
    }
}

void Actions::act(QWidget *top)
{
    if (qobject_cast<QMenu *>(top))
        actOnMenu(top);
    else if (top && qobject_cast<QDialog *>(top))
        actOnDialog(top);
    else if (top) { // another popup: a combo box's list, a tooltip-like window
        if (!m_seenDialogs.contains(top)) { // named once in the log: a long stay in one shows which
            m_seenDialogs << top;
            note(QStringLiteral("popup open: %1").arg(describe(top)));
        }
        const int keys[] = { Qt::Key_Down, Qt::Key_Up, Qt::Key_Return, Qt::Key_Escape };
        key(nullptr, keys[m_rng.bounded(4)]);
    } else
        actOnWindow();
}

void Actions::actOnMenu(QWidget *popup)
{
    auto *menu = qobject_cast<QMenu *>(popup);
    QList<QAction *> choices;
    for (QAction *a : menu->actions())
        if (a->isEnabled() && a->isVisible() && !a->isSeparator() && !a->text().contains(QLatin1String("Quit"))
            && !a->text().contains(QStringLiteral("종료")))
            choices << a;
    const int r = int(m_rng.bounded(10));
    if (r < 7 && !choices.isEmpty()) {
        QAction *a = choices.at(int(m_rng.bounded(int(choices.size()))));
        note(QStringLiteral("menu %1: choose \"%2\"").arg(menu->objectName(), a->text()));
        ++m_counts.menuChoices;
        menu->setActiveAction(a);
        key(menu, Qt::Key_Return);
    } else if (r < 9) {
        key(menu, r == 7 ? Qt::Key_Down : Qt::Key_Up);
    } else {
        note(QStringLiteral("menu: Escape"));
        key(menu, Qt::Key_Escape);
    }
}

void Actions::actOnDialog(QWidget *dialog)
{
    const bool drain = dialog->objectName() == u"drainDialog";
    const int r = int(m_rng.bounded(10));
    if (r < 3) {
        if (QWidget *w = pick(dialog))
            click(w, false);
    } else if (r < 5 || (drain && r < 6)) {
        const QList<QLineEdit *> edits = dialog->findChildren<QLineEdit *>();
        if (!edits.isEmpty())
            typeInto(edits.at(int(m_rng.bounded(int(edits.size())))));
    } else if (r < 8) {
        QPushButton *ok = nullptr;
        if (auto *box = dialog->findChild<QDialogButtonBox *>())
            for (QAbstractButton *b : box->buttons())
                if (box->buttonRole(b) == QDialogButtonBox::AcceptRole && b->isEnabled())
                    ok = qobject_cast<QPushButton *>(b);
        note(QStringLiteral("dialog %1: accept").arg(describe(dialog)));
        ++m_counts.accepted;
        if (ok)
            click(ok, false);
        else
            key(nullptr, Qt::Key_Return);
    } else {
        note(QStringLiteral("dialog %1: Escape").arg(describe(dialog)));
        ++m_counts.rejected;
        key(nullptr, Qt::Key_Escape);
    }
}

void Actions::actOnWindow()
{
    const int r = int(m_rng.bounded(100));
    if (r < 36) {
        if (QWidget *w = pick(m_window))
            click(w, false);
    } else if (r < 46) {
        if (QWidget *w = pick(m_window, r < 42)) // mostly a health card's menu: where drains are made
            click(w, true);
    } else if (r < 72) {
        static const std::pair<int, Qt::KeyboardModifiers> keys[] = {
            { Qt::Key_Tab, {} },
            { Qt::Key_Backtab, Qt::ShiftModifier },
            { Qt::Key_1, Qt::AltModifier },
            { Qt::Key_2, Qt::AltModifier },
            { Qt::Key_3, Qt::AltModifier },
            { Qt::Key_4, Qt::AltModifier },
            { Qt::Key_5, Qt::AltModifier },
            { Qt::Key_6, Qt::AltModifier },
            { Qt::Key_7, Qt::AltModifier },
            { Qt::Key_8, Qt::AltModifier }, // Control
            { Qt::Key_F1, {} },
            { Qt::Key_Return, {} },
            { Qt::Key_Space, {} },
            { Qt::Key_Down, {} },
            { Qt::Key_Up, {} },
            { Qt::Key_Menu, {} },
            { Qt::Key_Tab, Qt::ControlModifier },
            { Qt::Key_Escape, {} },
            { Qt::Key_A, {} },
        };
        const auto &[k, modifiers] = keys[m_rng.bounded(int(std::size(keys)))];
        key(nullptr, k, modifiers);
    } else if (r < 80) {
        QList<QWidget *> edits;
        for (QWidget *w : m_window->findChildren<QWidget *>())
            if ((qobject_cast<QLineEdit *>(w) || qobject_cast<QPlainTextEdit *>(w)) && w->isVisible() && w->isEnabled())
                edits << w;
        if (!edits.isEmpty())
            typeInto(edits.at(int(m_rng.bounded(int(edits.size())))));
    } else if (r < 87) {
        resize();
    } else if (r < 90) {
        switchPalette();
    } else if (r < 92) {
        closeWindow();
    } else {
        QTabBar *tabs = m_window->tabs()->tabBar();
        const int i = int(m_rng.bounded(tabs->count()));
        note(QStringLiteral("tab %1").arg(tabs->tabText(i)));
        ++m_counts.clicks;
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(i).center());
    }
}

QWidget *Actions::pick(QWidget *root, bool cardsOnly)
{
    QList<QWidget *> found;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || !w->isEnabled() || w->visibleRegion().isEmpty() || !interactive(w))
            continue;
        if (cardsOnly && !qobject_cast<HealthCard *>(w))
            continue;
        if (const auto *b = qobject_cast<QAbstractButton *>(w); b && (b->text().contains(QLatin1String("Quit"))))
            continue;
        found << w;
    }
    if (found.isEmpty())
        return cardsOnly ? pick(root, false) : nullptr;
    return found.at(int(m_rng.bounded(int(found.size()))));
}

void Actions::click(QWidget *w, bool right)
{
    const QRect r = w->visibleRegion().boundingRect();
    const QPoint at(r.left() + int(m_rng.bounded(std::max(1, r.width()))), r.top() + int(m_rng.bounded(std::max(1, r.height()))));
    note(QStringLiteral("%1 click %2 at %3,%4")
             .arg(right ? QStringLiteral("right") : QStringLiteral("left"), describe(w))
             .arg(at.x())
             .arg(at.y()));
    if (right)
        ++m_counts.contextMenus;
    else
        ++m_counts.clicks;
    QTest::mouseClick(w, right ? Qt::RightButton : Qt::LeftButton, {}, at);
    if (right) // what the platform makes of a right click (offscreen makes nothing of it)
        QCoreApplication::postEvent(w, new QContextMenuEvent(QContextMenuEvent::Mouse, at, w->mapToGlobal(at)));
}

void Actions::key(QWidget *target, int k, Qt::KeyboardModifiers modifiers)
{
    if (!target) {
        QWidget *focus = QApplication::focusWidget();
        target = keyboardTarget();
        if (focus && target != focus) // a popup, a grabber or a modal dialog took it from the focus widget
            ++m_counts.keysPastFocus;
    }
    note(QStringLiteral("key %1%2 on %3").arg(QKeySequence(int(modifiers)).toString(), QKeySequence(k).toString(), describe(target)));
    ++m_counts.keys;
    QTest::keyClick(target, Qt::Key(k), modifiers);
}

QWidget *Actions::keyboardTarget() const
{
    // Where a person's keystroke lands. QWidgetWindow gives it to the keyboard grabber, else to the
    // active popup's focus widget or the popup; a window behind a modal dialog gets none, and a click
    // on it brings the dialog forward, so the keys go to the dialog. QTest sends to the widget it is
    // given and skips all that: a key sent to the focus widget under a completer's list, or outside a
    // modal dialog, would go where no keystroke of a person can.
    if (QWidget *grabber = QWidget::keyboardGrabber())
        return grabber;
    if (QWidget *popup = QApplication::activePopupWidget())
        return popup->focusWidget() ? popup->focusWidget() : popup;
    QWidget *focus = QApplication::focusWidget();
    if (QWidget *modal = QApplication::activeModalWidget(); modal && !(focus && (focus == modal || modal->isAncestorOf(focus))))
        return modal->focusWidget() ? modal->focusWidget() : modal;
    if (focus)
        return focus;
    if (QWidget *top = onTop())
        return top;
    return m_window;
}

void Actions::typeInto(QWidget *w)
{
    const QString text = QString::fromUtf8(kTexts[m_rng.bounded(int(std::size(kTexts)))]);
    note(QStringLiteral("type \"%1\" into %2").arg(text, describe(w)));
    ++m_counts.keys;
    w->setFocus(Qt::OtherFocusReason);
    if (auto *line = qobject_cast<QLineEdit *>(w); line && m_rng.bounded(2) == 0)
        line->selectAll(); // replace, half of the time
    bool ascii = true;
    for (const QChar c : text)
        ascii = ascii && c.unicode() < 128;
    if (ascii) {
        QTest::keyClicks(w, text);
    } else { // Korean arrives through the input method, committed whole
        QInputMethodEvent commit;
        commit.setCommitString(text);
        QApplication::sendEvent(w, &commit);
    }
}

void Actions::resize()
{
    static const QSize sizes[] = { { 1024, 700 }, { 1280, 800 }, { 1600, 1000 }, { 1920, 1080 } };
    QSize s = sizes[m_rng.bounded(int(std::size(sizes)))];
    if (m_rng.bounded(3) == 0)
        s = QSize(1024 + int(m_rng.bounded(897)), 700 + int(m_rng.bounded(381)));
    note(QStringLiteral("resize %1×%2").arg(s.width()).arg(s.height()));
    ++m_counts.resizes;
    m_window->resize(s);
}

void Actions::switchPalette()
{
    const bool dark = tones::isDark();
    note(QStringLiteral("palette %1").arg(dark ? QStringLiteral("light") : QStringLiteral("dark")));
    ++m_counts.palettes;
    QApplication::setPalette(dark ? QApplication::style()->standardPalette() : tones::darkPalette());
}

void Actions::closeWindow()
{
    note(QStringLiteral("close the window"));
    ++m_counts.closes;
    QTimer::singleShot(0, m_window, [w = m_window] { w->close(); }); // its confirmation, if any, runs in its own loop
}

void Actions::traffic()
{
    if (m_finishing || m_scenarios.isEmpty() || m_inFlight >= kMaxInFlight)
        return;
    GenerationRequest r;
    r.story = QStringLiteral("A story. Two. Three. Four.");
    r.userId = QStringLiteral("monkey%1@example.com").arg(m_rng.bounded(20));
    r.fresh = true;
    // Half of the traffic in an outage of some kind, so that breakers open and close under the operator.
    r.scenario.name = m_rng.bounded(2) == 0 ? QStringLiteral("healthy") : m_scenarios.at(int(m_rng.bounded(int(m_scenarios.size()))));
    ++m_counts.generations;
    ++m_inFlight;
    m_engine->client().start(r);
}

void Actions::countDrains(const QJsonObject &providers)
{
    int drains = 0;
    for (const QJsonValue &p : providers.value(QLatin1StringView("providers")).toArray())
        drains += int(p.toObject().value(QLatin1StringView("drains")).toArray().size());
    if (drains > m_drainsNow)
        m_counts.drains += drains - m_drainsNow;
    else if (drains < m_drainsNow)
        m_counts.restores += m_drainsNow - drains;
    m_drainsNow = drains;
}

void Actions::finish()
{
    if (m_finishing)
        return;
    m_finishing = true;
    m_step->stop();
    m_traffic->stop();
    note(QStringLiteral("finish"));
    auto *settle = new QTimer(this);
    settle->start(50);
    connect(settle, &QTimer::timeout, this, [this, settle] {
        if (QWidget *top = onTop()) {
            top->close();
            return;
        }
        settle->stop();
        Q_EMIT finished();
    });
}

} // namespace bullpen::monkey
