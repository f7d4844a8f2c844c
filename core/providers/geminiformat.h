// SPDX-License-Identifier: MIT
#pragma once

#include "wireformat.h"

namespace bullpen {

// Gemini generateContent / streamGenerateContent?alt=sse (docs/simulator-fidelity.md).
class GeminiFormat final : public WireFormat
{
public:
    Provider provider() const override { return Provider::Gemini; }
    QNetworkRequest request(const ProviderEndpoint &endpoint) const override;
    QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const override;
    void parseBody(const QByteArray &body, ProviderResponse &out) const override;
    std::unique_ptr<StreamDecoder> streamDecoder() const override;
};

} // namespace bullpen
