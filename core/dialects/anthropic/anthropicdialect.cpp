// SPDX-License-Identifier: MIT
#include "anthropicdialect.h"

#include "anthropicformat.h"

namespace bullpen {

const AnthropicDialect &AnthropicDialect::instance()
{
    static const AnthropicDialect dialect;
    return dialect;
}

std::unique_ptr<WireFormat> AnthropicDialect::format(Provider provider) const
{
    return std::make_unique<AnthropicFormat>(provider);
}

std::optional<QString> AnthropicDialect::route(const QString &path, const QString &base) const
{
    if (path != base + QStringLiteral("/messages"))
        return std::nullopt;
    return QString();
}

// Anthropic takes x-api-key or a bearer token (its current SDK sends the latter).
bool AnthropicDialect::carriesCredentials(const SimRequest &request) const
{
    return !request.header("x-api-key").isEmpty() || Dialect::carriesCredentials(request);
}

void AnthropicDialect::flavour(Storyboard &board) const
{
    for (Panel &p : board.panels)
        p.scene = QStringLiteral("In this panel, %1").arg(p.scene);
}

} // namespace bullpen
