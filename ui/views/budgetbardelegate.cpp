// SPDX-License-Identifier: MIT
#include "budgetbardelegate.h"

#include "models/generationlistmodel.h"

#include <QPainter>

namespace bullpen {

void BudgetBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (index.data(GenerationListModel::FinishedRole).toBool()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const double left = index.data(GenerationListModel::BudgetFractionRole).toDouble();
    const QRectF frame = QRectF(option.rect).adjusted(4, 4, -4, -4);
    painter->save();
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xe0, 0xe0, 0xe0));
    painter->drawRect(frame);
    painter->setBrush(left > 0.5 ? QColor(0x2e, 0x8b, 0x57) : left > 0.2 ? QColor(0xe6, 0x7e, 0x22) : QColor(0xc0, 0x39, 0x2b));
    painter->drawRect(QRectF(frame.left(), frame.top(), frame.width() * left, frame.height()));
    painter->setPen(Qt::black);
    painter->drawText(frame, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

} // namespace bullpen
