// SPDX-License-Identifier: MIT
#pragma once

#include "providers/wireformat.h"

namespace bullpen {

// Anthropic Messages (docs/simulator-fidelity.md): text found by block type, never by position.
class AnthropicFormat final : public WireFormat
{
public:
    explicit AnthropicFormat(Provider provider)
        : m_provider(provider)
    {
    }
    Provider provider() const override { return m_provider; }
    QNetworkRequest request(const ProviderEndpoint &endpoint) const override;
    QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const override;
    void parseBody(const QByteArray &body, ProviderResponse &out) const override;
    std::unique_ptr<StreamDecoder> streamDecoder() const override;

private:
    Provider m_provider;
};

} // namespace bullpen
