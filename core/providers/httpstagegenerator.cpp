// SPDX-License-Identifier: MIT
#include "httpstagegenerator.h"

#include "contract/providerregistry.h"
#include "egressguard.h"
#include "engine/attemptcontext.h"
#include "httpexchange.h"
#include "networkpool.h"

#include <QDateTime>
#include <QHostAddress>

#include <cmath>

namespace bullpen {

using namespace std::chrono;

HttpStageGenerator::HttpStageGenerator(NetworkPool &pool, ProviderEndpoint endpoint, EgressGuard *guard)
    : m_pool(pool)
    , m_endpoint(std::move(endpoint))
    , m_format(WireFormat::create(m_endpoint.dialect(), m_endpoint.provider))
    , m_bodies(*m_format, m_endpoint)
{
    if (guard && m_endpoint.baseUrl.scheme() == u"http" && !m_endpoint.baseUrl.host().isEmpty())
        m_route = guard->route(m_endpoint.baseUrl, &m_routeError);
}

HttpStageGenerator::~HttpStageGenerator() = default;

bool HttpStageGenerator::isConfigured() const
{
    // A provider that takes no key (an added one without key_variable: a self-hosted server) is
    // configured by its endpoint and model alone; it is sent no auth header (wireformat.cpp).
    const QString scheme = m_endpoint.baseUrl.scheme();
    const bool keyed = !m_endpoint.apiKey.isEmpty() || !m_endpoint.described().takesKey();
    return keyed && m_endpoint.baseUrl.isValid() && !m_endpoint.baseUrl.host().isEmpty() && (scheme == u"http" || scheme == u"https")
        && !m_endpoint.model.isEmpty();
}

namespace {

// The simulator listens on this machine; a provider never does.
bool isLoopback(const QUrl &url)
{
    const QString host = url.host();
    return host == u"localhost" || QHostAddress(host).isLoopback();
}

} // namespace

void HttpStageGenerator::generate(const StageRequest &request, std::shared_ptr<AttemptContext> context)
{
    if (!isConfigured()) {
        // Found before anything is sent: a configuration failure, not a network one.
        ProviderResponse r;
        const ProviderSpec spec = m_endpoint.described();
        r.localConfigError = m_endpoint.apiKey.isEmpty() && spec.takesKey()
            ? QStringLiteral("no API key for %1: set %2").arg(toId(m_endpoint.provider), spec.keyVariable)
            : QStringLiteral("unusable endpoint for %1: \"%2\"").arg(toId(m_endpoint.provider), m_endpoint.baseUrl.toString());
        context->deliver(r);
        return;
    }
    if (!m_routeError.isEmpty()) {
        ProviderResponse r;
        r.localConfigError = m_routeError;
        context->deliver(r);
        return;
    }
    ProviderEndpoint wire = m_endpoint;
    if (m_route)
        wire.baseUrl = *m_route;
    QNetworkRequest httpRequest = m_format->request(wire);
    if (request.scenario.isSet() && isLoopback(m_endpoint.baseUrl)) {
        // The built-in simulator's per-request scenario (ScenarioChoice); a real provider never sees it.
        httpRequest.setRawHeader("x-bullpen-scenario", request.scenario.name.toUtf8());
        httpRequest.setRawHeader("x-bullpen-roles", request.scenario.rolesHeader());
    }
    auto *exchange = new HttpExchange(*m_format, m_endpoint.dialect(), context, m_endpoint.stream, kMaxBodyBytes, &m_pool);
    exchange->start(m_pool, httpRequest, m_bodies.body(request));
}

std::optional<milliseconds> HttpStageGenerator::retryAfter(const QByteArray &retryAfterMs, const QByteArray &retryAfterValue)
{
    constexpr double kMaxMs = 24.0 * 3600 * 1000;
    bool ok = false;
    const double ms = retryAfterMs.trimmed().toDouble(&ok);
    if (ok && std::isfinite(ms) && ms > 0 && ms <= kMaxMs)
        return milliseconds(std::llround(ms));
    const QByteArray value = retryAfterValue.trimmed();
    if (value.isEmpty())
        return std::nullopt;
    const double seconds = value.toDouble(&ok);
    if (ok)
        return std::isfinite(seconds) && seconds >= 0 && seconds * 1000 <= kMaxMs
            ? std::optional(milliseconds(std::llround(seconds * 1000)))
            : std::nullopt;
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (!when.isValid())
        return std::nullopt;
    const qint64 delta = QDateTime::currentDateTimeUtc().msecsTo(when);
    return milliseconds(std::clamp<qint64>(delta, 0, static_cast<qint64>(kMaxMs)));
}

} // namespace bullpen
