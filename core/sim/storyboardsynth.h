// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"
#include "contract/wiredialect.h"

namespace bullpen {

// The simulator's storyboard: derived deterministically from the story text, so the output visibly
// depends on the input. The story's sentences are spread over SETUP, DEVELOPMENT, TURN and CONCLUSION;
// quoted speech becomes dialogue; capitalised or repeated names become characters.
class StoryboardSynth final
{
public:
    static Storyboard fromStory(const QString &story);
    // The same story as one provider tells it: each has its own small habit (a shot direction per
    // panel, a framing phrase), so a side-by-side comparison shows real differences, deterministically.
    static Storyboard fromStory(const QString &story, WireDialect dialect);
    // The same in the dialect the process's registry knows for `provider` (tests and tools).
    static Storyboard fromStory(const QString &story, Provider provider);
    // The same, deliberately breaking one rule of docs/contract.md §2.1 (three panels), for invalid-output scenarios.
    static Storyboard brokenFromStory(const QString &story);
};

} // namespace bullpen
