// SPDX-License-Identifier: MIT
#include "breakerrowjson.h"

#include "contract/isotime.h"
#include "contract/providerregistry.h"
#include "wire/fieldreader.h"

namespace bullpen {

namespace {

// The breaker's fields, spelled here only.
constexpr char kProvider[] = "provider";
constexpr char kRole[] = "role";
constexpr char kStage[] = "stage";
constexpr char kState[] = "state";
constexpr char kSince[] = "since";
constexpr char kCooldownMs[] = "cooldown_ms";
constexpr char kRetryAt[] = "retry_at";
constexpr char kWindowAttempts[] = "window_attempts";
constexpr char kWindowFailures[] = "window_failures";
constexpr char kOpened[] = "opened";
constexpr char kReason[] = "reason";

QLatin1StringView key(const char *name)
{
    return QLatin1StringView(name);
}

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

std::optional<BreakerState> stateFromId(const QString &id)
{
    for (const BreakerState s : { BreakerState::Closed, BreakerState::Open, BreakerState::HalfOpen })
        if (toId(s) == id)
            return s;
    return std::nullopt;
}

} // namespace

QJsonObject BreakerRowJson::toJson(const BreakerView &v)
{
    return QJsonObject {
        { key(kProvider), toId(v.key.provider) },
        { key(kRole), toId(v.key.role) },
        { key(kStage), toId(v.key.stage) },
        { key(kState), toId(v.state) },
        { key(kSince), time(v.since) },
        { key(kCooldownMs), v.state == BreakerState::Closed ? QJsonValue() : QJsonValue(static_cast<double>(v.cooldown.count())) },
        { key(kRetryAt), v.retryAt ? time(*v.retryAt) : QJsonValue() },
        { key(kWindowAttempts), v.attempts },
        { key(kWindowFailures), v.failures },
        { key(kOpened), v.opened },
        { key(kReason), v.reason.isEmpty() ? QJsonValue() : QJsonValue(v.reason) },
    };
}

std::variant<BreakerView, FieldError> BreakerRowJson::fromJson(const QJsonObject &o)
{
    FieldReader r(o);
    BreakerView v;
    const std::optional<Provider> provider = r.id<Provider>(kProvider, &providerFromId);
    const std::optional<Role> role = r.id<Role>(kRole, &roleFromId);
    const std::optional<Stage> stage = r.id<Stage>(kStage, &stageFromId);
    const std::optional<BreakerState> state = r.id<BreakerState>(kState, &stateFromId);
    v.since = r.time(kSince, true);
    v.cooldown = std::chrono::milliseconds(r.nullableInteger(kCooldownMs).value_or(0));
    if (const QDateTime retryAt = r.time(kRetryAt, true); retryAt.isValid())
        v.retryAt = retryAt;
    v.attempts = static_cast<int>(r.integer(kWindowAttempts));
    v.failures = static_cast<int>(r.integer(kWindowFailures));
    v.opened = static_cast<int>(r.integer(kOpened));
    v.reason = r.nullableString(kReason);
    if (r.error)
        return *r.error;
    v.key = BreakerKey { *provider, *role, *stage };
    v.state = *state;
    return v;
}

} // namespace bullpen
