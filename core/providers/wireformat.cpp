// SPDX-License-Identifier: MIT
#include "wireformat.h"

#include "contract/providerregistry.h"
#include "jsonread.h"

#include <QUrlQuery>

namespace bullpen {

std::optional<QJsonObject> StreamDecoder::chunk(const SseEvent &event, ProviderResponse &out)
{
    QString why;
    auto o = jsonread::object(event.data, &why);
    if (!o) {
        out.malformedBody = QStringLiteral("stream event: ") + why;
        end();
    }
    return o;
}

void StreamDecoder::streamError(const SseEvent &event, ProviderResponse &out)
{
    out.errorBody = event.data;
    out.errorInStream = true;
    end();
}

QNetworkRequest providerRequest(QUrl url, const ProviderEndpoint &endpoint)
{
    const ProviderSpec spec = endpoint.described();
    if (!spec.query.isEmpty()) {
        QUrlQuery query(url);
        for (const auto &[name, value] : spec.query)
            query.addQueryItem(name, value);
        url.setQuery(query);
    }
    QNetworkRequest req(url);
    if (!spec.authHeader.isEmpty() && (spec.builtIn || !endpoint.apiKey.isEmpty()))
        req.setRawHeader(spec.authHeader,
                         spec.authScheme.isEmpty() ? endpoint.apiKey.toUtf8() : spec.authScheme + ' ' + endpoint.apiKey.toUtf8());
    else if (spec.authHeader.isEmpty() && !endpoint.apiKey.isEmpty())
        req.setRawHeader("x-sim-key", endpoint.apiKey.toUtf8()); // a provider that takes no key has one only from the built-in simulator
    return req;
}

QUrl joinUrl(const QUrl &base, const QString &path)
{
    QUrl url = base;
    QString p = url.path();
    while (p.endsWith(QLatin1Char('/')))
        p.chop(1);
    url.setPath(p + path);
    return url;
}

} // namespace bullpen
