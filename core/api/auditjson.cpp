// SPDX-License-Identifier: MIT
#include "auditjson.h"

#include "contract/isotime.h"

namespace bullpen::AuditJson {

QJsonObject entry(const AuditEntry &e)
{
    return QJsonObject { { QStringLiteral("at"), isoUtcWithMs(e.atMs) },
                         { QStringLiteral("token"), e.tokenName },
                         { QStringLiteral("action"), e.action },
                         { QStringLiteral("target"), e.target },
                         { QStringLiteral("instance"), e.instance } };
}

QJsonObject entries(const QList<AuditEntry> &rows, const QString &action)
{
    QJsonArray out;
    for (const AuditEntry &e : rows)
        if (action.isEmpty() || e.action == action)
            out.append(entry(e));
    return QJsonObject { { QStringLiteral("entries"), out } };
}

} // namespace bullpen::AuditJson
