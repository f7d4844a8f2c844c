// SPDX-License-Identifier: MIT
#include "drainrowjson.h"

#include "contract/isotime.h"
#include "contract/providerregistry.h"
#include "wire/fieldreader.h"

namespace bullpen {

namespace {

// The drain's fields, spelled here only.
constexpr char kProvider[] = "provider";
constexpr char kRole[] = "role";
constexpr char kStage[] = "stage";
constexpr char kReason[] = "reason";
constexpr char kBy[] = "by";
constexpr char kSince[] = "since";
constexpr char kUntil[] = "until";

QLatin1StringView key(const char *name)
{
    return QLatin1StringView(name);
}

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(isoUtcWithMs(t.toMSecsSinceEpoch())) : QJsonValue();
}

} // namespace

QJsonObject DrainRowJson::toJson(const Drain &d)
{
    return QJsonObject {
        { key(kProvider), toId(d.provider) },
        { key(kRole), d.role ? QJsonValue(toId(*d.role)) : QJsonValue() },
        { key(kStage), d.stage ? QJsonValue(toId(*d.stage)) : QJsonValue() },
        { key(kReason), d.reason },
        { key(kBy), d.by },
        { key(kSince), time(d.since) },
        { key(kUntil), d.until ? time(*d.until) : QJsonValue() },
    };
}

std::variant<Drain, FieldError> DrainRowJson::fromJson(const QJsonObject &o)
{
    FieldReader r(o);
    Drain d;
    const std::optional<Provider> provider = r.id<Provider>(kProvider, &providerFromId);
    d.role = r.id<Role>(kRole, &roleFromId, true);
    d.stage = r.id<Stage>(kStage, &stageFromId, true);
    d.reason = r.string(kReason);
    d.by = r.string(kBy);
    d.since = r.time(kSince, true);
    if (const QDateTime until = r.time(kUntil, true); until.isValid())
        d.until = until;
    if (r.error)
        return *r.error;
    d.provider = *provider;
    return d;
}

} // namespace bullpen
