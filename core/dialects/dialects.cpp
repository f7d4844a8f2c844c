// SPDX-License-Identifier: MIT
#include "dialects.h"

#include "anthropic/anthropicdialect.h"
#include "contract/providerregistry.h"
#include "dashscope/dashscopedialect.h"
#include "gemini/geminidialect.h"
#include "openai/openaidialect.h"

#include <array>
#include <atomic>

namespace bullpen {

namespace {

// Every dialect by its WireDialect index: the built-ins, one line each and in WireDialect's order
// (contract/wiredialect.h), then those added. Slots are written once, before the engine runs, and
// read from every engine thread: atomics, so that a read never sees half a write.
constexpr std::size_t kMaxDialects = 16;

struct Table
{
    std::array<std::atomic<const Dialect *>, kMaxDialects> slots {};
    Table()
    {
        for (const Dialect *d : std::initializer_list<const Dialect *> {
                 &GeminiDialect::instance(),
                 &OpenAiDialect::instance(),
                 &DashScopeDialect::instance(),
                 &AnthropicDialect::instance(),
             })
            slots.at(static_cast<std::size_t>(WireDialect::fromId(d->id())->index())).store(d);
    }
};

Table &table()
{
    static Table t;
    return t;
}

} // namespace

const Dialect &Dialects::of(WireDialect dialect)
{
    const auto i = static_cast<std::size_t>(dialect.index());
    const Dialect *d = i < kMaxDialects ? table().slots.at(i).load() : nullptr;
    return d ? *d : *table().slots.front().load();
}

WireDialect Dialects::add(const Dialect &dialect)
{
    const WireDialect w = WireDialect::declare(dialect.id(), dialect.defaultAuthHeader());
    Q_ASSERT(static_cast<std::size_t>(w.index()) < kMaxDialects);
    table().slots.at(static_cast<std::size_t>(w.index())).store(&dialect);
    return w;
}

// The faces the lower folders declare, defined here where the dialects are known
// (failure/errorrules.h, providers/wireformat.h).
const ErrorRules &ErrorRules::of(WireDialect dialect)
{
    return Dialects::of(dialect);
}

std::unique_ptr<WireFormat> WireFormat::create(Provider provider)
{
    return Dialects::of(ProviderRegistry::dialect(provider)).format(provider);
}

std::unique_ptr<WireFormat> WireFormat::create(WireDialect dialect, Provider provider)
{
    return Dialects::of(dialect).format(provider);
}

} // namespace bullpen
