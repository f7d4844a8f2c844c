// SPDX-License-Identifier: MIT
#include "comparemodel.h"

#include "contract/textdiff.h"
#include "views/tones.h"

#include <QColor>

namespace bullpen {

namespace {

// Words that differ, marked in the palette's "changed" tone.
QString changedStyle()
{
    return QStringLiteral("background-color:%1;").arg(tones::css(tones::background(tones::Tone::Changed)));
}

} // namespace

CompareModel::CompareModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString CompareModel::rowText(const ComparisonSide &side, int row)
{
    if (row == Captions)
        return side.captions.join(QLatin1Char('\n'));
    if (!side.storyboard)
        return {};
    if (row == Title)
        return side.storyboard->title;
    const int i = row - Panel1;
    if (i < 0 || i >= side.storyboard->panels.size())
        return {};
    const Panel &p = side.storyboard->panels.at(i);
    QStringList lines;
    lines << p.scene;
    if (!p.characters.isEmpty())
        lines << tr("Characters: %1").arg(p.characters.join(QStringLiteral(", ")));
    for (const DialogueLine &d : p.dialogue)
        lines << QStringLiteral("%1: %2").arg(d.speaker, d.text);
    return lines.join(QLatin1Char('\n'));
}

void CompareModel::setComparison(const Comparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    m_changedWords = 0;
    m_totalWords = 0;
    for (int r = 0; r < RowCount; ++r) {
        const QString left = rowText(comparison.primary, r);
        const QString right = rowText(comparison.fallback, r);
        auto html = [](const QList<DiffSpan> &spans) {
            return TextDiff::toHtml(spans, changedStyle()).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        };
        if (left.isEmpty() || right.isEmpty()) {
            // One side has nothing to compare with: shown plain.
            m_cells[r][0] = Cell { left, left.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")), 0 };
            m_cells[r][1] = Cell { right, right.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")), 0 };
            continue;
        }
        const TextDiff d = TextDiff::compute(left, right);
        m_cells[r][0] = Cell { left, html(d.left), d.changedLeft };
        m_cells[r][1] = Cell { right, html(d.right), d.changedRight };
        m_changedWords += d.changedLeft + d.changedRight;
        m_totalWords += static_cast<int>(TextDiff::words(left).size() + TextDiff::words(right).size());
    }
    endResetModel();
}

int CompareModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : RowCount;
}

int CompareModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2;
}

QVariant CompareModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Cell &c = m_cells[index.row()][index.column()];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return c.text;
    case HtmlRole:
        return c.html;
    case ChangedRole:
        return c.changed > 0;
    case ChangedWordsRole:
        return c.changed;
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section > 1)
            return {};
        const ComparisonSide &s = section == 0 ? m_comparison.primary : m_comparison.fallback;
        return section == 0 ? tr("Primary: %1").arg(toId(s.provider)) : tr("Fallback: %1").arg(toId(s.provider));
    }
    switch (section) {
    case Title:
        return tr("Title");
    case Captions:
        return tr("Captions");
    default: {
        const int i = section - Panel1;
        const QString panelRole = i >= 0 && i < panelRoles().size() ? panelRoles().at(i) : QString();
        return tr("Panel %1\n%2").arg(i + 1).arg(panelRole);
    }
    }
}

} // namespace bullpen
