// SPDX-License-Identifier: MIT
#pragma once

#include "dialects/dialect.h"

namespace bullpen {

// Google's Gemini API: generateContent and streamGenerateContent (docs/simulator-fidelity.md). Asked
// and read by GeminiFormat; its rules in geminierrors.cpp, its simulated answers in geminisimwriter.cpp.
class GeminiDialect final : public Dialect
{
public:
    static const GeminiDialect &instance();

    QString id() const override { return QStringLiteral("gemini"); }
    QByteArray defaultAuthHeader() const override { return "x-goog-api-key"; }
    std::unique_ptr<WireFormat> format(Provider provider) const override;

    std::optional<FailureKind> errorKind(std::optional<int> status, const ErrorInfo &error) const override;
    std::optional<Failure> finishFailure(const QString &reason) const override;

    std::optional<QString> route(const QString &path, const QString &base) const override;
    bool carriesCredentials(const SimRequest &request) const override;
    QString storyFromRequest(const QJsonObject &request) const override;
    bool requestWantsStream(const QJsonObject &request, const QString &path) const override;
    bool isImageRequest(const QJsonObject &request) const override;

    QByteArray eol() const override { return "\r\n"; }
    QByteArray body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const override;
    QList<QByteArray> stream(const QString &model, const QString &text, const QStringList &parts, SimEnding ending, TokenUsage usage,
                             bool includeUsage) const override;
    bool streamsAsJsonArray() const override { return true; }
    QByteArray streamErrorEvent() const override;
    QByteArray malformedStreamEvent() const override;
    QByteArray malformedBody() const override;
    SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const override;

    // Gemini image generation (the image stage speaks Gemini's API): a 2xx body carrying an image as
    // inlineData, given as its base64 text.
    static QByteArray imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage);
};

} // namespace bullpen
