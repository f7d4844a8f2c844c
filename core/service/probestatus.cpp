// SPDX-License-Identifier: MIT
#include "probestatus.h"

#include "contract/isotime.h"

#include <QJsonArray>

namespace bullpen {

namespace {
QJsonValue isoOrNull(const std::optional<QDateTime> &at)
{
    return at && at->isValid() ? QJsonValue(isoUtcWithMs(at->toMSecsSinceEpoch())) : QJsonValue();
}
} // namespace

QString ProbeStatus::heldId(Held held)
{
    switch (held) {
    case Held::None:
        return {};
    case Held::Traffic:
        return QStringLiteral("traffic");
    case Held::Breaker:
        return QStringLiteral("breaker");
    case Held::Running:
        return QStringLiteral("running");
    }
    Q_UNREACHABLE();
}

QJsonObject ProbeStatus::toJson() const
{
    QJsonValue lastJson;
    if (last)
        lastJson = QJsonObject { { QStringLiteral("generation_id"), last->generationId },
                                 { QStringLiteral("at"), isoOrNull(last->startedAt) },
                                 { QStringLiteral("ok"), last->ok },
                                 { QStringLiteral("kind"), last->kind ? QJsonValue(enumName(*last->kind)) : QJsonValue() },
                                 { QStringLiteral("duration_ms"), static_cast<double>(last->duration.count()) } };
    const QString heldText = heldId(held);
    return QJsonObject { { QStringLiteral("provider"), toId(target.provider) },
                         { QStringLiteral("role"), toId(target.role) },
                         { QStringLiteral("stage"), toId(target.stage) },
                         { QStringLiteral("last"), lastJson },
                         { QStringLiteral("running"), running },
                         { QStringLiteral("held"), heldText.isEmpty() ? QJsonValue() : QJsonValue(heldText) },
                         { QStringLiteral("next_due"), isoOrNull(nextDue) } };
}

QJsonObject probesJson(std::chrono::milliseconds every, bool lead, const QList<ProbeStatus> &targets)
{
    QJsonArray rows;
    for (const ProbeStatus &s : targets)
        rows.append(s.toJson());
    return QJsonObject { { QStringLiteral("every_ms"), static_cast<double>(every.count()) },
                         { QStringLiteral("lead"), lead },
                         { QStringLiteral("targets"), rows } };
}

} // namespace bullpen
