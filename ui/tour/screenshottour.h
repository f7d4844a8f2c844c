// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

namespace bullpen::tour {

// `bullpen-tour ROOT` (app/tour/main.cpp): the scripted tour in English, Korean (ROOT/ko) and dark (ROOT/dark),
// each on a fresh store seeded with synthetic history; `useLanguage` installs a language's
// translations. Returns the process's exit code.
int run(const QString &root, const std::function<void(const QString &language)> &useLanguage);

} // namespace bullpen::tour
