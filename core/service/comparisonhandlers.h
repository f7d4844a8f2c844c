// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"

#include <QJsonObject>
#include <QString>

#include <map>

class QHttpServerRequest;
class QObject;
class QTcpSocket;

namespace bullpen {

class ComparisonRunner;
struct ApiToken;
struct ServiceContext;

// The service's handlers under /v1/comparisons (docs/api.md, "Comparisons"): start, read, list, cancel.
// They own the comparisons run lately, answered from memory; the runner that runs them is a QObject
// child of the service (deleted with it, after its connections to the service are gone).
class ComparisonHandlers final
{
public:
    // The runner is a child of `owner` (the service), its updates delivered while `owner` lives.
    ComparisonHandlers(ServiceContext &context, QObject *owner);

    ApiReply start(const QHttpServerRequest &request, const ApiToken &token);
    void entry(const QString &id, QTcpSocket *socket);
    void list(const QHttpServerRequest &request, QTcpSocket *socket);
    ApiReply cancel(const QString &id, const ApiToken &token);

    // A comparison as the API gives it: each side's result with its image's URL (GenerationHandlers::withImageUrl).
    static QJsonObject forApi(QJsonObject comparison);

private:
    ServiceContext &m_context;
    ComparisonRunner *m_runner = nullptr; // a child of the service
    std::map<QString, QJsonObject> m_live; // the newest 1000, as they run and once ended
};

} // namespace bullpen
