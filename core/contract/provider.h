// SPDX-License-Identifier: MIT
#pragma once

#include <QHashFunctions>
#include <QMetaType>
#include <QString>

#include <compare>
#include <optional>

namespace bullpen {

// A provider: one entry of the provider registry (providerregistry.h). The four built-in providers
// are named constants; a provider added by the settings file has only its registry entry. A value is
// the entry's index, so it compares, orders and hashes as cheaply as an enum, and it orders as the
// registry lists providers (built-ins first). Its name on the wire, in the store and in settings is
// toId(provider); providerFromId() reads it back.
class Provider
{
public:
    constexpr Provider() = default; // the first built-in (gemini)

    static const Provider Gemini;
    static const Provider Qwen;
    static const Provider OpenAI;
    static const Provider Anthropic;

    constexpr int index() const { return m_index; }
    // For the registry only: the provider at `index` of its table.
    static constexpr Provider atIndex(int index) { return Provider(index); }

    friend constexpr bool operator==(Provider, Provider) = default;
    friend constexpr std::strong_ordering operator<=>(Provider, Provider) = default;

private:
    explicit constexpr Provider(int index)
        : m_index(index)
    {
    }
    int m_index = 0;
};

inline constexpr Provider Provider::Gemini { 0 };
inline constexpr Provider Provider::Qwen { 1 };
inline constexpr Provider Provider::OpenAI { 2 };
inline constexpr Provider Provider::Anthropic { 3 };

inline size_t qHash(Provider provider, size_t seed = 0) noexcept
{
    return ::qHash(provider.index(), seed);
}

// "gemini", "qwen", "local-vllm": the provider's id in the registry.
QString toId(Provider provider);
// The registered provider with this id (case does not matter), if any.
std::optional<Provider> providerFromId(QStringView id);
// The same for an id read from a store, an event or another engine: a provider not configured here
// (an engine's added provider, or one since removed) is still a provider, known by its id.
std::optional<Provider> providerFromStored(QStringView id);
// The provider a stored row names, or, when its id cannot be read (empty, or not an id's shape), the
// unlisted "(unknown)": such a row is never shown as a real provider's.
Provider storedProviderOrUnknown(QStringView id);

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Provider)
