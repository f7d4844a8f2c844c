// SPDX-License-Identifier: MIT
#pragma once

#include "api/generationrequestjson.h"
#include "apireply.h"
#include "serviceoptions.h"

#include <functional>
#include <optional>
#include <variant>

class QHttpServerRequest;
class QTcpSocket;

namespace bullpen {

class AuditTrail;
class EngineSetup;
class EventStream;

// What the service's handlers share (docs/architecture.md, "the service"): the engine, the options,
// the audit trail, the event stream, and the two ways of answering later that EngineService provides.
// Each handler class gets it by reference and keeps its own state itself; EngineService owns all of
// these and outlives every handler.
struct ServiceContext
{
    EngineSetup &setup;
    const ServiceOptions &options; // the instance name is known once EngineService::listen() has run
    AuditTrail &audit;
    EventStream &events;
    const bool &draining; // EngineService::beginDrain() has been called
    // Writes `reply` on `socket`, if the client is still there.
    std::function<void(QTcpSocket *socket, const ApiReply &reply)> write;
    // Runs `work` on the history thread and answers with what it returns, if the client is still there.
    std::function<void(QTcpSocket *socket, std::function<ApiReply()> work)> answerLater;

    // What every request that starts work goes through first (generations and comparisons): a draining
    // engine refuses it (503 with Retry-After; `work` names it, "generations"), then its body is read
    // (413 when too large, 400 naming the field). The request, or the refusal.
    std::variant<GenerationRequest, ApiReply> admitted(const QHttpServerRequest &request, const QString &work) const;
    // 429 with Retry-After when `more` generations would pass the in-flight limit.
    std::optional<ApiReply> overInFlightLimit(int more) const;
};

} // namespace bullpen
