// SPDX-License-Identifier: MIT
#include "jsonrowsmodel.h"

#include <QHash>
#include <QSet>

namespace bullpen {

void JsonRowsModel::setRows(const QList<QJsonObject> &rows)
{
    QHash<QString, qsizetype> incoming;
    for (qsizetype i = 0; i < rows.size(); ++i)
        incoming.insert(key(rows.at(i)), i);
    // Rows that went: removed one at a time from the end, so the indexes before them hold.
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        if (incoming.contains(key(m_rows.at(i))))
            continue;
        beginRemoveRows({}, int(i), int(i));
        m_rows.removeAt(i);
        endRemoveRows();
    }
    // Rows that stayed: their cells change in place.
    QSet<QString> kept;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const QString k = key(m_rows.at(i));
        kept.insert(k);
        const QJsonObject &next = rows.at(incoming.value(k));
        if (next == m_rows.at(i))
            continue;
        m_rows[i] = next;
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), columnCount() - 1));
    }
    // New rows: appended in one batch, in the order they came.
    QList<QJsonObject> added;
    for (const QJsonObject &r : rows)
        if (!kept.contains(key(r)))
            added << r;
    if (added.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size() - 1));
    m_rows << added;
    endInsertRows();
}

void JsonRowsModel::refreshColumn(int column)
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, column), index(int(m_rows.size()) - 1, column), { Qt::DisplayRole, Qt::ToolTipRole, SortRole });
}

int JsonRowsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant JsonRowsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(r, index.column());
    case Qt::ToolTipRole:
        return toolTip(r, index.column());
    case SortRole:
        return sortValue(r, index.column());
    case RowRole:
        return r;
    default:
        return {};
    }
}

} // namespace bullpen
