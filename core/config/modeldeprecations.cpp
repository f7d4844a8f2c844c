// SPDX-License-Identifier: MIT
#include "modeldeprecations.h"

#include "settings.h"

#include <array>

namespace bullpen {

namespace {

struct Entry
{
    Provider provider;
    const char *model;
    int year, month, day;
    const char *replacement;
};

// @anthropic-ai/sdk 1.14.0, internal/data/deprecated-models.js.
constexpr std::array kDeprecated {
    Entry { Provider::Anthropic, "claude-sonnet-4-5", 2026, 11, 30, "claude-sonnet-4-6" },
    Entry { Provider::Anthropic, "claude-sonnet-4-5-20250929", 2026, 11, 30, "claude-sonnet-4-6" },
    Entry { Provider::Anthropic, "claude-opus-4-5", 2027, 1, 22, "claude-opus-4-7" },
    Entry { Provider::Anthropic, "claude-opus-4-5-20251101", 2027, 1, 22, "claude-opus-4-7" },
    Entry { Provider::Anthropic, "claude-mythos-preview", 2026, 6, 30, "claude-mythos-5" },
};

} // namespace

std::optional<ModelDeprecation> deprecationOf(Provider provider, const QString &model)
{
    for (const Entry &e : kDeprecated) {
        if (e.provider == provider && model == QLatin1StringView(e.model))
            return ModelDeprecation { provider, model, QDate(e.year, e.month, e.day), QString::fromLatin1(e.replacement) };
    }
    return std::nullopt;
}

QString deprecationWarning(Provider provider, const QString &model, const QDate &today)
{
    const auto d = deprecationOf(provider, model);
    if (!d)
        return {};
    const qint64 days = today.daysTo(d->endOfLife);
    const QString when = days < 0 ? QStringLiteral("reached its end of life on %1").arg(d->endOfLife.toString(Qt::ISODate))
        : days == 0               ? QStringLiteral("reaches its end of life today (%1)").arg(d->endOfLife.toString(Qt::ISODate))
                    : QStringLiteral("reaches its end of life on %1, in %2 days").arg(d->endOfLife.toString(Qt::ISODate)).arg(days);
    return QStringLiteral("%1 model %2 %3; set %4 (or providers.%1.model in the settings file) to %5")
        .arg(toId(provider), model, when, modelVariable(provider), d->replacement);
}

} // namespace bullpen
