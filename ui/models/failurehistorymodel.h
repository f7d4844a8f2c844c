// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QAbstractTableModel>

namespace bullpen {

// SPEC 9.4: the store's history for the failures view, newest first, paged in with fetchMore() (keyset
// paging, never the whole history in memory at once). Users and generation ids are masked; the full id
// is only behind GenerationIdRole, for the detail pane.
class FailureHistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, User, Generation, Stage, PublicCode, Kind, Providers, Duration, ColumnCount };
    enum DataRole { GenerationIdRole = Qt::UserRole + 1, StateRole, FallbackRole, CreatedAtRole };

    static constexpr int kPageSize = 200;

    explicit FailureHistoryModel(QObject *parent = nullptr);

    void setHistory(HistoryReader *history);
    // Replaces the rows with the first page of what the filter selects (one reset).
    void setFilter(const HistoryFilter &filter);
    const HistoryFilter &filter() const { return m_filter; }
    // Rows newer than the newest shown that match the filter, inserted at the top (live runs ending).
    int refreshNewest();
    QString lastError() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void queryFailed(const QString &error);

private:
    struct Row
    {
        QString id;
        qint64 createdAtMs = 0;
        QString user;
        QString stage;
        QString publicCode;
        QString kind;
        QString providers;
        QString state;
        double elapsedMs = 0;
        bool fallback = false;
    };
    static Row rowFrom(const GenerationRow &g);
    QList<GenerationRow> page(const HistoryFilter &filter);

    HistoryReader *m_history = nullptr;
    HistoryFilter m_filter;
    QList<Row> m_rows;
    bool m_exhausted = true;
    bool m_fetching = false; // views and testers may ask for more while rows are being inserted
    QString m_error;
};

} // namespace bullpen
