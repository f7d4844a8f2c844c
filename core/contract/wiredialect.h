// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHashFunctions>
#include <QMetaType>
#include <QString>
#include <QStringView>

#include <compare>
#include <optional>

namespace bullpen {

// How a provider's requests and answers are spelled (docs/configuration.md, "Providers"): Google's
// Gemini API, OpenAI's Chat Completions, DashScope's compatible mode of it, Anthropic's Messages, or a
// dialect registered beside them. A value is the index of its row in the table of dialect ids (the
// built-ins first, in this order), so it compares and hashes as cheaply as an enum. What a dialect
// does lives in its folder under core/dialects/ (dialects/dialect.h); here is only what the settings
// need before any of it runs: its id (the settings file's "format") and its default auth header.
class WireDialect
{
public:
    constexpr WireDialect() = default; // gemini

    static const WireDialect Gemini;
    static const WireDialect OpenAI;
    static const WireDialect DashScope;
    static const WireDialect Anthropic;

    constexpr int index() const { return m_index; }
    // One of the four above, rather than a dialect registered beside them.
    constexpr bool isBuiltIn() const;

    // The header a provider of this dialect sends its key in unless it says otherwise.
    QByteArray defaultAuthHeader() const;

    // The dialect with this id (case does not matter), if any.
    static std::optional<WireDialect> fromId(QStringView id);
    // Adds a dialect's row (core/dialects/dialects.cpp does, when a dialect is registered); an id
    // already known returns its dialect.
    static WireDialect declare(const QString &id, const QByteArray &defaultAuthHeader);

    friend constexpr bool operator==(WireDialect, WireDialect) = default;
    friend constexpr std::strong_ordering operator<=>(WireDialect, WireDialect) = default;

private:
    explicit constexpr WireDialect(int index)
        : m_index(index)
    {
    }
    int m_index = 0;
};

inline constexpr WireDialect WireDialect::Gemini { 0 };
inline constexpr WireDialect WireDialect::OpenAI { 1 };
inline constexpr WireDialect WireDialect::DashScope { 2 };
inline constexpr WireDialect WireDialect::Anthropic { 3 };

constexpr bool WireDialect::isBuiltIn() const
{
    return m_index <= Anthropic.m_index;
}

inline size_t qHash(WireDialect dialect, size_t seed = 0) noexcept
{
    return ::qHash(dialect.index(), seed);
}

// "gemini", "openai", "dashscope", "anthropic": the dialect's id.
QString toId(WireDialect dialect);

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::WireDialect)
