// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QAbstractTableModel>

#include <functional>

namespace bullpen {

class HistoryQueue;

// docs/contract.md §9.4: the store's history for the failures view, newest first, paged in with fetchMore() (keyset
// paging, never the whole history in memory at once). Users and generation ids are masked; the full id
// is only behind GenerationIdRole, for the detail pane.
//
// With a HistoryQueue (the console's reader thread) every page is read there and inserted when it
// arrives (pageLoaded); the GUI thread never waits for the store or, attached, for the engine. A
// page read for an earlier filter is dropped. Without one, pages are read at once (tests of the model).
class FailureHistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    // What an investigation reads first comes first: what failed, how, where and how long it took.
    enum Column { PublicCode, Kind, Providers, Duration, Stage, Time, User, Generation, Instance, ColumnCount };
    enum DataRole { GenerationIdRole = Qt::UserRole + 1, StateRole, FallbackRole, CreatedAtRole };

    static constexpr int kPageSize = 200;

    explicit FailureHistoryModel(QObject *parent = nullptr);

    // Where the rows come from; the first read is setFilter()'s.
    void setHistory(HistoryReader *history);
    void setQueue(HistoryQueue *queue) { m_queue = queue; }
    // Replaces the rows with the first page of what the filter selects (a reset, then, read on the
    // queue, one insert).
    void setFilter(const HistoryFilter &filter);
    const HistoryFilter &filter() const { return m_filter; }
    // Rows that match the filter and were written since the last read, by this console or any other
    // writer of the store: those created from kLookbackMs before the newest shown row are read again;
    // new ones go in at their place (newest first), rows whose state changed are updated in place.
    void refreshNewest();
    static constexpr qint64 kLookbackMs = 15 * 60'000; // longer than any generation's budget
    QString lastError() const { return m_error; }
    // A page is being read, or the filter's pages are all in.
    bool isLoading() const { return m_fetching; }
    bool isExhausted() const { return m_exhausted; }
    // Every engine instance named by a row read so far (under any filter), in the order first seen.
    const QStringList &instancesSeen() const { return m_instancesSeen; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void queryFailed(const QString &error);
    // A page's rows are in: the filter's first page (`first`), a further one, or the newest rows.
    void pageLoaded(bool first);

private:
    QStringList m_instancesSeen;
    struct Row
    {
        QString id;
        qint64 createdAtMs = 0;
        QString user;
        QString stage;
        QString publicCode;
        QString kind;
        QString providers;
        QString instance; // the engine instance that ran it (several engines may share one store)
        QString state;
        double elapsedMs = 0;
        bool fallback = false;
    };
    static Row rowFrom(const GenerationRow &g);
    Row take(const GenerationRow &g); // rowFrom, noting its instance
    struct Page
    {
        QList<GenerationRow> rows;
        QString error;
    };
    // Reads one page (on the queue when there is one) and hands it to `done` here, unless the filter
    // changed meanwhile.
    void read(const HistoryFilter &filter, std::function<void(const QList<GenerationRow> &)> done);
    void reportError(const QString &error);
    void insertNewest(const QList<GenerationRow> &rows);

    HistoryReader *m_history = nullptr;
    HistoryQueue *m_queue = nullptr;
    quint64 m_epoch = 0; // counts filters: a page read for an older one is dropped
    bool m_firstPending = false;
    HistoryFilter m_filter;
    QList<Row> m_rows;
    bool m_exhausted = true;
    bool m_fetching = false; // views and testers may ask for more while rows are being inserted
    QString m_error;
};

} // namespace bullpen
