// SPDX-License-Identifier: MIT
#include "enginecall.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace bullpen::cli {

EngineAnswer callEngine(const EngineEndpoint &endpoint, const QString &path, const QUrlQuery &query, const QByteArray *postBody,
                        qint64 maxBytes)
{
    QNetworkAccessManager network;
    useProxyRules(network, endpoint.routes); // an engine behind a proxy, as every other client of it
    QNetworkRequest request = endpoint.request(path, query);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = postBody ? network.post(request, *postBody) : network.get(request);
    EngineEndpoint::cap(reply, maxBytes);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    EngineAnswer a;
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString capped = EngineEndpoint::capped(reply);
    a.body = capped.isEmpty() ? reply->read(maxBytes) : QByteArray();
    if (!capped.isEmpty())
        a.error = capped;
    else if (a.status < 200 || a.status > 299)
        a.error = EngineEndpoint::errorOf(a.status, a.body, reply->errorString());
    reply->deleteLater();
    return a;
}

} // namespace bullpen::cli
