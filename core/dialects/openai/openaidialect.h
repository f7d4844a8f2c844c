// SPDX-License-Identifier: MIT
#pragma once

#include "dialects/dialect.h"

namespace bullpen {

// OpenAI's Chat Completions (docs/simulator-fidelity.md). Asked and read by OpenAiFormat; its rules in
// openaierrors.cpp, its simulated answers in openaisimwriter.cpp. DashScope's compatible mode builds on
// it (dialects/dashscope/).
class OpenAiDialect : public Dialect
{
public:
    static const OpenAiDialect &instance();

    QString id() const override { return QStringLiteral("openai"); }
    std::unique_ptr<WireFormat> format(Provider provider) const override;

    std::optional<FailureKind> errorKind(std::optional<int> status, const ErrorInfo &error) const override;
    std::optional<Failure> finishFailure(const QString &reason) const override;

    std::optional<QString> route(const QString &path, const QString &base) const override;
    QString storyFromRequest(const QJsonObject &request) const override { return userMessages(request); }

    QByteArray body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const override;
    QList<QByteArray> stream(const QString &model, const QString &text, const QStringList &parts, SimEnding ending, TokenUsage usage,
                             bool includeUsage) const override;
    QByteArray streamErrorEvent() const override;
    QByteArray malformedStreamEvent() const override;
    QByteArray malformedBody() const override;
    SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const override;
    QByteArray requestIdHeader() const override { return "x-request-id"; }
    void flavour(Storyboard &board) const override;
};

} // namespace bullpen
