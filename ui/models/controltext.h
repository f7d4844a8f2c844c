// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>

namespace bullpen::controltext {

// The cells of the Control view's tables, from the engine's JSON (docs/api.md, "Providers").
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

} // namespace bullpen::controltext
