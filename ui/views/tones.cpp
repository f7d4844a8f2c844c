// SPDX-License-Identifier: MIT
#include "tones.h"

#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace bullpen::tones {

namespace {

struct Pair
{
    QRgb light; // on a light window
    QRgb dark; // on a dark window
};

Pair colours(Tone t)
{
    switch (t) {
    case Tone::Failure:
        return { 0xc0392b, 0xff6b5b };
    case Tone::Success:
        return { 0x1e8449, 0x58d68d };
    case Tone::Warning:
        return { 0xd35400, 0xf5b041 };
    case Tone::Fallback:
        return { 0xb7950b, 0xf4d03f };
    case Tone::Running:
        return { 0x2e86c1, 0x5dade2 };
    case Tone::Own:
        return { 0x7a5a00, 0xe0c060 };
    case Tone::Simulator:
        return { 0x8e44ad, 0xc39bd3 };
    case Tone::Accent:
        return { 0x2980b9, 0x5dade2 };
    case Tone::Muted:
        return { 0xd5d8dc, 0x4d5656 };
    case Tone::Changed:
        return { 0xb7950b, 0xf4d03f };
    }
    return { 0x000000, 0xffffff };
}

Pair backgrounds(Tone t)
{
    switch (t) {
    case Tone::Failure:
        return { 0xfdecea, 0x4a2320 };
    case Tone::Success:
        return { 0xe9f7ef, 0x1d3b2a };
    case Tone::Warning:
        return { 0xfdf2e9, 0x4a3519 };
    case Tone::Fallback:
        return { 0xfff1cc, 0x4d4015 };
    case Tone::Changed:
        return { 0xfde68a, 0x5c4d10 };
    case Tone::Running:
    case Tone::Accent:
        return { 0xeaf2f8, 0x1b3246 };
    case Tone::Own:
        return { 0xfcf3cf, 0x3d3410 };
    case Tone::Simulator:
        return { 0xf4ecf7, 0x3b2646 };
    case Tone::Muted:
        return { 0xf2f3f4, 0x2c3333 };
    }
    return { 0xffffff, 0x000000 };
}

} // namespace

QPalette darkPalette()
{
    QPalette p;
    const QColor window = QColor::fromRgb(0x2b2d30), base = QColor::fromRgb(0x1e1f22), text = QColor::fromRgb(0xdfe1e5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor::fromRgb(0x26282b));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor::fromRgb(0x9a9da3)); // 4.9:1 on the window (notes under forms)
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor::fromRgb(0x3c3f41));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor::fromRgb(0xff6b5b));
    p.setColor(QPalette::Link, QColor::fromRgb(0x5dade2));
    p.setColor(QPalette::Highlight, QColor::fromRgb(0x2f65ca));
    p.setColor(QPalette::HighlightedText, QColor::fromRgb(0xffffff));
    p.setColor(QPalette::Mid, QColor::fromRgb(0x4e5157));
    p.setColor(QPalette::Dark, QColor::fromRgb(0x1a1b1d));
    p.setColor(QPalette::Light, QColor::fromRgb(0x505357));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor::fromRgb(0x7a7d82));
    return p;
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

bool isDark()
{
    return isDark(QGuiApplication::palette());
}

QColor color(Tone tone)
{
    const Pair p = colours(tone);
    return QColor::fromRgb(isDark() ? p.dark : p.light);
}

QColor background(Tone tone)
{
    const Pair p = backgrounds(tone);
    return QColor::fromRgb(isDark() ? p.dark : p.light);
}

QColor onColor(Tone tone)
{
    return textOn(color(tone));
}

QColor textOn(const QColor &fill)
{
    // Light fills (the dark set's) take dark text; the light set's strong fills take white.
    return fill.lightness() > 150 ? QColor::fromRgb(0x1b1b1b) : QColor::fromRgb(0xffffff);
}

QString css(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

QString boxStyle(Tone tone, int paddingPx)
{
    return QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3; padding: %4px; }")
        .arg(css(background(tone)), css(QGuiApplication::palette().color(QPalette::WindowText)), css(color(tone)))
        .arg(paddingPx);
}

QString panelStyle(int paddingPx)
{
    const QPalette p = QGuiApplication::palette();
    return QStringLiteral("QLabel { border: 1px solid %1; padding: %2px; background: %3; color: %4; }")
        .arg(css(p.color(QPalette::Mid)))
        .arg(paddingPx)
        .arg(css(p.color(QPalette::Base)), css(p.color(QPalette::Text)));
}

QString quietTextStyle()
{
    return QStringLiteral("QLabel { color: %1; }").arg(css(QGuiApplication::palette().color(QPalette::PlaceholderText)));
}

double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textColor(Tone tone)
{
    // The tone, darkened (light palette) or lightened (dark) in small steps until it reads as text on
    // the window: WCAG's 4.5:1 (several light tones, such as Warning's orange, are 3.5:1 as they are).
    const QColor window = QGuiApplication::palette().color(QPalette::Window);
    QColor c = color(tone);
    for (int i = 0; i < 20 && contrast(c, window) < 4.5; ++i)
        c = isDark() ? c.lighter(108) : c.darker(112);
    return c;
}

QString textStyle(Tone tone, bool bold, int pixelSize)
{
    QString s = QStringLiteral("QLabel { color: %1;").arg(css(textColor(tone)));
    if (bold)
        s += QStringLiteral(" font-weight: bold;");
    if (pixelSize > 0)
        s += QStringLiteral(" font-size: %1px;").arg(pixelSize);
    return s + QStringLiteral(" }");
}

} // namespace bullpen::tones
