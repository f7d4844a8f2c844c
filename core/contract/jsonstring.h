// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace bullpen {

// `text` as the contents of a JSON string (without the quotes), appended to `out` byte for byte as
// QJsonDocument::toJson writes it. ASCII is escaped here directly; text beyond ASCII goes through Qt's
// own encoder, so that the bytes stay identical. Used where JSON is written without building a
// QJsonObject: events (events/event.cpp) and request bodies (providers/bodytemplate.h).
void appendJsonStringContents(QByteArray &out, const QString &text);

} // namespace bullpen
