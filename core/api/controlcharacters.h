// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

#include <optional>

namespace bullpen {

// Ids, names, filters and cursors are printable text: a control character (U+0000–U+001F, U+007F–U+009F)
// in one is a client's mistake or an attack, and a NUL is an error inside PostgreSQL. Refused at the API's
// edge, before any handler or query sees it.

// The offset of the first control character in `text`, if any.
std::optional<qsizetype> firstControlCharacter(QStringView text);
// For a request's URL: which path segment or query parameter holds a control character (decoded), as a
// 400's message that says what to send instead; none when every part is printable.
std::optional<QString> controlCharacterRefusal(const QUrl &url);

} // namespace bullpen
