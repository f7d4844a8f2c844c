// SPDX-License-Identifier: MIT
#pragma once

#include "contract/provider.h"
#include "contract/storyboard.h"
#include "failure/errorrules.h"
#include "providers/wireformat.h"
#include "simanswer.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace bullpen {

// A request as the simulator's credential check sees it: its headers (by lower-case name) and URL.
struct SimRequest
{
    std::function<QByteArray(QByteArrayView lowerName)> header;
    QUrl url;
};

// One wire dialect, whole (docs/architecture.md, "Walkthrough: add a dialect"): how a provider that
// speaks it is asked and read (format()), what its errors and finish reasons mean (ErrorRules), and
// how the simulator recognises its requests and answers in its words. A dialect is one folder under
// core/dialects/ plus one line in dialects.cpp; nothing else in the engine or the simulator names it.
// Every function is pure: a dialect holds no state.
class Dialect : public ErrorRules
{
public:
    // The settings file's "format" ("gemini", "openai", …).
    virtual QString id() const = 0;
    // The header a provider of this dialect sends its key in unless its entry says otherwise.
    virtual QByteArray defaultAuthHeader() const { return "Authorization"; }

    // Asking and reading: the request, the body, the answer and the stream.
    virtual std::unique_ptr<WireFormat> format(Provider provider) const = 0;

    // The simulator, reading a request. route(): the model a request path below the provider's base
    // path asks for (empty when the path carries none), or nothing when the path is not this dialect's.
    virtual std::optional<QString> route(const QString &path, const QString &base) const = 0;
    // Whether a request to a built-in provider carries a key the way its SDK sends one.
    virtual bool carriesCredentials(const SimRequest &request) const;
    virtual QString storyFromRequest(const QJsonObject &request) const = 0;
    virtual bool requestWantsStream(const QJsonObject &request, const QString &path) const;
    virtual bool isImageRequest(const QJsonObject &) const { return false; }

    // The simulator, answering. Streams are framed by eol() ("\n"; Gemini "\r\n").
    virtual QByteArray eol() const { return "\n"; }
    virtual QByteArray body(const QString &model, const QString &text, SimEnding ending, TokenUsage usage) const = 0;
    // `parts`: the text in pieces (none when refused). `includeUsage`: the request's
    // stream_options.include_usage, where the dialect has it.
    virtual QList<QByteArray> stream(const QString &model, const QString &text, const QStringList &parts, SimEnding ending,
                                     TokenUsage usage, bool includeUsage) const = 0;
    // Gemini's :streamGenerateContent without alt=sse answers the stream's chunks as one JSON array.
    virtual bool streamsAsJsonArray() const { return false; }
    virtual QByteArray streamErrorEvent() const = 0;
    virtual QByteArray malformedStreamEvent() const = 0;
    // Where the broken event goes in a stream: after the events an SDK reads before the text.
    virtual int malformedEventAt() const { return 1; }
    virtual QByteArray malformedBody() const = 0;
    // A provider-shaped HTTP error (SimWire::error); `statusOverride` > 0 replaces the status,
    // `retryAfterSeconds` >= 0 is said where the provider says it.
    virtual SimErrorReply error(SimFailure failure, int statusOverride, int retryAfterSeconds) const = 0;
    virtual QByteArray requestIdHeader() const { return {}; }
    virtual QByteArray requestIdPrefix() const { return "sim-req-"; }
    virtual bool refusesWithHttpError() const { return false; }
    // The storyboard the simulator derives from a story, in this provider's style.
    virtual void flavour(Storyboard &) const { }

protected:
    // The text of a request's user messages (Chat Completions and Messages alike).
    static QString userMessages(const QJsonObject &request);
    QByteArray sse(const QByteArray &data, const QByteArray &event = {}) const { return simanswer::sse(eol(), data, event); }
};

} // namespace bullpen
