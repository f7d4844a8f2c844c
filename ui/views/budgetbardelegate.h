// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace bullpen {

// Draws the remaining storyboard budget as a bar (GenerationListModel::BudgetFractionRole).
class BudgetBarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace bullpen
