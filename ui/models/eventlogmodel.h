// SPDX-License-Identifier: MIT
#pragma once

#include "engine/event.h"

#include <QAbstractTableModel>
#include <QList>

namespace bullpen {

// The live event stream (docs/contract.md §9.2): append-only, fed in batches. One beginInsertRows per batch, never a
// reset for an append; when it grows past kMaxRows the oldest kTrimRows go in one removal.
class EventLogModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, GenerationColumn, TypeColumn, SummaryColumn, ColumnCount };
    enum DataRole { EventRole = Qt::UserRole + 1, SortRole, TypeRole, GenerationIdRole };
    Q_ENUM(Column)

    static constexpr int kMaxRows = 100'000;
    static constexpr int kTrimRows = 10'000;

    explicit EventLogModel(QObject *parent = nullptr);

    void appendBatch(const QList<Event> &events);
    void clear();
    const Event &eventAt(int row) const { return m_events.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // One line for people: "gemini primary TRANSIENT_SERVER in 812 ms (HTTP 503)".
    static QString summary(const Event &event);

private:
    QList<Event> m_events;
};

} // namespace bullpen
