// SPDX-License-Identifier: MIT
#include "simwire.h"

#include "contract/providerregistry.h"
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

QByteArray SimWire::body(WireDialect dialect, const QString &model, const QString &text, Ending ending, TokenUsage usage)
{
    return Dialects::of(dialect).body(model, text, ending, usage);
}

QList<QByteArray> SimWire::stream(WireDialect dialect, const QString &model, const QString &text, Ending ending, TokenUsage usage,
                                  int pieces, bool includeUsage)
{
    const QStringList parts = ending == Ending::Refused ? QStringList {} : split(text, pieces);
    return Dialects::of(dialect).stream(model, text, parts, ending, usage, includeUsage);
}

QByteArray SimWire::streamErrorEvent(WireDialect dialect)
{
    return Dialects::of(dialect).streamErrorEvent();
}

QByteArray SimWire::malformedStreamEvent(WireDialect dialect)
{
    return Dialects::of(dialect).malformedStreamEvent();
}

QByteArray SimWire::malformedBody(WireDialect dialect)
{
    return Dialects::of(dialect).malformedBody();
}

QByteArray SimWire::requestIdHeader(WireDialect dialect)
{
    return Dialects::of(dialect).requestIdHeader();
}

bool SimWire::refusesWithHttpError(WireDialect dialect)
{
    return Dialects::of(dialect).refusesWithHttpError();
}

SimWire::ErrorReply SimWire::error(WireDialect dialect, const QString &name, int statusOverride, int retryAfterSeconds)
{
    return Dialects::of(dialect).error(simanswer::failureNamed(name), statusOverride, retryAfterSeconds);
}

QString SimWire::storyFromRequest(WireDialect dialect, const QJsonObject &request)
{
    const QString text = Dialects::of(dialect).storyFromRequest(request);
    static const QString prefix = QStringLiteral("Story:\n");
    return text.startsWith(prefix) ? text.mid(prefix.size()) : text;
}

QByteArray SimWire::imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage)
{
    return GeminiDialect::imageBody(model, imageBase64, mime, usage);
}

bool SimWire::isImageRequest(WireDialect dialect, const QJsonObject &request)
{
    return Dialects::of(dialect).isImageRequest(request);
}

bool SimWire::requestWantsStream(WireDialect dialect, const QJsonObject &request, const QString &path)
{
    return Dialects::of(dialect).requestWantsStream(request, path);
}

// The same for a provider, in the dialect the process's registry knows for it (a built-in's never changes).
QByteArray SimWire::body(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage)
{
    return body(dialectOf(provider), model, text, ending, usage);
}

QList<QByteArray> SimWire::stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage, int pieces,
                                  bool includeUsage)
{
    return stream(dialectOf(provider), model, text, ending, usage, pieces, includeUsage);
}

QByteArray SimWire::streamErrorEvent(Provider provider)
{
    return streamErrorEvent(dialectOf(provider));
}

QByteArray SimWire::malformedStreamEvent(Provider provider)
{
    return malformedStreamEvent(dialectOf(provider));
}

QByteArray SimWire::malformedBody(Provider provider)
{
    return malformedBody(dialectOf(provider));
}

QByteArray SimWire::requestIdHeader(Provider provider)
{
    return requestIdHeader(dialectOf(provider));
}

bool SimWire::refusesWithHttpError(Provider provider)
{
    return refusesWithHttpError(dialectOf(provider));
}

SimWire::ErrorReply SimWire::error(Provider provider, const QString &name, int statusOverride, int retryAfterSeconds)
{
    return error(dialectOf(provider), name, statusOverride, retryAfterSeconds);
}

QString SimWire::storyFromRequest(Provider provider, const QByteArray &requestBody)
{
    return storyFromRequest(dialectOf(provider), requestObject(requestBody));
}

bool SimWire::isImageRequest(Provider provider, const QByteArray &requestBody)
{
    return isImageRequest(dialectOf(provider), requestObject(requestBody));
}

bool SimWire::requestWantsStream(Provider provider, const QByteArray &requestBody, const QString &path)
{
    return requestWantsStream(dialectOf(provider), requestObject(requestBody), path);
}

} // namespace bullpen
