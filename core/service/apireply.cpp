// SPDX-License-Identifier: MIT
#include "apireply.h"

#include <QJsonDocument>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcApi)

namespace bullpen {

ApiReply ApiReply::json(int status, const QJsonObject &body)
{
    return ApiReply { status, QJsonDocument(body).toJson(QJsonDocument::Compact), "application/json", {} };
}

ApiReply ApiReply::historyUnreadable(const QString &why)
{
    // The store's own words (an SQL error, its statement) go to the engine's log, never to a client.
    qCWarning(lcApi).noquote() << "the history could not be read:" << why;
    return error(503, QStringLiteral("the history cannot be read now (the store did not answer; the engine's log says why); retry"));
}

ApiReply ApiReply::error(int status, const QString &message, const QString &field)
{
    QJsonObject e { { QStringLiteral("status"), status }, { QStringLiteral("message"), message } };
    if (!field.isEmpty())
        e.insert(QStringLiteral("field"), field);
    return json(status, QJsonObject { { QStringLiteral("error"), e } });
}

} // namespace bullpen
