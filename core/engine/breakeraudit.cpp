// SPDX-License-Identifier: MIT
#include "breakeraudit.h"

namespace bullpen {

std::optional<BreakerAuditLine> engineAuditLine(const BreakerChange &change)
{
    const auto withReason = [&change](const QString &subject) {
        return change.reason.isEmpty() ? subject : QStringLiteral("%1 (%2)").arg(subject, change.reason.left(200));
    };
    if (!change.drain)
        return BreakerAuditLine { change.type, withReason(change.key.toString()) };
    // A drain ends by itself when its `until` has come (BreakerBoard::expireDrains); a restore asked
    // before it is the operator's, audited where it was asked.
    const Drain &d = *change.drain;
    if (change.type == QLatin1StringView("provider_restored") && d.until && change.at.isValid() && *d.until <= change.at)
        return BreakerAuditLine { QStringLiteral("drain_expired"), withReason(toId(d.provider)) };
    return std::nullopt;
}

} // namespace bullpen
