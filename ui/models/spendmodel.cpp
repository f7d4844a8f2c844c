// SPDX-License-Identifier: MIT
#include "spendmodel.h"

#include "words.h"

#include <QCoreApplication>
#include <QLocale>

namespace bullpen {

namespace {

// The columns, one row each: header, text and raw value of a spend row.
struct ColumnSpec
{
    const char *header;
    QString (*text)(const SpendRow &);
    QVariant (*raw)(const SpendRow &);
};

QString money(const SpendRow &r)
{
    if (r.currency.isEmpty())
        return QCoreApplication::translate("bullpen::SpendModel", "unknown");
    return QStringLiteral("%1 %2").arg(QLocale().toString(r.cost, 'f', r.cost < 1 ? 4 : 2), r.currency);
}

const ColumnSpec kColumns[SpendModel::ColumnCount] = {
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Provider"), [](const SpendRow &r) { return r.provider; },
      [](const SpendRow &r) {
          return QVariant(r.provider);
      } },
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Stage"), [](const SpendRow &r) { return words::stage(r.stage); },
      [](const SpendRow &r) {
          return QVariant(toId(r.stage));
      } },
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Role"), [](const SpendRow &r) { return words::role(r.role); },
      [](const SpendRow &r) {
          return QVariant(toId(r.role));
      } },
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Attempts"), [](const SpendRow &r) { return QLocale().toString(r.attempts); },
      [](const SpendRow &r) {
          return QVariant(r.attempts);
      } },
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Cost"), &money,
      [](const SpendRow &r) {
          return QVariant(r.cost);
      } },
    { QT_TRANSLATE_NOOP("bullpen::SpendModel", "Unknown cost"), [](const SpendRow &r) { return QLocale().toString(r.unknown); },
      [](const SpendRow &r) {
          return QVariant(r.unknown);
      } },
};

} // namespace

SpendModel::SpendModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void SpendModel::setSpend(const Spend &spend)
{
    beginResetModel(); // a new range: every row may differ (a handful of rows, never an append-only log)
    m_spend = spend;
    endResetModel();
}

int SpendModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_spend.rows.size());
}

int SpendModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SpendModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SpendRow &r = m_spend.rows.at(index.row());
    const ColumnSpec &c = kColumns[index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return c.text(r);
    case SortRole:
        return c.raw(r);
    case RowRole:
        return QVariant::fromValue(r);
    case Qt::TextAlignmentRole:
        return index.column() >= AttemptsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

QVariant SpendModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    return QCoreApplication::translate("bullpen::SpendModel", kColumns[section].header);
}

} // namespace bullpen
