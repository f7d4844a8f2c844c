// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <chrono>
#include <cmath>
#include <optional>

namespace bullpen {

// Times travel as milliseconds with microsecond decimals (docs/contract.md §5's JSON).
inline double toJsonMs(std::chrono::microseconds us)
{
    return static_cast<double>(us.count()) / 1000.0;
}
inline std::chrono::microseconds fromJsonMs(double ms)
{
    return std::chrono::microseconds(std::llround(ms * 1000.0));
}

// Reads the fields of one JSON object that Bullpen wrote (events, attempt records, results), keeping the
// first thing that was wrong as "field \"x\": expected y": the caller reads every field it needs, then
// asks error() once.
class JsonFields
{
public:
    explicit JsonFields(const QJsonObject &o)
        : m_o(o)
    {
    }

    QString string(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isString())
            fail(key, "a string");
        return v.toString();
    }
    QString optString(const char *key) const { return m_o.value(QLatin1StringView(key)).toString(); }
    double number(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isDouble())
            fail(key, "a number");
        return v.toDouble();
    }
    std::optional<double> optNumber(const char *key) const
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
    }
    bool optBoolean(const char *key) const { return m_o.value(QLatin1StringView(key)).toBool(); }
    bool boolean(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isBool())
            fail(key, "true or false");
        return v.toBool();
    }
    template<typename E, typename F> E id(const char *key, F parse)
    {
        const auto v = parse(string(key));
        if (!v) {
            fail(key, "a known name");
            return E {};
        }
        return *v;
    }
    template<typename F> auto optId(const char *key, F parse) -> decltype(parse(QStringView()))
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (v.isNull() || v.isUndefined())
            return std::nullopt;
        const auto parsed = parse(v.toString());
        if (!parsed)
            fail(key, "a known name or null");
        return parsed;
    }
    template<typename E> std::optional<E> optEnum(const char *key)
    {
        return optId(key, [](QStringView s) { return enumFromName<E>(s); });
    }
    TokenUsage tokens()
    {
        TokenUsage t;
        t.input = static_cast<qint64>(optNumber("tokens_in").value_or(-1));
        t.output = static_cast<qint64>(optNumber("tokens_out").value_or(-1));
        return t;
    }

    void fail(const char *key, const char *expected)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("field \"%1\": expected %2").arg(QLatin1StringView(key), QLatin1StringView(expected));
    }
    const QString &error() const { return m_error; }

private:
    // Held by value (a shared, reference-counted copy): callers pass temporaries such as
    // `value.toObject()`, which a reference would outlive. It did: release builds of the remote
    // client read a destroyed object and dropped every attempt of a result.
    const QJsonObject m_o;
    QString m_error;
};

} // namespace bullpen
