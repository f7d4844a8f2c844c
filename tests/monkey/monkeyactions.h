// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QString>
#include <QStringList>

#include <cstdio>

class QTimer;
class QWidget;

namespace bullpen {
class EngineConnection;
class MainWindow;
} // namespace bullpen

namespace bullpen::monkey {

struct Counts
{
    int actions = 0;
    int clicks = 0;
    int keys = 0;
    int keysPastFocus = 0; // keys the routing gave a popup or modal dialog, not the focus widget
    int contextMenus = 0;
    int menuChoices = 0;
    int dialogsSeen = 0;
    int accepted = 0;
    int rejected = 0;
    int drains = 0; // drains the engine applied (its provider list grew one)
    int restores = 0;
    int resizes = 0;
    int palettes = 0;
    int closes = 0;
    int generations = 0;
    qint64 stepMs = 0; // time spent in the actions themselves (their events included)
    qint64 slowestStepMs = 0;
    QString slowestStep; // what that step did first: a menu or dialog it opened lasts as long as the step
};

// The random operator: one action every few tens of milliseconds on whatever is on top (an open
// menu, a dialog, else the main window), and the other users' traffic beside it.
class Actions final : public QObject
{
    Q_OBJECT
public:
    Actions(MainWindow *window, EngineConnection *engine, quint32 seed, FILE *log);
    void start();
    // Stops acting, closes what is open, waits for the traffic to end; finished() follows.
    void finish();
    Counts counts() const { return m_counts; }

Q_SIGNALS:
    void finished();

private:
    void step();
    void act(QWidget *top);
    void actOnMenu(QWidget *menu);
    void actOnDialog(QWidget *dialog);
    void actOnWindow();
    void click(QWidget *w, bool right);
    void key(QWidget *target, int key, Qt::KeyboardModifiers modifiers = {});
    void typeInto(QWidget *w);
    void resize();
    void switchPalette();
    void closeWindow();
    void traffic();
    QWidget *pick(QWidget *root, bool cardsOnly = false);
    static QWidget *onTop();
    QWidget *keyboardTarget() const; // where a person's keystroke lands now
    void note(const QString &what);
    void countDrains(const QJsonObject &providers);

    QPointer<MainWindow> m_window;
    EngineConnection *m_engine;
    QRandomGenerator m_rng;
    FILE *m_log;
    QTimer *m_step;
    QTimer *m_traffic;
    Counts m_counts;
    int m_drainsNow = 0;
    int m_inFlight = 0;
    QStringList m_scenarios;
    QList<QPointer<QWidget>> m_seenDialogs;
    QStringList m_stepNotes; // per step in progress (one opens a nested event loop, more run inside it): its first note
    bool m_finishing = false;
};

} // namespace bullpen::monkey
