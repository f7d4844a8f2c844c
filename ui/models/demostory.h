// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// The story every demo run and screenshot uses (Korean, four panels' worth): the screenshot tour's runs
// (bullpen-tour) and the console's `--grab` picture.
inline QString demoStory()
{
    return QStringLiteral("하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. \"열쇠를 잊었어,\" "
                          "고양이가 말한다. 하루와 고양이는 함께 집으로 돌아간다.");
}

} // namespace bullpen
