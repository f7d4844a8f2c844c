// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <utility>

namespace bullpen {

// One answer of the engine's HTTP API, as a handler returns it and EngineService writes it, with the
// shapes every handler answers in: a JSON body, an error (docs/api.md, "Errors").
struct ApiReply
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = "application/json";
    QList<std::pair<QByteArray, QByteArray>> headers;

    static ApiReply json(int status, const QJsonObject &body);
    // {"error": {"status", "message", "field"}}; `field` names the request's field at fault, if one is.
    static ApiReply error(int status, const QString &message, const QString &field = {});
    static ApiReply historyUnreadable(const QString &why); // 503: the store did not answer
};

} // namespace bullpen
