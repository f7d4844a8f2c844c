// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>
#include <optional>

namespace bullpen::controltext {

// The cells of the Control view's tables, from the engine's JSON (docs/api.md, "Providers") or from the
// values its codecs read (a breaker, a drain: wire/breakerrowjson.h, wire/drainrowjson.h).
using WallClock = std::function<QDateTime()>;

QDateTime time(const QJsonValue &iso); // invalid when null or unreadable
QString clock(const QJsonValue &iso); // "14:03:07", local; empty when null
QString minutes(const QJsonValue &iso); // "14:03", local: a drain's since and until, to the minute; empty when null
QString dateTime(const QJsonValue &iso); // "2026-12-05 14:03:07", local: the tooltip of a shortened time
QString role(const QJsonValue &id); // "primary" in words; null: every role
QString stage(const QJsonValue &id); // "storyboard" in words; null: every stage
// A breaker's or a probe's target as a row key: "gemini/primary/storyboard".
QString targetKey(const QJsonObject &row);
// What is left until `until` from `now`, with the one duration formatter; empty when there is no end.
QString remaining(const QJsonValue &until, const QDateTime &now);

// The same from read values: an invalid time or no role / stage reads as null above.
QString clock(const QDateTime &t);
QString minutes(const QDateTime &t);
QString dateTime(const QDateTime &t);
QString role(std::optional<Role> r);
QString stage(std::optional<Stage> s);
QString remaining(const std::optional<QDateTime> &until, const QDateTime &now);

} // namespace bullpen::controltext
