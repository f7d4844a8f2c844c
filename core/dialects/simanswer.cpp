// SPDX-License-Identifier: MIT
#include "simanswer.h"

#include <QJsonDocument>

#include <utility>

namespace bullpen::simanswer {

SimFailure failureNamed(const QString &name)
{
    static const std::pair<QStringView, SimFailure> kNames[] = {
        { u"overloaded", SimFailure::Overloaded },
        { u"rate_limited", SimFailure::RateLimited },
        { u"unauthenticated", SimFailure::Unauthenticated },
        { u"auth", SimFailure::Auth },
        { u"quota", SimFailure::Quota },
        { u"bad_request", SimFailure::BadRequest },
        { u"not_found", SimFailure::NotFound },
        { u"timeout", SimFailure::Timeout },
    };
    for (const auto &[word, failure] : kNames) {
        if (name == word)
            return failure;
    }
    return SimFailure::Other;
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray sse(const QByteArray &eol, const QByteArray &data, const QByteArray &event)
{
    QByteArray out;
    if (!event.isEmpty())
        out += "event: " + event + eol;
    return out + "data: " + data + eol + eol;
}

SimErrorReply withRetryAfter(SimErrorReply reply, int seconds)
{
    if (seconds >= 0)
        reply.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray::number(seconds)));
    return reply;
}

} // namespace bullpen::simanswer
