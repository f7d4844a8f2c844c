// SPDX-License-Identifier: MIT
#pragma once

#include "wireformat.h"

namespace bullpen {

// Anthropic Messages (docs/simulator-fidelity.md): text found by block type, never by position.
class AnthropicFormat final : public WireFormat
{
public:
    Provider provider() const override { return Provider::Anthropic; }
    QNetworkRequest request(const ProviderEndpoint &endpoint) const override;
    QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const override;
    void parseBody(const QByteArray &body, ProviderResponse &out) const override;
    std::unique_ptr<StreamDecoder> streamDecoder() const override;
};

} // namespace bullpen
