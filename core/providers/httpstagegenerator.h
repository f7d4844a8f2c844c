// SPDX-License-Identifier: MIT
#pragma once

#include "bodytemplate.h"
#include "engine/stagegenerator.h"
#include "wireformat.h"

#include <QNetworkAccessManager>

#include <memory>
#include <optional>

namespace bullpen {

class NetworkPool;

// The one adapter class: a WireFormat spoken over HTTP (httpexchange.h). One generate() is exactly one
// HTTP request: no redirects followed, no silent resend, requestSent counted; its cancel handler aborts
// the request on the wire. It never retries and never decides a failure kind.
class HttpStageGenerator final : public StageGenerator
{
public:
    static constexpr qint64 kMaxBodyBytes = 8 * 1024 * 1024;

    // How an http:// endpoint is reached: through the egress guard (guardedreply.h), as shipped, or
    // through Qt's own client, which a hostile provider can wedge (benchmarks compare the two).
    // https:// endpoints always go through Qt's.
    enum class Transport { Guarded, Qt };

    HttpStageGenerator(NetworkPool &pool, ProviderEndpoint endpoint, Transport transport = Transport::Guarded);
    ~HttpStageGenerator() override;

    Provider provider() const override { return m_endpoint.provider; }
    WireDialect dialect() const override { return m_endpoint.dialect(); }
    QString model() const override { return m_endpoint.model; }
    bool isConfigured() const override;
    QStringList secrets() const override { return { m_endpoint.apiKey }; }
    Price price() const override { return m_endpoint.price; }
    void generate(const StageRequest &request, std::shared_ptr<AttemptContext> context) override;

    const ProviderEndpoint &endpoint() const { return m_endpoint; }
    const WireFormat &format() const { return *m_format; }

    // Retry-After (seconds or HTTP date) and retry-after-ms, as the SDKs read them.
    static std::optional<std::chrono::milliseconds> retryAfter(const QByteArray &retryAfterMs, const QByteArray &retryAfterValue);

private:
    NetworkPool &m_pool;
    ProviderEndpoint m_endpoint;
    std::unique_ptr<WireFormat> m_format;
    BodyTemplate m_bodies; // of m_format and m_endpoint
    Transport m_transport;
};

} // namespace bullpen
