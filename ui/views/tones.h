// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QString>

class QPalette;

namespace bullpen::tones {

// What a colour means in the console. Every colour the views and models draw comes from here (a test
// greps for any other), chosen for the application palette: a dark palette gets lighter text colours
// and darker boxes, so nothing becomes light-on-light or dark-on-dark (docs/contract.md §9.10).
enum class Tone {
    Failure, // a failed attempt or generation, an error message
    Success, // a succeeded attempt or generation
    Warning, // degraded, a next step to take, p90
    Fallback, // a generation a fallback provider answered (row highlight)
    Running, // an attempt in flight
    Own, // waiting on Bullpen's own limit or deadline, never a provider's
    Simulator, // the built-in simulator or a scripted scenario
    Accent, // neutral series (fallback rate, the timeout line)
    Muted, // grid lines, the budget track, a bar's empty part
    Changed, // a cell that differs between primary and fallback output
};

// A dark palette for `bullpen --theme dark` and the screenshot tour's dark set (with the Fusion style).
QPalette darkPalette();

bool isDark(const QPalette &palette);
bool isDark(); // the application's palette

// The colour for text, lines and series.
QColor color(Tone tone);
// A background for a box or a highlighted row, with enough contrast to the palette's text.
QColor background(Tone tone);
// Text drawn on a fill of color(tone) (bar labels, span labels), or on any fill.
QColor onColor(Tone tone);
QColor textOn(const QColor &fill);
// "#rrggbb", for rich text and style sheets.
QString css(const QColor &color);
// A style sheet for a QLabel box in a tone: its background, a border in the tone and padding.
QString boxStyle(Tone tone, int paddingPx = 6);
// A plain panel: the palette's base colour, a mid border (text boxes that must stand out from the window).
QString panelStyle(int paddingPx = 6);
// Secondary text: the palette's placeholder colour (notes under a form).
QString quietTextStyle();
// WCAG contrast ratio of two colours (1 … 21).
double contrast(const QColor &a, const QColor &b);
// The tone as text on the window: at least 4.5:1 against it in either palette (textStyle uses it).
QColor textColor(Tone tone);
// A style sheet for a QLabel's text in a tone (`bold`: font-weight bold).
QString textStyle(Tone tone, bool bold = false, int pixelSize = 0);

} // namespace bullpen::tones
