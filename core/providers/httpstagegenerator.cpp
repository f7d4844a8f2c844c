// SPDX-License-Identifier: MIT
#include "httpstagegenerator.h"

#include "contract/providerregistry.h"
#include "engine/attemptcontext.h"
#include "httpexchange.h"
#include "networkpool.h"

#include <QDateTime>
#include <QHostAddress>

#include <cmath>

namespace bullpen {

using namespace std::chrono;

HttpStageGenerator::HttpStageGenerator(NetworkPool &pool, ProviderEndpoint endpoint, Transport transport)
    : m_pool(pool)
    , m_endpoint(std::move(endpoint))
    , m_format(WireFormat::create(m_endpoint.dialect(), m_endpoint.provider))
    , m_bodies(*m_format, m_endpoint)
    , m_transport(transport)
{
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

// The first header whose name or value would break the request's lines (a key pasted with its line
// break, a header value from a settings file), or nothing. Neither client may send it: the provider
// would read a header of the value's choosing.
std::optional<QByteArray> lineBreakingHeader(const QNetworkRequest &request)
{
    const auto breaks = [](const QByteArray &field) {
        return field.contains('\r') || field.contains('\n') || field.contains('\0');
    };
    for (const QByteArray &name : request.rawHeaderList()) {
        if (breaks(name) || breaks(request.rawHeader(name)))
            return name.left(64);
    }
    return std::nullopt;
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
    QNetworkRequest httpRequest = m_format->request(m_endpoint);
    if (request.scenario.isSet() && isLoopback(m_endpoint.baseUrl)) {
        // The built-in simulator's per-request scenario (ScenarioChoice); a real provider never sees it.
        httpRequest.setRawHeader("x-bullpen-scenario", request.scenario.name.toUtf8());
        httpRequest.setRawHeader("x-bullpen-roles", request.scenario.rolesHeader());
    }
    if (const std::optional<QByteArray> header = lineBreakingHeader(httpRequest)) {
        ProviderResponse r; // found before anything is sent: a configuration failure
        r.localConfigError = QStringLiteral("the request header \"%1\" for %2 holds a line break or NUL; nothing was sent "
                                            "(check the key or the headers configured for this provider)")
                                 .arg(QString::fromLatin1(*header), toId(m_endpoint.provider));
        context->deliver(r);
        return;
    }
    auto *exchange = new HttpExchange(*m_format, m_endpoint.dialect(), context, m_endpoint.stream, kMaxBodyBytes, &m_pool);
    exchange->start(m_pool, httpRequest, m_bodies.body(request), m_transport == Transport::Guarded);
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
