// SPDX-License-Identifier: MIT
#pragma once

#include "dialects/openai/openaiformat.h"

namespace bullpen {

// DashScope's compatible mode: OpenAI's request with max_tokens, JSON mode, and thinking off
// (non-streaming thinking calls are refused).
class DashScopeFormat final : public OpenAiFormat
{
public:
    using OpenAiFormat::OpenAiFormat;

protected:
    void askFor(QJsonObject &root, const ProviderEndpoint &endpoint, const StageRequest &request, const QJsonObject &schema) const override;
};

} // namespace bullpen
