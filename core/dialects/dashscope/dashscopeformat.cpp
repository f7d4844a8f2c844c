// SPDX-License-Identifier: MIT
#include "dashscopeformat.h"

namespace bullpen {

void DashScopeFormat::askFor(QJsonObject &root, const ProviderEndpoint &endpoint, const StageRequest &, const QJsonObject &) const
{
    root.insert(QStringLiteral("max_tokens"), endpoint.maxOutputTokens);
    root.insert(QStringLiteral("response_format"), QJsonObject { { QStringLiteral("type"), QStringLiteral("json_object") } });
    root.insert(QStringLiteral("enable_thinking"), false);
}

} // namespace bullpen
