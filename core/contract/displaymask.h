// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// docs/contract.md §5.1: how a user and a generation are shown to people (the console, the CLI, exports,
// and the `user` the engine puts in `generation_started`). The keyed hash that groups a user's failures
// is the store's (store/masking.h).
namespace DisplayMask {

// "haru_ul" → "ha****ul"; "haru@example.com" → "h***@e***.com"; short ids keep one character.
QString user(const QString &rawUserId);
// "gen_7f3a0d…c91e" → "gen_7f3a…c91e"
QString generationId(const QString &generationId);
// A control or format character: never shown in a mask, an export or a log line.
bool isControl(QChar c);

} // namespace DisplayMask

} // namespace bullpen
