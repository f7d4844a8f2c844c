// SPDX-License-Identifier: MIT
#include "failurehistorymodel.h"

#include "contract/displaymask.h"
#include "historyqueue.h"
#include "units.h"
#include "views/tones.h"
#include "words.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QSet>

namespace bullpen {

FailureHistoryModel::FailureHistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FailureHistoryModel::setHistory(HistoryReader *history)
{
    beginResetModel();
    m_history = history;
    m_rows.clear();
    m_exhausted = true; // nothing is read until a filter is set
    endResetModel();
}

FailureHistoryModel::Row FailureHistoryModel::rowFrom(const GenerationRow &g)
{
    Row r;
    r.id = g.id;
    r.createdAtMs = g.createdAtMs;
    r.user = g.userMask;
    r.stage = g.stage;
    r.publicCode = g.publicCode;
    r.kind = g.kind;
    r.providers = g.providerChain();
    r.instance = g.instance;
    r.state = g.state;
    r.elapsedMs = g.elapsedMs;
    r.fallback = g.fallbackApplied;
    return r;
}

void FailureHistoryModel::reportError(const QString &error)
{
    if (!error.isEmpty() && error != m_error) {
        m_error = error;
        Q_EMIT queryFailed(error);
    }
}

void FailureHistoryModel::read(const HistoryFilter &filter, std::function<void(const QList<GenerationRow> &)> done)
{
    const auto readPage = [filter](HistoryReader &history) {
        Page p;
        p.rows = history.generations(filter, kPageSize, &p.error);
        return p;
    };
    if (!m_queue) {
        const Page p = readPage(*m_history);
        reportError(p.error);
        done(p.rows);
        return;
    }
    m_queue->run<Page>(this, readPage, [this, epoch = m_epoch, done = std::move(done)](Page p) {
        if (epoch != m_epoch)
            return; // read for an earlier filter
        reportError(p.error);
        done(p.rows);
    });
}

void FailureHistoryModel::setFilter(const HistoryFilter &filter)
{
    ++m_epoch;
    beginResetModel();
    m_filter = filter;
    m_filter.beforeMs.reset();
    m_filter.beforeId.clear();
    m_error.clear();
    m_rows.clear();
    m_exhausted = false;
    m_fetching = true; // no fetchMore() until the first page is in
    m_firstPending = true;
    endResetModel();
    if (!m_history) {
        m_fetching = m_firstPending = false;
        m_exhausted = true;
        return;
    }
    read(m_filter, [this](const QList<GenerationRow> &rows) {
        m_firstPending = false;
        m_exhausted = rows.size() < kPageSize;
        if (!rows.isEmpty()) {
            beginInsertRows({}, 0, static_cast<int>(rows.size()) - 1);
            for (const GenerationRow &g : rows)
                m_rows << take(g);
            endInsertRows();
        }
        m_fetching = false;
        Q_EMIT pageLoaded(true);
    });
}

void FailureHistoryModel::refreshNewest()
{
    if (!m_history || m_firstPending)
        return; // the first page, still being read, will hold them
    HistoryFilter f = m_filter;
    f.beforeMs.reset();
    f.beforeId.clear();
    if (!m_rows.isEmpty())
        f.fromMs = std::max(f.fromMs.value_or(0), m_rows.constFirst().createdAtMs - kLookbackMs);
    read(f, [this](const QList<GenerationRow> &rows) { insertNewest(rows); });
}

void FailureHistoryModel::insertNewest(const QList<GenerationRow> &rows)
{
    // Rows are newest first by (created, id); everything read lies within the lookback of the top.
    const auto newer = [](qint64 atA, const QString &idA, qint64 atB, const QString &idB) {
        return atA > atB || (atA == atB && idA > idB);
    };
    if (rows.size() >= kPageSize && !m_rows.isEmpty()
        && newer(rows.constLast().createdAtMs, rows.constLast().id, m_rows.constFirst().createdAtMs, m_rows.constFirst().id)) {
        // More new rows than a page: between the newest page and what is shown there may be rows not
        // read. The newest page replaces everything; the rest comes page by page again (fetchMore).
        beginResetModel();
        m_rows.clear();
        for (const GenerationRow &g : rows)
            m_rows << take(g);
        m_exhausted = false;
        endResetModel();
        Q_EMIT pageLoaded(false);
        return;
    }
    const qint64 oldestRead = rows.isEmpty() ? 0 : rows.constLast().createdAtMs;
    QHash<QString, int> shown;
    for (int i = 0; i < m_rows.size() && m_rows[i].createdAtMs >= oldestRead; ++i)
        shown.insert(m_rows[i].id, i);
    QList<Row> fresh;
    for (const GenerationRow &g : rows) {
        if (const auto it = shown.constFind(g.id); it != shown.cend()) {
            Row &r = m_rows[*it];
            const Row now = take(g);
            if (now.state != r.state || now.publicCode != r.publicCode || now.elapsedMs != r.elapsedMs) {
                r = now; // a generation that was running when last read has finished
                Q_EMIT dataChanged(index(*it, 0), index(*it, ColumnCount - 1));
            }
            continue;
        }
        // Below the last page read, a row belongs to a later page: fetchMore() brings it.
        if (m_exhausted || m_rows.isEmpty() || !newer(m_rows.constLast().createdAtMs, m_rows.constLast().id, g.createdAtMs, g.id))
            fresh << take(g);
    }
    // Oldest first, each at its place; consecutive ones at the top go in as one block.
    int block = 0;
    for (const Row &r : std::as_const(fresh)) {
        if (m_rows.isEmpty() || newer(r.createdAtMs, r.id, m_rows.constFirst().createdAtMs, m_rows.constFirst().id))
            ++block;
        else
            break;
    }
    if (block > 0) {
        beginInsertRows({}, 0, block - 1);
        m_rows = fresh.mid(0, block) + m_rows;
        endInsertRows();
    }
    for (int k = block; k < fresh.size(); ++k) {
        const Row &r = fresh[k];
        const auto at = std::partition_point(m_rows.cbegin(), m_rows.cend(),
                                             [&](const Row &x) { return newer(x.createdAtMs, x.id, r.createdAtMs, r.id); });
        const int pos = static_cast<int>(at - m_rows.cbegin());
        beginInsertRows({}, pos, pos);
        m_rows.insert(pos, r);
        endInsertRows();
    }
    Q_EMIT pageLoaded(false);
}

FailureHistoryModel::Row FailureHistoryModel::take(const GenerationRow &g)
{
    if (!g.instance.isEmpty() && !m_instancesSeen.contains(g.instance))
        m_instancesSeen << g.instance;
    return rowFrom(g);
}

int FailureHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FailureHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FailureHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    switch (role) {
    case GenerationIdRole:
        return r.id;
    case StateRole:
        return r.state;
    case FallbackRole:
        return r.fallback;
    case CreatedAtRole:
        return r.createdAtMs;
    case Qt::TextAlignmentRole:
        return index.column() == Duration ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == PublicCode && r.state == u"failed")
            return tones::color(tones::Tone::Failure);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Generation)
            return tr("Select the row to see the full id in the detail pane (Copy id copies it)");
        return data(index, Qt::DisplayRole); // whole, where a narrow column elides it
    case Qt::DisplayRole:
        switch (index.column()) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(r.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case User:
            return r.user.isEmpty() ? tr("(none)") : r.user;
        case Generation:
            return DisplayMask::generationId(r.id);
        case Stage:
            if (const auto stage = stageFromId(r.stage))
                return words::stage(*stage);
            return r.stage.isEmpty() ? (r.state == u"failed" ? QString() : tr("(fallback)")) : r.stage;
        case PublicCode:
            return r.publicCode;
        case Kind:
            return r.kind;
        case Providers:
            return r.providers;
        case Instance:
            return r.instance;
        case Duration:
            return units::duration(r.elapsedMs);
        }
        return {};
    }
    return {};
}

QVariant FailureHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return tr("Time");
    case User:
        return tr("User");
    case Generation:
        return tr("Generation");
    case Stage:
        return tr("Stage");
    case PublicCode:
        return tr("Public code");
    case Kind:
        return tr("Kind");
    case Providers:
        return tr("Providers");
    case Instance:
        return tr("Instance");
    case Duration:
        return tr("Duration");
    }
    return {};
}

bool FailureHistoryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted && !m_fetching && m_history;
}

void FailureHistoryModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_exhausted || m_fetching || m_rows.isEmpty() || !m_history)
        return;
    m_fetching = true;
    HistoryFilter f = m_filter;
    f.beforeMs = m_rows.constLast().createdAtMs;
    f.beforeId = m_rows.constLast().id;
    read(f, [this](const QList<GenerationRow> &rows) {
        m_exhausted = rows.size() < kPageSize;
        if (!rows.isEmpty()) {
            const int first = static_cast<int>(m_rows.size());
            beginInsertRows({}, first, first + static_cast<int>(rows.size()) - 1);
            for (const GenerationRow &g : rows)
                m_rows << take(g);
            endInsertRows();
        }
        m_fetching = false;
        Q_EMIT pageLoaded(false);
    });
}

} // namespace bullpen
