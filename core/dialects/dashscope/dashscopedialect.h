// SPDX-License-Identifier: MIT
#pragma once

#include "dialects/openai/openaidialect.h"

namespace bullpen {

// Qwen through DashScope's OpenAI-compatible mode: OpenAI's requests, answers and finish reasons, with
// its own token-limit field and JSON mode (DashScopeFormat), its own error codes (dashscopeerrors.cpp)
// and a moderation refusal that is an HTTP 400.
class DashScopeDialect final : public OpenAiDialect
{
public:
    static const DashScopeDialect &instance();

    QString id() const override { return QStringLiteral("dashscope"); }
    std::unique_ptr<WireFormat> format(Provider provider) const override;

    std::optional<FailureKind> errorKind(std::optional<int> status, const ErrorInfo &error) const override;

    QByteArray streamErrorEvent() const override;
    SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const override;
    bool refusesWithHttpError() const override { return true; }
    void flavour(Storyboard &board) const override;
};

} // namespace bullpen
