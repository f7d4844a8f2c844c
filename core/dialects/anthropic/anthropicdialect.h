// SPDX-License-Identifier: MIT
#pragma once

#include "dialects/dialect.h"

namespace bullpen {

// Anthropic's Messages API (docs/simulator-fidelity.md). Asked and read by AnthropicFormat; its rules in
// anthropicerrors.cpp, its simulated answers in anthropicsimwriter.cpp.
class AnthropicDialect final : public Dialect
{
public:
    static const AnthropicDialect &instance();

    QString id() const override { return QStringLiteral("anthropic"); }
    QByteArray defaultAuthHeader() const override { return "x-api-key"; }
    std::unique_ptr<WireFormat> format(Provider provider) const override;

    std::optional<FailureKind> errorKind(std::optional<int> status, const ErrorInfo &error) const override;
    std::optional<Failure> finishFailure(const QString &reason) const override;

    std::optional<QString> route(const QString &path, const QString &base) const override;
    bool carriesCredentials(const SimRequest &request) const override;
    QString storyFromRequest(const QJsonObject &request) const override { return userMessages(request); }

    QByteArray body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const override;
    QList<QByteArray> stream(const QString &model, const QString &text, const QStringList &parts, SimEnding ending, TokenUsage usage,
                             bool includeUsage) const override;
    QByteArray streamErrorEvent() const override;
    QByteArray malformedStreamEvent() const override;
    QByteArray malformedBody() const override;
    SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const override;
    // The named event an SDK reads first (message_start) and the thinking block come before the text.
    int malformedEventAt() const override { return 2; }
    QByteArray requestIdHeader() const override { return "request-id"; }
    QByteArray requestIdPrefix() const override { return "req_sim"; }
    void flavour(Storyboard &board) const override;
};

} // namespace bullpen
