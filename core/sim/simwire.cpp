// SPDX-License-Identifier: MIT
#include "simwire.h"

#include "dialects/dialects.h"
#include "dialects/gemini/geminidialect.h"

#include <QJsonDocument>

#include <algorithm>

namespace bullpen {

namespace {

QStringList split(const QString &text, int pieces)
{
    QStringList out;
    if (text.isEmpty() || pieces <= 1)
        return { text };
    const qsizetype step = std::max<qsizetype>(1, text.size() / pieces);
    for (qsizetype i = 0; i < text.size(); i += step) {
        qsizetype n = std::min(step, text.size() - i);
        if (i + n < text.size() && text.at(i + n - 1).isHighSurrogate())
            ++n; // never split a surrogate pair
        out << text.mid(i, n);
        i += n - step;
    }
    return out;
}

QJsonObject requestObject(const QByteArray &requestBody)
{
    return QJsonDocument::fromJson(requestBody).object();
}

} // namespace

QByteArray SimWire::body(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage)
{
    return Dialects::of(provider).body(model, text, ending, usage);
}

QList<QByteArray> SimWire::stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage, int pieces,
                                  bool includeUsage)
{
    const QStringList parts = ending == Ending::Refused ? QStringList {} : split(text, pieces);
    return Dialects::of(provider).stream(model, text, parts, ending, usage, includeUsage);
}

QByteArray SimWire::streamErrorEvent(Provider provider)
{
    return Dialects::of(provider).streamErrorEvent();
}

QByteArray SimWire::malformedStreamEvent(Provider provider)
{
    return Dialects::of(provider).malformedStreamEvent();
}

QByteArray SimWire::malformedBody(Provider provider)
{
    return Dialects::of(provider).malformedBody();
}

QByteArray SimWire::requestIdHeader(Provider provider)
{
    return Dialects::of(provider).requestIdHeader();
}

bool SimWire::refusesWithHttpError(Provider provider)
{
    return Dialects::of(provider).refusesWithHttpError();
}

SimWire::ErrorReply SimWire::error(Provider provider, const QString &name, int statusOverride, int retryAfterSeconds)
{
    return Dialects::of(provider).error(simanswer::failureNamed(name), statusOverride, retryAfterSeconds);
}

QString SimWire::storyFromRequest(Provider provider, const QByteArray &requestBody)
{
    const QString text = Dialects::of(provider).storyFromRequest(requestObject(requestBody));
    static const QString prefix = QStringLiteral("Story:\n");
    return text.startsWith(prefix) ? text.mid(prefix.size()) : text;
}

QByteArray SimWire::imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage)
{
    return GeminiDialect::imageBody(model, imageBase64, mime, usage);
}

bool SimWire::isImageRequest(Provider provider, const QByteArray &requestBody)
{
    return Dialects::of(provider).isImageRequest(requestObject(requestBody));
}

bool SimWire::requestWantsStream(Provider provider, const QByteArray &requestBody, const QString &path)
{
    return Dialects::of(provider).requestWantsStream(requestObject(requestBody), path);
}

} // namespace bullpen
