// SPDX-License-Identifier: MIT
#include "generationlistmodel.h"

#include "contract/displaymask.h"
#include "units.h"
#include "views/tones.h"
#include "words.h"

#include <QColor>

namespace bullpen {

GenerationListModel::GenerationListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void GenerationListModel::appendBatch(const QList<Event> &events)
{
    // New generations first, in one insertion.
    QList<Row> added;
    QHash<QString, int> addedAt;
    for (const Event &e : events) {
        if (m_rowOf.contains(e.generationId) || addedAt.contains(e.generationId))
            continue;
        Row r;
        r.generationId = e.generationId;
        r.started = e.wallTime;
        r.clock.start();
        addedAt.insert(e.generationId, static_cast<int>(m_rows.size() + added.size()));
        added.append(std::move(r));
    }
    if (!added.isEmpty()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        m_rows.append(std::move(added));
        for (auto it = addedAt.cbegin(); it != addedAt.cend(); ++it)
            m_rowOf.insert(it.key(), it.value());
        endInsertRows();
    }

    // Then apply every event, and signal each touched row once.
    int low = -1, high = -1;
    for (const Event &e : events) {
        const int row = m_rowOf.value(e.generationId);
        Row &r = m_rows[row];
        r.lastAt = std::max(r.lastAt, e.at);
        if (const auto *g = std::get_if<GenerationStarted>(&e.body)) {
            r.budget = g->budget;
            r.provider = g->primary;
            r.primary = g->primary;
            r.userMask = g->user;
            r.instance = g->instance;
            r.probe = g->probe;
        } else if (const auto *q = std::get_if<StageQueued>(&e.body)) {
            r.stage = q->stage;
            r.provider = q->provider;
            r.state = tr("queued behind %1").arg(q->ahead);
            r.queued = true;
        } else if (const auto *a = std::get_if<StageAdmitted>(&e.body)) {
            r.state = QStringLiteral("running");
            r.queued = false;
            r.queuedFor += a->waited;
        } else if (const auto *s = std::get_if<AttemptStarted>(&e.body)) {
            r.stage = s->stage;
            r.provider = s->provider;
            r.role = s->role;
        } else if (const auto *f = std::get_if<FallbackTriggered>(&e.body)) {
            r.fallback = true;
            r.fallbackFrom = f->from;
            r.fallbackTo = f->to;
        } else if (const auto *k = std::get_if<PrimarySkipped>(&e.body)) {
            r.fallback = true;
            r.fallbackFrom = k->provider;
            r.fallbackTo = k->to;
            r.skipped = k->state;
        } else if (const auto *fin = std::get_if<GenerationFinished>(&e.body)) {
            r.finished = true;
            r.state = toId(fin->state);
            r.fallback = r.fallback || fin->fallbackApplied;
            r.failure = fin->publicCode ? enumName(*fin->publicCode) + QLatin1Char('/') + enumName(*fin->kind) : QString();
            r.failedStage = fin->stage;
            r.publicCode = fin->publicCode;
            r.kind = fin->kind;
        }
        low = low < 0 ? row : std::min(low, row);
        high = std::max(high, row);
    }
    if (low >= 0)
        Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
    if (m_rows.size() > kKeep + kTrimRows)
        trim();
}

void GenerationListModel::trim()
{
    // The oldest rows beyond the newest kKeep that are finished and not pinned, as contiguous runs.
    const int candidates = static_cast<int>(m_rows.size()) - kKeep;
    QList<std::pair<int, int>> runs; // [first, last]
    for (int i = 0; i < candidates; ++i) {
        const Row &r = m_rows.at(i);
        if (!r.finished || r.generationId == m_pinned)
            continue;
        if (!runs.isEmpty() && runs.last().second == i - 1)
            runs.last().second = i;
        else
            runs.append({ i, i });
    }
    if (runs.isEmpty())
        return;
    QStringList dropped;
    // From the end, so that the earlier runs' rows keep their numbers.
    for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
        const auto [first, last] = *it;
        beginRemoveRows({}, first, last);
        for (int i = first; i <= last; ++i)
            dropped << m_rows.at(i).generationId;
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
    }
    m_rowOf.clear();
    m_rowOf.reserve(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowOf.insert(m_rows.at(i).generationId, i);
    Q_EMIT generationsDropped(dropped);
}

QString GenerationListModel::outcome(const Row &r)
{
    if (r.probe) // synthetic: says so before anything else
        return tr("probe of the %1 stage · %2").arg(words::stage(r.probe->stage), userOutcome(r));
    return userOutcome(r);
}

QString GenerationListModel::userOutcome(const Row &r)
{
    QString chain = r.fallbackFrom && r.fallbackTo ? QStringLiteral("%1 → %2").arg(toId(*r.fallbackFrom), toId(*r.fallbackTo)) : QString();
    if (!r.skipped.isEmpty())
        chain += r.skipped == u"drained" ? tr(" · primary skipped (drained)") : tr(" · primary skipped (circuit open)");
    if (!r.finished) {
        if (r.queued)
            return r.state; // "queued behind n": waiting on Bullpen's own limit
        return chain.isEmpty() ? tr("running") : tr("running · fallback %1").arg(chain);
    }
    const QString failure = r.publicCode && r.kind ? QStringLiteral("%1 (%2)").arg(enumName(*r.publicCode), enumName(*r.kind)) : QString();
    const QString stage = r.failedStage ? words::stage(*r.failedStage) : QString();
    if (r.state == u"succeeded")
        return chain.isEmpty() ? tr("succeeded") : tr("succeeded · fallback %1").arg(chain);
    if (r.state == u"failed") {
        QString text = stage.isEmpty() ? tr("failed: %1").arg(failure) : tr("failed at %1: %2").arg(stage, failure);
        if (!chain.isEmpty())
            text += tr(" · after fallback %1").arg(chain);
        return text;
    }
    if (r.state == u"cancelled")
        return stage.isEmpty() ? tr("cancelled") : tr("cancelled at %1").arg(stage);
    return words::state(r.state); // abandoned: its engine went away
}

double GenerationListModel::elapsedMs(const Row &row) const
{
    return row.finished ? static_cast<double>(row.lastAt.count()) / 1000.0 : static_cast<double>(row.clock.elapsed());
}

double GenerationListModel::budgetUsedMs(const Row &row) const
{
    if (row.queued)
        return 0;
    return std::max(0.0, elapsedMs(row) - static_cast<double>(row.queuedFor.count()) / 1000.0);
}

int GenerationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int GenerationListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GenerationListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &r = m_rows.at(index.row());
    const double budgetMs = static_cast<double>(r.budget.count());
    const double left = budgetMs <= 0 ? 0 : std::clamp(1.0 - budgetUsedMs(r) / budgetMs, 0.0, 1.0);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StartedColumn:
            return r.started.isValid() ? r.started.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : QString();
        case GenerationColumn:
            return DisplayMask::generationId(r.generationId);
        case UserColumn:
            return r.userMask;
        case StageColumn:
            return !r.finished ? words::stage(r.stage) : r.failedStage ? words::stage(*r.failedStage) : QString();
        case ProviderColumn:
            if (r.probe)
                return r.probe->role == bullpen::Role::Primary ? tr("%1 (primary probe)").arg(toId(r.probe->provider))
                                                               : tr("%1 (fallback probe)").arg(toId(r.probe->provider));
            if (r.finished && r.fallbackFrom && r.fallbackTo)
                return QStringLiteral("%1 → %2").arg(toId(*r.fallbackFrom), toId(*r.fallbackTo));
            if (r.finished)
                return r.primary ? toId(*r.primary) : QString();
            return r.provider
                ? QStringLiteral("%1 (%2)").arg(toId(*r.provider), r.role == bullpen::Role::Primary ? tr("primary") : tr("fallback"))
                : QString();
        case ElapsedColumn:
            return units::duration(elapsedMs(r));
        case BudgetColumn:
            return r.finished ? QString() : tr("%1 %").arg(left * 100.0, 0, 'f', 0);
        case StateColumn:
            return outcome(r);
        case InstanceColumn:
            return r.instance;
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case StartedColumn:
            return r.started;
        case ElapsedColumn:
            return elapsedMs(r);
        case BudgetColumn:
            return left;
        default:
            return data(index, Qt::DisplayRole);
        }
    case GenerationIdRole:
        return r.generationId;
    case FallbackRole:
        return r.fallback;
    case BudgetFractionRole:
        return left;
    case FinishedRole:
        return r.finished;
    case Qt::ToolTipRole:
        return index.column() == GenerationColumn ? QVariant(r.generationId)
            : index.column() == StateColumn       ? QVariant(outcome(r))
                                                  : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == StateColumn && r.state == u"failed")
            return tones::color(tones::Tone::Failure);
        if (index.column() == StateColumn && r.queued)
            return tones::color(tones::Tone::Own); // waiting on Bullpen's own limit, not on a provider
        return {};
    case Qt::BackgroundRole:
        return r.fallback ? QVariant(tones::background(tones::Tone::Fallback)) : QVariant(); // fallback stands out
    default:
        return {};
    }
}

QVariant GenerationListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartedColumn:
        return tr("Started");
    case GenerationColumn:
        return tr("Generation");
    case UserColumn:
        return tr("User");
    case StageColumn:
        return tr("Stage");
    case ProviderColumn:
        return tr("Providers");
    case ElapsedColumn:
        return tr("Elapsed");
    case BudgetColumn:
        return tr("Budget left");
    case InstanceColumn:
        return tr("Instance");
    case StateColumn:
        return tr("Outcome");
    }
    return {};
}

} // namespace bullpen
