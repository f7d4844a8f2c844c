// SPDX-License-Identifier: MIT
#pragma once

#include "apireply.h"

#include <QJsonObject>
#include <QString>

class QHttpServerRequest;
class QObject;

namespace bullpen {

struct ApiToken;
struct ServiceContext;

// The service's alerts (docs/api.md, "Alerts"): the shipped rules as its EngineSetup evaluates them,
// their changes on the event stream, GET /v1/alerts, and an operator's silence of a rule. The rules
// and silences are the EngineSetup's; these handlers keep no state of their own.
class AlertHandlers final
{
public:
    // Each change of an alert goes on the event stream while `owner` (the service) lives.
    AlertHandlers(ServiceContext &context, QObject *owner);

    ApiReply alerts();
    ApiReply silence(const QHttpServerRequest &request, const QString &rule, const ApiToken &token);
    ApiReply endSilence(const QString &rule, const ApiToken &token);

private:
    void publish(QJsonObject alert);
    static ApiReply storeRefusal(const QString &message);

    ServiceContext &m_context;
};

} // namespace bullpen
