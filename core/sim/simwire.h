// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/storyboard.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace bullpen {

// Provider-shaped bodies for the simulator, in each provider's own words (PROVIDERS.md 1-4, 8): the
// shapes the official SDKs accept, so that the adapters cannot tell the simulator from a provider.
class SimWire final
{
public:
    enum class Ending { Stop, MaxTokens, Refused };

    struct ErrorReply
    {
        int status = 500;
        QByteArray body;
    };

    // Non-streaming 2xx body carrying `text`.
    static QByteArray body(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage);
    // Server-sent events (each already framed, "data: …\r\n\r\n") carrying `text` in pieces and the
    // provider's end marker.
    static QList<QByteArray> stream(Provider provider, const QString &model, const QString &text, Ending ending, TokenUsage usage,
                                    int pieces = 4);
    // The error event a provider sends inside a stream (an overload).
    static QByteArray streamErrorEvent(Provider provider);
    // A provider-shaped HTTP error: overloaded, rate_limited, auth, quota, bad_request, server_error, not_found, timeout.
    static ErrorReply error(Provider provider, const QString &name, int statusOverride = 0);
    // Qwen refuses by moderation with an HTTP 400, the others inside a 200.
    static bool refusesWithHttpError(Provider provider) { return provider == Provider::Qwen; }

    // Gemini image generation: a 2xx body carrying `image` as inlineData.
    static QByteArray imageBody(const QString &model, const QByteArray &image, const QString &mime, TokenUsage usage);

    // The story a request carries, read back from any of the four request formats.
    static QString storyFromRequest(Provider provider, const QByteArray &requestBody);
    static bool requestWantsStream(Provider provider, const QByteArray &requestBody, const QString &path);
    static bool isImageRequest(Provider provider, const QByteArray &requestBody);
};

} // namespace bullpen
