// SPDX-License-Identifier: MIT
#pragma once

#include <QProxyStyle>

namespace bullpen {

// The focused cell of a table or list framed so that it can be seen from across a desk: a 2 px line
// in the highlight colour (on a selected row, in the selected text's colour), over whatever style and
// palette the application runs with. Every other element is the style's own.
class FocusFrameStyle final : public QProxyStyle
{
    Q_OBJECT
public:
    using QProxyStyle::QProxyStyle;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;

    // Wraps the application's current style, unless it already is one of these (called by every main
    // window, so a style set after the last one — the dark theme's Fusion — is wrapped too).
    static void ensureInstalled();
};

} // namespace bullpen
