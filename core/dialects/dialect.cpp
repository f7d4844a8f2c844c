// SPDX-License-Identifier: MIT
#include "dialect.h"

#include <QJsonArray>

namespace bullpen {

// Most SDKs send the key as a bearer token.
bool Dialect::carriesCredentials(const SimRequest &request) const
{
    const QByteArray authorization = request.header("authorization");
    return authorization.startsWith("Bearer ") && authorization.size() > 7;
}

bool Dialect::requestWantsStream(const QJsonObject &request, const QString &) const
{
    return request.value(QLatin1StringView("stream")).toBool();
}

QString Dialect::userMessages(const QJsonObject &request)
{
    QString text;
    const QJsonArray messages = request.value(QLatin1StringView("messages")).toArray();
    for (const QJsonValue &m : messages) {
        const QJsonObject mo = m.toObject();
        if (mo.value(QLatin1StringView("role")).toString() == u"user")
            text += mo.value(QLatin1StringView("content")).toString();
    }
    return text;
}

} // namespace bullpen
