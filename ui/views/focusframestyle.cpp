// SPDX-License-Identifier: MIT
#include "focusframestyle.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

namespace bullpen {

void FocusFrameStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter, const QWidget *widget) const
{
    // Item views ask for a focus frame only around their current cell while they have focus.
    if (element != PE_FrameFocusRect || !qobject_cast<const QAbstractItemView *>(widget)) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    const bool selected = option->state & State_Selected;
    QPen pen(option->palette.color(selected ? QPalette::HighlightedText : QPalette::Highlight), 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->save();
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(QRectF(option->rect).adjusted(1, 1, -1, -1));
    painter->restore();
}

void FocusFrameStyle::ensureInstalled()
{
    QStyle *current = QApplication::style();
    if (qobject_cast<FocusFrameStyle *>(current))
        return;
    // A new instance of the running style by name: QProxyStyle would otherwise take the platform's.
    QApplication::setStyle(new FocusFrameStyle(QStyleFactory::create(current->name())));
}

} // namespace bullpen
