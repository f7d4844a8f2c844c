// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "engine/breakerboard.h"
#include "pipeline/engineconnection.h"

#include <QJsonArray>
#include <QJsonObject>

#include <variant>

namespace bullpen {

// Breakers' and drains' changes and requests on the wire (docs/api.md, "Providers"): the bodies of
// `POST /v1/providers/{id}/drain`, `…/restore` and `…/reset`, and the event stream's notice. A breaker
// and a drain have their codecs (wire/breakerrowjson.h, wire/drainrowjson.h), and GET /v1/providers'
// list its own (wire/providersjson.h).
class BreakerJson final
{
public:
    // A breaker's or a drain's change as the event stream's notice (docs/api.md, "Event stream"):
    // {"type", "instance", "provider", "role", "stage", "at", "reason", "breaker"?: {...}, "drain"?: {...}}.
    // A drain's role and stage are null when it covers every role or stage.
    static QJsonObject change(const BreakerChange &change, const std::optional<BreakerView> &breaker, const QString &instance);

    // {"reason": "...", "role"?: "primary"|"fallback", "stage"?: "storyboard"|"captions"|"image",
    //  "until"?: ISO 8601 with a zone, in the future}. `now` judges `until`.
    static std::variant<Drain, FieldError> drainFromJson(const QByteArray &body, Provider provider, const QString &by,
                                                         const QDateTime &now);

    // The body of `POST /v1/providers/{id}/restore`, if any: {"reason"?: "...", "role"?: "primary"|"fallback",
    // "stage"?: "storyboard"|"captions"|"image"}; what it leaves out, it restores whatever the value.
    struct Restore
    {
        DrainScope scope;
        QString reason;
    };
    static std::variant<Restore, FieldError> restoreFromJson(const QByteArray &body);
    // The body of `POST /v1/providers/{id}/reset`: {"role": "primary"|"fallback", "stage": "storyboard"|
    // "captions"|"image", "reason"?: "..."}: one breaker, so role and stage are required.
    struct Reset
    {
        Role role = Role::Primary;
        Stage stage = Stage::Storyboard;
        QString reason;
    };
    static std::variant<Reset, FieldError> resetFromJson(const QByteArray &body);
    // The bodies a client sends for a drain, a restore and a reset: what drainFromJson, restoreFromJson and
    // resetFromJson read back (the reason trimmed and cut to its 500 characters).
    static QJsonObject drainRequest(const DrainRequest &drain);
    static QJsonObject restoreRequest(const RestoreRequest &restore);
    static QJsonObject resetRequest(const BreakerResetRequest &reset);
    // A drain's or a restore's reason: one line of at most 500 characters (code points), without
    // control characters (CR, LF, ESC, NUL, …: it reaches terminals and logs). The refusal, if any.
    static std::optional<FieldError> reasonRefusal(const QString &reason);
};

} // namespace bullpen
