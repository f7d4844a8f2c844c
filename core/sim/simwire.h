// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"
#include "contract/wiredialect.h"
#include "dialects/simanswer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace bullpen {

// Provider-shaped bodies for the simulator, in each provider's own words (docs/simulator-fidelity.md): the
// shapes the official SDKs accept, so that the adapters cannot tell the simulator from a provider. Each
// dialect writes its own (core/dialects/<dialect>/*simwriter.cpp); SimWire asks the provider's.
class SimWire final
{
public:
    using Ending = SimEnding;
    using ErrorReply = SimErrorReply;

    // Non-streaming 2xx body carrying `text`.
    static QByteArray body(WireDialect dialect, const QString &model, const QString &text, Ending ending, TokenUsage usage);
    // Server-sent events (each already framed) carrying `text` in pieces and the provider's end marker.
    // Framing is the provider's own: Gemini ends each event with "\r\n\r\n", the others with "\n\n".
    // OpenAI-compatible streams end with a `choices: []` usage chunk only when `includeUsage` (the
    // request's stream_options.include_usage).
    static QList<QByteArray> stream(WireDialect dialect, const QString &model, const QString &text, Ending ending, TokenUsage usage,
                                    int pieces = 4, bool includeUsage = true);
    // The error event a provider sends inside a stream (an overload).
    static QByteArray streamErrorEvent(WireDialect dialect);
    // One of the provider's own stream events with broken JSON (a known event name, so SDKs read it).
    static QByteArray malformedStreamEvent(WireDialect dialect);
    // A 200 body cut off inside the provider's own response shape.
    static QByteArray malformedBody(WireDialect dialect);
    // A provider-shaped HTTP error: overloaded, rate_limited, auth, unauthenticated (no key at all),
    // quota, bad_request, server_error, not_found, timeout. With a status override the body says that
    // status (Gemini: its code and matching rpc status). `retryAfterSeconds` (>= 0) goes where the
    // provider puts it: Gemini's RetryInfo in the body, OpenAI's message text and header alike.
    static ErrorReply error(WireDialect dialect, const QString &name, int statusOverride = 0, int retryAfterSeconds = -1);
    // The provider's request id header ("request-id" for Anthropic, "x-request-id" for OpenAI and
    // DashScope); empty for Gemini, which sends none.
    static QByteArray requestIdHeader(WireDialect dialect);
    // Qwen refuses by moderation with an HTTP 400, the others inside a 200.
    static bool refusesWithHttpError(WireDialect dialect);

    // Gemini image generation: a 2xx body carrying an image as inlineData, given as its base64 text
    // (the simulator keeps a drawn comic's base64 with it, so that a load test measures the engine).
    static QByteArray imageBody(const QString &model, const QByteArray &imageBase64, const QString &mime, TokenUsage usage);

    // The story a request carries, read back from any of the four request formats, from its body parsed
    // once by the caller (the simulator reads several facts from each request).
    static QString storyFromRequest(WireDialect dialect, const QJsonObject &request);
    static bool requestWantsStream(WireDialect dialect, const QJsonObject &request, const QString &path);
    static bool isImageRequest(WireDialect dialect, const QJsonObject &request);
    // The same for a provider, in the dialect the process's registry knows for it (a built-in's never
    // changes): for tests and tools. The simulator asks by the dialect its own table gives.
    static QByteArray body(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage);
    static QList<QByteArray> stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage,
                                    int pieces = 4, bool includeUsage = true);
    static QByteArray streamErrorEvent(Provider provider);
    static QByteArray malformedStreamEvent(Provider provider);
    static QByteArray malformedBody(Provider provider);
    static ErrorReply error(Provider provider, const QString &name, int statusOverride = 0, int retryAfterSeconds = -1);
    static QByteArray requestIdHeader(Provider provider);
    static bool refusesWithHttpError(Provider provider);
    static QString storyFromRequest(Provider provider, const QByteArray &requestBody);
    static bool requestWantsStream(Provider provider, const QByteArray &requestBody, const QString &path);
    static bool isImageRequest(Provider provider, const QByteArray &requestBody);
};

} // namespace bullpen
