// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QString>

namespace bullpen::words {

// A generation's state as the reader's language says it ("failed" → "실패"); records and the API keep
// the id. An id this build does not know is shown as it is.
QString state(const QString &id);

// A provider's role in a stage as the reader's language says it ("primary" → "기본").
QString role(Role role);

// An event's type as the reader's language says it ("storyboard_attempt_started" → "스토리보드 · 시도
// 시작"); the id stays in the API, the records and the type filter's data. An unknown id as it is.
QString eventType(const QString &id);

// A stage's name as the reader's language says it ("storyboard" → "스토리보드"); ids stay in records.
QString stage(Stage stage);

} // namespace bullpen::words
