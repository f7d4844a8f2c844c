// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace bullpen {

// The words a dialect's simulator writer is given (dialect.h): how an answer ends, and which failure
// to answer with. SimWire (core/sim) names them SimWire::Ending and SimWire::ErrorReply.
enum class SimEnding { Stop, MaxTokens, Refused };

// The failures the simulator answers by name ("overloaded", "rate_limited", …); Other is a provider's
// plain internal error.
enum class SimFailure { Overloaded, RateLimited, Unauthenticated, Auth, Quota, BadRequest, NotFound, Timeout, Other };

struct SimErrorReply
{
    int status = 500;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // e.g. Retry-After
};

namespace simanswer {

// The failure a scenario names ("overloaded", …); an unknown name is Other.
SimFailure failureNamed(const QString &name);
QByteArray compact(const QJsonObject &o);
// One server-sent event, framed with `eol` ("\n", or Gemini's "\r\n").
QByteArray sse(const QByteArray &eol, const QByteArray &data, const QByteArray &event = {});
// `reply` with the Retry-After header most providers send.
SimErrorReply withRetryAfter(SimErrorReply reply, int seconds);

} // namespace simanswer

} // namespace bullpen
