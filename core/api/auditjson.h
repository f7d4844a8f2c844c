// SPDX-License-Identifier: MIT
#pragma once

#include "store/apitokens.h"

#include <QJsonArray>
#include <QJsonObject>

namespace bullpen {

// The audit trail on the wire (docs/api.md, "Providers", GET /v1/audit): one entry is {"at", "token",
// "action", "target", "instance"}. The service answers with it and `bullpen-cli audit` prints the same
// rows whether it asked an engine or read the store itself.
namespace AuditJson {

QJsonObject entry(const AuditEntry &e);
// {"entries": [...]}: the rows, newest first, those of `action` only when it is given (the filter runs
// after the limit, as the API's does).
QJsonObject entries(const QList<AuditEntry> &rows, const QString &action);

} // namespace AuditJson

} // namespace bullpen
