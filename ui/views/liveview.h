// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"

#include <QElapsedTimer>
#include <QHash>
#include <QWidget>

class QAbstractItemModel;
class QCheckBox;
class QComboBox;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QToolButton;
class QLayout;

namespace bullpen {

class EventLogModel;
class GenerationListModel;
class TimelineWidget;

// docs/contract.md §9.2: in-flight and recent generations, the selected one's timeline, and the live event stream
// filterable by type.
class LiveView final : public QWidget
{
    Q_OBJECT
public:
    LiveView(GenerationListModel *generations, EventLogModel *events, QWidget *parent = nullptr);

    void addEvents(const QList<Event> &batch); // keeps each generation's events for its timeline
    void select(const QString &generationId);
    QString selectedGeneration() const;
    // Generations whose events are kept for their timeline (the list's, no more).
    int timelineCount() const { return static_cast<int>(m_byGeneration.size()); }
    // The event stream shows the selected generation's events only (the default), or every event.
    void setEventsFollowSelection(bool follow);
    bool eventsFollowSelection() const { return m_followSelection; }
    QAbstractItemModel *eventStream() const;

Q_SIGNALS:
    void generationSelected(const QString &generationId);
    void columnsFitted(); // the generation table's columns were fitted to the rows on screen

private:
    QWidget *makeGenerationPane(GenerationListModel *generations);
    QWidget *makeEventPane(EventLogModel *events);
    void showTimeline();
    void fitColumns(); // widens columns to what the rows on screen need; never narrows one, nor touches the operator's

    GenerationListModel *m_generations;
    QSortFilterProxyModel *m_generationProxy;
    class EventFilter;
    EventFilter *m_eventProxy;
    QCheckBox *m_followBox = nullptr;
    bool m_followSelection = true;
    QTableView *m_table;
    QTableView *m_eventTable;
    QComboBox *m_typeFilter;
    QComboBox *m_instanceFilter;
    TimelineWidget *m_timeline;
    static constexpr qint64 kFitIntervalMs = 500;
    QTimer *m_fitColumns;
    QElapsedTimer m_lastFit;
    QHash<int, int> m_fittedWidths; // column → the width fitColumns() left it at
    QHash<QString, QList<Event>> m_byGeneration;
    QString m_followed; // the newest generation, selected by following (not by the operator)
    // A generation started while the operator looks at another one, out of view: said above the list.
    QLayout *makeListTools();
    void noteNewRun(const QString &generationId);
    QToolButton *m_newRun = nullptr;
    QString m_newRunId;
};

} // namespace bullpen
