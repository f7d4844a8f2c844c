// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/price.h"
#include "contract/providerregistry.h"
#include "engine/stagegenerator.h"
#include "failure/providerresponse.h"
#include "sseparser.h"

#include <QByteArray>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QUrl>

#include <memory>

namespace bullpen {

// Where and how one provider is called.
struct ProviderEndpoint
{
    Provider provider = Provider::Gemini;
    QUrl baseUrl;
    QString model;
    QString apiKey; // sent only in a header; never logged
    bool stream = true;
    int maxOutputTokens = 4096;
    Price price; // what its answers cost (docs/contract.md §16)
    // What the provider is for the engine that calls it (its settings' ProviderTable): dialect, auth
    // header, query. Empty: the process's registry (a test's or a tool's endpoint made by hand).
    std::optional<ProviderSpec> spec;

    ProviderSpec described() const { return spec ? *spec : ProviderRegistry::spec(provider); }
    WireDialect dialect() const { return spec ? spec->dialect : dialectOf(provider); }
};

// Reads one provider's server-sent events into a ProviderResponse, and knows the stream's terminal
// marker (Gemini: a chunk with finishReason or a blocked prompt; OpenAI/DashScope: [DONE];
// Anthropic: message_stop). A stream that ends without it was cut off.
class StreamDecoder
{
public:
    virtual ~StreamDecoder() = default;
    virtual void onEvent(const SseEvent &event, ProviderResponse &out) = 0;
    bool terminated() const { return m_terminated; }

protected:
    // The event's data as a JSON object; otherwise records why in out.malformedBody and ends the stream.
    std::optional<QJsonObject> chunk(const SseEvent &event, ProviderResponse &out);
    // Records an error event inside the stream (classified later) and ends the stream.
    void streamError(const SseEvent &event, ProviderResponse &out);
    void end() { m_terminated = true; }

private:
    bool m_terminated = false;
};

// One provider's wire format: how to ask, and how to read the answer. Pure functions of their inputs,
// so that parsers can be table-tested and fuzzed without a network.
class WireFormat
{
public:
    virtual ~WireFormat() = default;
    virtual Provider provider() const = 0;
    // URL and provider headers (auth included). The transport adds the rest.
    virtual QNetworkRequest request(const ProviderEndpoint &endpoint) const = 0;
    virtual QByteArray body(const ProviderEndpoint &endpoint, const StageRequest &request) const = 0;
    // A complete 2xx body (non-streaming). Sets text, finish reason, refusals, usage, or malformedBody.
    virtual void parseBody(const QByteArray &body, ProviderResponse &out) const = 0;
    virtual std::unique_ptr<StreamDecoder> streamDecoder() const = 0;

    // The provider's dialect's format (defined in core/dialects/dialects.cpp, where the dialects are known).
    static std::unique_ptr<WireFormat> create(Provider provider);
    // `dialect`'s format for `provider`, as an engine whose own table describes it asks for it.
    static std::unique_ptr<WireFormat> create(WireDialect dialect, Provider provider);
};

// The request path below base_url, e.g. "/models/gemini-2.5-flash:generateContent".
QUrl joinUrl(const QUrl &base, const QString &path);
// The request for `url` with the provider's extra query items (Azure's api-version) and the key in
// the provider's auth header, as its registry entry says (contract/providerregistry.h).
QNetworkRequest providerRequest(QUrl url, const ProviderEndpoint &endpoint);

} // namespace bullpen
