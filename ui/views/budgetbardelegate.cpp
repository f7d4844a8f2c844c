// SPDX-License-Identifier: MIT
#include "budgetbardelegate.h"

#include "models/generationlistmodel.h"
#include "views/tones.h"

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
    painter->setBrush(tones::color(tones::Tone::Muted));
    painter->drawRect(frame);
    const tones::Tone tone = left > 0.5 ? tones::Tone::Success : left > 0.2 ? tones::Tone::Warning : tones::Tone::Failure;
    painter->setBrush(tones::color(tone));
    painter->drawRect(QRectF(frame.left(), frame.top(), frame.width() * left, frame.height()));
    painter->setPen(left > 0.5 ? tones::onColor(tone) : option.palette.color(QPalette::Text));
    painter->drawText(frame, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

} // namespace bullpen
