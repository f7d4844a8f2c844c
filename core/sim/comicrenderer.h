// SPDX-License-Identifier: MIT
#pragma once

#include "contract/storyboard.h"

#include <QByteArray>
#include <QImage>

namespace bullpen {

// Draws the comic the simulator's image model returns: a 2×2 grid, each panel with its role, its scene
// text and its dialogue in speech bubbles. Korean text renders with Noto CJK (fonts-noto-cjk). Needs a
// QGuiApplication (any platform, "offscreen" included) for text; without one it draws the frames only.
class ComicRenderer final
{
public:
    static constexpr int kSize = 1024;
    static QImage render(const Storyboard &storyboard);
    static QByteArray renderPng(const Storyboard &storyboard);
};

} // namespace bullpen
