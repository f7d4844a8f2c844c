// SPDX-License-Identifier: MIT
#pragma once

#include "storyboardvalidator.h"

#include <QByteArrayView>

namespace bullpen {

// Turns a provider's text into a Storyboard. Accepts the JSON object alone or wrapped in one Markdown
// code fence (``` or ```json); nothing looser: no prose around it, no second fence, no JSON5.
class StoryboardParser final
{
public:
    static StoryboardCheck parse(QByteArrayView utf8Text);
    static StoryboardCheck parse(const QString &text);
};

} // namespace bullpen
