// SPDX-License-Identifier: MIT
#pragma once

#include "contract/jsontype.h"
#include "wire/fielderror.h"

#include <QDateTime>
#include <QJsonObject>

#include <optional>

namespace bullpen {

// A wire row's fields read one by one for a codec: the first field missing or of the wrong type is kept
// as the refusal (named, with what was expected and what came) and the rest read as empty.
class FieldReader final
{
public:
    explicit FieldReader(const QJsonObject &o)
        : m_o(o)
    {
    }
    std::optional<FieldError> error;

    QString string(const char *name) { return check(name, QJsonValue::String, "a string") ? value(name).toString() : QString(); }
    // A string or null (null: empty).
    QString nullableString(const char *name) { return value(name).isNull() ? QString() : string(name); }
    qint64 integer(const char *name) { return check(name, QJsonValue::Double, "a number") ? value(name).toInteger() : 0; }
    std::optional<qint64> nullableInteger(const char *name) { return value(name).isNull() ? std::nullopt : std::optional(integer(name)); }
    // An id this side knows (fromId: providerFromId, roleFromId…); null when `nullable`.
    template<typename T, typename FromId> std::optional<T> id(const char *name, FromId fromId, bool nullable = false)
    {
        if (nullable && value(name).isNull())
            return std::nullopt;
        const QString given = string(name);
        if (error)
            return std::nullopt;
        std::optional<T> out = fromId(given);
        if (!out)
            refuse(name, QStringLiteral("\"%1\" is not one this side knows").arg(given.left(64)));
        return out;
    }
    // An ISO 8601 time with its zone; null when `nullable` (an invalid QDateTime).
    QDateTime time(const char *name, bool nullable = false)
    {
        if (nullable && value(name).isNull())
            return {};
        const QString given = string(name);
        const QDateTime t = error ? QDateTime() : QDateTime::fromString(given, Qt::ISODateWithMs);
        if (!error && !t.isValid())
            refuse(name, QStringLiteral("an ISO 8601 time expected, got \"%1\"").arg(given.left(64)));
        return t;
    }

private:
    QJsonValue value(const char *name) const { return m_o.value(QLatin1StringView(name)); }
    bool check(const char *name, QJsonValue::Type type, const char *expected)
    {
        if (error)
            return false;
        if (value(name).type() == type)
            return true;
        refuse(name, QStringLiteral("%1 expected, got %2").arg(QLatin1StringView(expected), jsonTypeName(value(name))));
        return false;
    }
    void refuse(const char *name, const QString &why)
    {
        if (!error)
            error = FieldError { QString::fromLatin1(name), why };
    }

    const QJsonObject &m_o;
};

} // namespace bullpen
