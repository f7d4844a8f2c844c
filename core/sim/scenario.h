// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace bullpen {

// What the simulator does with one request (docs/contract.md §8).
struct SimBehaviour
{
    enum class Action {
        Ok, // a valid storyboard derived from the story
        Error, // a provider-shaped HTTP error (see `error`, `status`)
        Hang, // accept and never answer
        Drip, // answer, very slowly
        Truncated, // finish reason MAX_TOKENS / length / max_tokens, partial JSON
        Malformed, // a 200 whose body (or a stream chunk) is not JSON
        InvalidStoryboard, // valid JSON that breaks docs/contract.md §2.1 (three panels)
        Refused, // safety block / refusal / content filter, provider-shaped
        Reset, // read the request, then close the connection without a byte
        StreamCut, // start answering, then cut the connection before the end marker
        StreamError, // an error event inside an otherwise normal stream
        Empty, // a 200 with no text
    };

    Action action = Action::Ok;
    int latencyMinMs = 0;
    int latencyMaxMs = 0;
    QString error = QStringLiteral("overloaded"); // overloaded, rate_limited, auth, quota, bad_request, server_error, not_found, timeout
    QByteArray receivedKey; // filled per request for the "auth_echo" error, which quotes it back
    // Filled per request from what the request asked for:
    bool streamUsage = true; // OpenAI/DashScope: stream_options.include_usage (the closing usage chunk)
    bool geminiSse = true; // Gemini :streamGenerateContent with alt=sse; without it the answer is a JSON array
    int status = 0; // 0: the provider's usual status for `error`
    // With `status`: this body instead of the provider's for `error`, sent as it is (application/json
    // when it is JSON, else text/plain), so that a replay can answer what was recorded, e.g. an UNKNOWN
    // failure's status and body.
    QByteArray body;
    int retryAfterSeconds = -1; // -1: no Retry-After header
    int dripIntervalMs = 400;
    // A stream's shape in time, for replays of recorded attempts (docs/contract.md §14): the events sent
    // before a stream_cut's cut or a hang's stall (-1: the simulator's choice; a hang sends none), and
    // when a stream's last event (or its cut) goes, the events spread evenly after latency_ms (-1: at once).
    int afterEvents = -1;
    int totalMs = -1;
    int appliedLatencyMs = 0; // filled per request: the latency drawn for it

    static std::optional<Action> actionFromName(QStringView name);
    static QString actionName(Action action);
};

// A stretch of time in which a provider behaves otherwise: an outage that starts and ends. Seconds
// from the first request the simulator served under this scenario (or since /_sim/reset).
struct SimPhase
{
    double fromS = 0; // inclusive
    double toS = 0; // exclusive
    SimBehaviour behaviour;
};

// How one provider (or role) behaves: a sequence used in order (the last one repeats), or a weighted
// mix drawn from the scenario's seeded generator; inside a phase, the phase's behaviour instead.
struct SimScript
{
    std::vector<SimBehaviour> sequence;
    std::vector<std::pair<int, SimBehaviour>> mix;
    std::vector<SimPhase> phases;
    const SimPhase *phaseAt(double seconds) const; // null: no phase then
};

// A scenario file (JSON, documented in docs/simulator.md). Keys of "providers" are a provider id
// ("gemini"), a role ("primary", "fallback") or "*"; the most specific one applies. Image and captions
// requests follow only the keys "image" and "captions" (healthy without them).
struct Scenario
{
    QString name;
    QString description;
    quint64 seed = 1;
    std::map<QString, SimScript> scripts;

    static std::optional<Scenario> fromJson(const QByteArray &json, QString *error);
    // A built-in name ("primary-overloaded") or a path to a JSON file.
    static std::optional<Scenario> load(const QString &nameOrFile, QString *error);
    static QStringList builtInNames();
};

} // namespace bullpen

Q_DECLARE_METATYPE(bullpen::Scenario)
