// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

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
    // Numbers within JSON's exact integers (±2^53), so that every conversion of one is defined: a value
    // from another engine may be anything.
    static constexpr double kExact = 9007199254740992.0;
    double number(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isDouble() || !(std::abs(v.toDouble()) <= kExact)) {
            fail(key, "a number (within ±2^53)");
            return 0;
        }
        return v.toDouble();
    }
    std::optional<double> optNumber(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isDouble())
            return std::nullopt;
        if (!(std::abs(v.toDouble()) <= kExact)) {
            fail(key, "a number (within ±2^53)");
            return std::nullopt;
        }
        return v.toDouble();
    }
    // A whole number that fits I (truncated toward zero), or a failure naming the key.
    template<typename I> I integer(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        if (!v.isDouble()) {
            fail(key, "a number");
            return I {};
        }
        return fitting<I>(key, v.toDouble()).value_or(I {});
    }
    template<typename I> std::optional<I> optInteger(const char *key)
    {
        const QJsonValue v = m_o.value(QLatin1StringView(key));
        return v.isDouble() ? fitting<I>(key, v.toDouble()) : std::nullopt;
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
        t.input = optInteger<qint64>("tokens_in").value_or(-1);
        t.output = optInteger<qint64>("tokens_out").value_or(-1);
        return t;
    }

    template<typename I> std::optional<I> fitting(const char *key, double d)
    {
        constexpr double low = std::is_signed_v<I> ? std::max(double(std::numeric_limits<I>::min()), -kExact) : 0.0;
        constexpr double high = std::min(double(std::numeric_limits<I>::max()), kExact);
        if (!(d >= low && d <= high)) {
            fail(key, "a whole number in range");
            return std::nullopt;
        }
        return static_cast<I>(d);
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
