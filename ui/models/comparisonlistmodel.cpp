// SPDX-License-Identifier: MIT
#include "comparisonlistmodel.h"

#include "history/historyreader.h"
#include "historyqueue.h"
#include "units.h"
#include "views/tones.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QScopedValueRollback>

namespace bullpen {

ComparisonListModel::ComparisonListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ComparisonListModel::setHistory(HistoryReader *history)
{
    {
        const QScopedValueRollback guard(m_fetching, true); // no fetchMore() while the reset is in flight
        ++m_epoch;
        beginResetModel();
        m_history = history;
        m_rows.clear();
        m_exhausted = history == nullptr;
        endResetModel();
    }
    if (m_history)
        fetchMore({});
}

void ComparisonListModel::prepend(const Comparison &c)
{
    if (indexOf(c.id) >= 0)
        return;
    beginInsertRows({}, 0, 0);
    m_rows.prepend(c);
    endInsertRows();
}

int ComparisonListModel::indexOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int ComparisonListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ComparisonListModel::sideText(const ComparisonSide &s)
{
    if (!s.done)
        return tr("%1 running…").arg(toId(s.provider));
    const QString took = units::duration(s.storyboardMs);
    return s.state == FinalState::Succeeded ? tr("%1 ok, %2").arg(toId(s.provider), took)
                                            : tr("%1 %2, %3").arg(toId(s.provider), s.publicCode, took);
}

QVariant ComparisonListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Comparison &c = m_rows.at(index.row());
    if (role == ComparisonIdRole)
        return c.id;
    if (role == Qt::ForegroundRole && index.column() == Outcome) {
        const bool both = c.primary.state == FinalState::Succeeded && c.fallback.state == FinalState::Succeeded;
        return tones::color(both ? tones::Tone::Success : tones::Tone::Failure);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(c.createdAtMs).toString(QStringLiteral("MM-dd HH:mm:ss"));
    case Primary:
        return sideText(c.primary);
    case Fallback:
        return sideText(c.fallback);
    case Outcome:
        if (!c.finished())
            return tr("running");
        if (c.primary.state == FinalState::Succeeded && c.fallback.state == FinalState::Succeeded)
            return tr("both valid");
        if (c.primary.state != FinalState::Succeeded && c.fallback.state != FinalState::Succeeded)
            return tr("both failed");
        return c.primary.state == FinalState::Succeeded ? tr("fallback failed") : tr("primary failed");
    }
    return {};
}

QVariant ComparisonListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return tr("Time");
    case Primary:
        return tr("Primary");
    case Fallback:
        return tr("Fallback");
    case Outcome:
        return tr("Outcome");
    }
    return {};
}

bool ComparisonListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted && !m_fetching;
}

void ComparisonListModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_exhausted || m_fetching || !m_history)
        return;
    std::optional<qint64> beforeMs;
    QString beforeId;
    if (!m_rows.isEmpty()) {
        beforeMs = m_rows.constLast().createdAtMs;
        beforeId = m_rows.constLast().id;
    }
    const auto read = [beforeMs, beforeId](HistoryReader &history) {
        return history.comparisons(kPageSize, beforeMs, beforeId);
    };
    m_fetching = true;
    if (!m_queue) {
        append(read(*m_history));
        return;
    }
    m_queue->run<QList<ComparisonRow>>(this, read, [this, epoch = m_epoch](QList<ComparisonRow> rows) {
        if (epoch == m_epoch) // else read for a history this model no longer shows
            append(rows);
    });
}

void ComparisonListModel::append(const QList<ComparisonRow> &rows)
{
    m_fetching = false;
    m_exhausted = rows.size() < kPageSize;
    QList<Comparison> fresh;
    for (const ComparisonRow &r : rows) {
        if (auto c = Comparison::fromRow(r); c && indexOf(c->id) < 0)
            fresh << *c;
    }
    if (!fresh.isEmpty()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(fresh.size()) - 1);
        m_rows << fresh;
        endInsertRows();
    }
    Q_EMIT pageLoaded();
}

} // namespace bullpen
