// SPDX-License-Identifier: MIT
#include "eventlogmodel.h"

#include "contract/displaymask.h"
#include "contract/recordtext.h"
#include "units.h"
#include "words.h"

namespace bullpen {

namespace {

QString ms(std::chrono::microseconds us)
{
    return units::duration(us);
}

QString ms(std::chrono::milliseconds d)
{
    return units::duration(d);
}

struct Summary
{
    QString operator()(const GenerationStarted &e) const
    {
        // A timeline rebuilt from attempt rows has no budget, deadlines or budget left: said so, not "0 ms".
        if (e.budget.count() <= 0)
            return EventLogModel::tr("%1 policy, %2 → %3 (budget not recorded)")
                .arg(e.preset, toId(e.primary), e.fallback ? toId(*e.fallback) : EventLogModel::tr("none"));
        return EventLogModel::tr("%1 policy, %2 → %3, budget %4")
            .arg(e.preset, toId(e.primary), e.fallback ? toId(*e.fallback) : EventLogModel::tr("none"))
            .arg(ms(e.budget));
    }
    QString operator()(const StageQueued &e) const
    {
        return EventLogModel::tr("%1 has %2 of %3 attempts in flight: queued behind %4; the budget has not started")
            .arg(toId(e.provider))
            .arg(e.inFlight)
            .arg(e.limit)
            .arg(e.ahead);
    }
    QString operator()(const StageAdmitted &e) const
    {
        return EventLogModel::tr("%1 admitted after waiting %2; the budget starts now").arg(toId(e.provider), ms(e.waited));
    }
    QString operator()(const AttemptStarted &e) const
    {
        if (e.deadline.count() <= 0)
            return EventLogModel::tr("%1 %2 (%3), round %4").arg(toId(e.provider), words::role(e.role), e.model).arg(e.round);
        return EventLogModel::tr("%1 %2 (%3), round %4, deadline at %5")
            .arg(toId(e.provider), words::role(e.role), e.model)
            .arg(e.round)
            .arg(ms(e.deadline));
    }
    QString operator()(const AttemptCompleted &e) const
    {
        QString s = EventLogModel::tr("%1 %2 %3 in %4")
                        .arg(toId(e.provider), words::role(e.role),
                             e.success || !e.failure ? EventLogModel::tr("ok") : enumName(e.failure->kind), ms(e.duration));
        if (e.httpStatus)
            s += EventLogModel::tr(" (HTTP %1)").arg(*e.httpStatus);
        if (e.abortedBy != AbortReason::None)
            s += EventLogModel::tr(", aborted: %1").arg(toId(e.abortedBy));
        return s;
    }
    QString operator()(const FallbackTriggered &e) const
    {
        if (e.remainingBudget.count() <= 0)
            return EventLogModel::tr("%1 → %2 on %3 (%4)").arg(toId(e.from), toId(e.to), enumName(e.kind), e.reason);
        return EventLogModel::tr("%1 → %2 on %3, %4 of budget left (%5)")
            .arg(toId(e.from), toId(e.to), enumName(e.kind))
            .arg(ms(e.remainingBudget))
            .arg(e.reason);
    }
    QString operator()(const PrimarySkipped &e) const
    {
        return EventLogModel::tr("%1 skipped (%2): %3; %4 gets the stage with %5 of budget")
            .arg(toId(e.provider), e.state, localizedRecordText(e.why), toId(e.to))
            .arg(ms(e.remainingBudget));
    }
    QString operator()(const RetryScheduled &e) const
    {
        return EventLogModel::tr("%1 again after %2 (%3), round %4")
            .arg(toId(e.provider))
            .arg(ms(e.pause))
            .arg(enumName(e.kind))
            .arg(e.nextRound);
    }
    QString operator()(const LateResultDiscarded &e) const
    {
        return EventLogModel::tr("%1 %2 answered %3 after its deadline; refused").arg(toId(e.provider), words::role(e.role), ms(e.lateBy));
    }
    QString operator()(const GenerationFinished &e) const
    {
        if (e.state == FinalState::Succeeded)
            return e.fallbackApplied ? EventLogModel::tr("succeeded with fallback") : EventLogModel::tr("succeeded");
        return EventLogModel::tr("%1 at %2: %3 (%4)")
            .arg(words::state(toId(e.state)), e.stage ? toId(*e.stage) : QString(), e.publicCode ? enumName(*e.publicCode) : QString(),
                 e.kind ? enumName(*e.kind) : QString());
    }
};

} // namespace

EventLogModel::EventLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString EventLogModel::summary(const Event &event)
{
    return std::visit(Summary {}, event.body);
}

void EventLogModel::appendBatch(const QList<Event> &events)
{
    if (events.isEmpty())
        return;
    if (m_events.size() + events.size() > kMaxRows && m_events.size() >= kTrimRows) {
        beginRemoveRows({}, 0, kTrimRows - 1);
        m_events.remove(0, kTrimRows);
        endRemoveRows();
    }
    const int first = static_cast<int>(m_events.size());
    beginInsertRows({}, first, first + static_cast<int>(events.size()) - 1);
    m_events.append(events);
    endInsertRows();
}

void EventLogModel::clear()
{
    if (m_events.isEmpty())
        return;
    beginRemoveRows({}, 0, static_cast<int>(m_events.size()) - 1);
    m_events.clear();
    endRemoveRows();
}

int EventLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_events.size());
}

int EventLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Event &e = m_events.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return e.wallTime.isValid() ? e.wallTime.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : QString();
        case GenerationColumn:
            return DisplayMask::generationId(e.generationId);
        case TypeColumn:
            return words::eventType(e.type()); // the id in the tooltip and TypeRole
        case SummaryColumn:
            return summary(e);
        }
        return {};
    case SortRole:
        return index.column() == TimeColumn ? QVariant(e.wallTime) : data(index, Qt::DisplayRole);
    case TypeRole:
        return e.type();
    case GenerationIdRole:
        return e.generationId;
    case EventRole:
        return QVariant::fromValue(e);
    case Qt::ToolTipRole: // the whole id, and the type's id (what the API and the filter say)
        return index.column() == GenerationColumn ? QVariant(e.generationId)
            : index.column() == TypeColumn        ? QVariant(e.type())
                                                  : QVariant();
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case GenerationColumn:
        return tr("Generation");
    case TypeColumn:
        return tr("Event");
    case SummaryColumn:
        return tr("What happened");
    }
    return {};
}

} // namespace bullpen
