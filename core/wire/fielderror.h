// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bullpen {

// A refused request: which field (dotted for nested ones, empty for the body as a whole) and why, in
// words an API client can act on. The service answers it with 400.
struct FieldError
{
    QString field;
    QString message;
    bool tooLarge = false; // a size limit (the service answers 413, not 400)
    QString toString() const { return field.isEmpty() ? message : field + QStringLiteral(": ") + message; }
};

} // namespace bullpen
