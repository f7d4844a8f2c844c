// SPDX-License-Identifier: MIT
#include "providerhealthmodel.h"

#include "units.h"
#include "views/tones.h"

#include <QLocale>

#include <map>
#include <tuple>

namespace bullpen {

ProviderHealthModel::ProviderHealthModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString ProviderHealthModel::ruleText()
{
    return tr("Failing now: over the last 5 minutes at least %1 attempts reached the provider and %2 % or more of them failed. "
              "Degraded: the same minimum and %3 % or more. Fewer than %1 attempts: too few to judge (grey). Attempts that "
              "never left Bullpen (NOT_SENT) or were cancelled are not the provider's and are not counted.")
        .arg(ProviderHealth::kMinAttempts)
        .arg(ProviderHealth::kFailingPercent, 0, 'f', 0)
        .arg(ProviderHealth::kDegradedPercent, 0, 'f', 0);
}

QString ProviderHealthModel::stateText(ProviderHealth::State state)
{
    switch (state) {
    case ProviderHealth::State::Failing:
        return tr("failing now");
    case ProviderHealth::State::Degraded:
        return tr("degraded");
    case ProviderHealth::State::TooFew:
        return tr("too few attempts");
    case ProviderHealth::State::Healthy:
        break;
    }
    return tr("healthy");
}

void ProviderHealthModel::setHealth(const QList<ProviderHealth> &last5, const QList<ProviderHealth> &last15)
{
    const auto keyOf = [](const ProviderHealth &h) {
        return std::tuple(h.provider, h.role, h.stage);
    };
    const auto empty = [](const ProviderHealth &h) {
        ProviderHealth e;
        e.provider = h.provider;
        e.role = h.role;
        e.stage = h.stage;
        return e;
    };
    std::map<std::tuple<Provider, Role, Stage>, Row> by;
    for (const ProviderHealth &h : last15)
        by[keyOf(h)] = Row { empty(h), h };
    for (const ProviderHealth &h : last5) {
        auto [it, added] = by.try_emplace(keyOf(h), Row { h, empty(h) }); // added: the windows were read a moment apart
        if (!added)
            it->second.last5 = h;
    }
    QList<Row> rows;
    for (const auto &[key, r] : by)
        rows << r;
    const bool sameKeys = rows.size() == m_rows.size()
        && std::equal(rows.cbegin(), rows.cend(), m_rows.cbegin(),
                      [&](const Row &a, const Row &b) { return keyOf(a.last5) == keyOf(b.last5); });
    if (!sameKeys) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    m_rows = rows;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int ProviderHealthModel::rowOf(Provider provider, Role role, Stage stage) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        const ProviderHealth &h = m_rows[i].last5;
        if (h.provider == provider && h.role == role && h.stage == stage)
            return i;
    }
    return -1;
}

int ProviderHealthModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProviderHealthModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProviderHealthModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    const int c = index.column();
    const bool five = c <= P90_5;
    const ProviderHealth &h = five ? r.last5 : r.last15;
    const int field = c >= Attempts15 ? c - Attempts15 : c - Attempts5; // 0 attempts … 5 p90
    if (role == StateRole)
        return static_cast<int>(r.last5.state());
    if (role == ValueRole) {
        switch (c) {
        case ProviderColumn:
            return toId(r.last5.provider);
        case RoleColumn:
            return toId(r.last5.role);
        case StageColumn:
            return toId(r.last5.stage);
        case StateColumn:
            return static_cast<int>(r.last5.state());
        default:
            break;
        }
        if (h.attempts == 0 && field != 0)
            return {};
        switch (field) {
        case 0:
            return h.attempts;
        case 1:
            return h.errorPercent();
        case 2:
            return h.topKind ? enumName(*h.topKind) : QVariant();
        case 3:
            return h.fallbackPercent() ? QVariant(*h.fallbackPercent()) : QVariant();
        case 4:
            return h.p50Ms;
        case 5:
            return h.p90Ms;
        }
        return {};
    }
    if (role == Qt::ForegroundRole && c == StateColumn) {
        const auto s = r.last5.state();
        return s == ProviderHealth::State::Failing ? tones::color(tones::Tone::Failure)
            : s == ProviderHealth::State::Degraded ? tones::color(tones::Tone::Warning)
            : s == ProviderHealth::State::TooFew   ? tones::color(tones::Tone::Muted)
                                                   : tones::color(tones::Tone::Success);
    }
    if (role == Qt::ToolTipRole && c == StateColumn)
        return ruleText();
    if (role == Qt::TextAlignmentRole && c > StateColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    const QLocale l;
    switch (c) {
    case ProviderColumn:
        return toId(r.last5.provider);
    case RoleColumn:
        return r.last5.role == Role::Primary ? tr("primary") : tr("fallback");
    case StageColumn:
        return toId(r.last5.stage);
    case StateColumn:
        return stateText(r.last5.state());
    default:
        break;
    }
    if (h.attempts == 0)
        return field == 0 ? QStringLiteral("0") : QStringLiteral("–");
    switch (field) {
    case 0:
        return l.toString(h.attempts);
    case 1:
        return QString(l.toString(h.errorPercent(), 'f', 1) + QStringLiteral(" %"));
    case 2:
        return h.topKind ? QStringLiteral("%1 ×%2").arg(enumName(*h.topKind), l.toString(h.topKindCount)) : QStringLiteral("–");
    case 3:
        return h.fallbackPercent() ? QString(l.toString(*h.fallbackPercent(), 'f', 0) + QStringLiteral(" %")) : QStringLiteral("–");
    case 4:
        return units::duration(h.p50Ms);
    case 5:
        return units::duration(h.p90Ms);
    }
    return {};
}

QVariant ProviderHealthModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        if (section == StateColumn)
            return ruleText();
        const int field = section >= Attempts15 ? section - Attempts15 : section - Attempts5;
        if (field == 3)
            return tr(
                "Of this provider's failed primary attempts, the share handed to the fallback provider (which then had its one attempt)");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ProviderColumn:
        return tr("Provider");
    case RoleColumn:
        return tr("Role");
    case StageColumn:
        return tr("Stage");
    case StateColumn:
        return tr("Now");
    default:
        break;
    }
    const QString window = section >= Attempts15 ? tr("15 min") : tr("5 min");
    const int field = section >= Attempts15 ? section - Attempts15 : section - Attempts5;
    const QString names[] = { tr("attempts"), tr("errors"), tr("top kind"), tr("to fallback"), tr("p50"), tr("p90") };
    return QStringLiteral("%1 %2").arg(window, names[field]);
}

} // namespace bullpen
