// SPDX-License-Identifier: MIT
#pragma once

#include "providers/wireformat.h"

#include <QJsonObject>

namespace bullpen {

// OpenAI Chat Completions, and Qwen through DashScope's OpenAI-compatible endpoint, which differs in its token-limit field, JSON mode and
// error codes.
class OpenAiFormat : public WireFormat
{
public:
    explicit OpenAiFormat(Provider provider)
        : m_provider(provider)
    {
    }
    Provider provider() const override { return m_provider; }
    QNetworkRequest request(const ProviderEndpoint &endpoint) const override;
    QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const override;
    void parseBody(const QByteArray &body, ProviderResponse &out) const override;
    std::unique_ptr<StreamDecoder> streamDecoder() const override;

protected:
    // The token limit and the answer's shape: OpenAI's max_completion_tokens and a strict JSON schema.
    virtual void askFor(QJsonObject &root, const ProviderEndpoint &endpoint, const StageRequest &request, const QJsonObject &schema) const;

private:
    Provider m_provider;
};

} // namespace bullpen
