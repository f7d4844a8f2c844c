// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>

#include <optional>

namespace bullpen::jsonread {

// Parses a provider body that must be one JSON object; on failure says what was wrong in *why.
inline std::optional<QJsonObject> object(const QByteArray &bytes, QString *why)
{
    if (QByteArrayView(bytes).trimmed().isEmpty()) { // a view: no copy of the body
        *why = QStringLiteral("empty body");
        return std::nullopt;
    }
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        *why = QStringLiteral("body is not JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *why = QStringLiteral("body is JSON but not an object");
        return std::nullopt;
    }
    return doc.object();
}

// The same, for a whole 2xx body: on failure records why in `malformed` (ProviderResponse::malformedBody).
inline std::optional<QJsonObject> body(const QByteArray &bytes, QString &malformed)
{
    QString why;
    auto o = object(bytes, &why);
    if (!o)
        malformed = why;
    return o;
}

// A whole number >= 0 that a double holds exactly (up to 2^53), or nothing. Anything else (negative,
// fractional, 1e300, inf) is not a count: converting it would be undefined behaviour (found by
// fuzz_provider_body).
inline std::optional<qint64> wholeNumber(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= 0 && d <= 9007199254740992.0) || d != static_cast<double>(static_cast<qint64>(d)))
        return std::nullopt;
    return static_cast<qint64>(d);
}

// A token count as providers send it; -1 when absent or not a whole number >= 0.
inline qint64 count(const QJsonValue &v)
{
    return wholeNumber(v).value_or(-1);
}

} // namespace bullpen::jsonread
