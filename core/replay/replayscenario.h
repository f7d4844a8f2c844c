// SPDX-License-Identifier: MIT
#pragma once

#include "contract/enums.h"
#include "contract/providertable.h"
#include "engine/stageresult.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <map>
#include <optional>

namespace bullpen {

struct GenerationRow;

// One attempt as the history stored it (a row of the attempts table, docs/store.md): what a replay
// needs of it, and what its verdict compares.
struct RecordedAttempt
{
    Stage stage = Stage::Storyboard;
    Provider provider;
    Role role = Role::Primary;
    bool success = false;
    QString kind; // FailureKind's name, empty on success
    std::optional<int> httpStatus;
    double durationMs = 0;
    int requestsSent = 0;
    QString abortedBy; // "deadline", "operator", "shutdown", or empty
    QString detail;
    // Kept by records from 2026-12 on (absent in older ones and in attempts rows):
    std::optional<double> firstByteMs; // the answer's head after the attempt's start; absent: none came
    std::optional<int> streamEvents; // events of a streamed answer received; absent: not a stream

    // "gemini primary TIMEOUT" / "qwen fallback ok": how timelines and verdicts name it.
    QString label() const;
    // An attempt as the engine recorded it (the replayed side of a verdict).
    static RecordedAttempt fromRecord(const AttemptRecord &record);
    // Reads one stored attempt row (HistoryReader::attempts), or what toJson() wrote; nothing for a row
    // it cannot read.
    static std::optional<RecordedAttempt> fromRow(const QJsonObject &row);
    // As an attempt row, with first_byte_at_ms and stream_events where kept (a replay report's runs).
    QJsonObject toJson() const;
    // The attempt records in a generation's stored events (HistoryReader::events), by attempt id:
    // the whole record, where a row keeps only part of it.
    static std::map<quint64, AttemptRecord> fromEvents(const QList<QJsonObject> &events);
};

// The storyboard policy a generation ran under, from its recorded events.
struct RecordedPolicy
{
    QString preset = QStringLiteral("relief");
    Provider primary;
    std::optional<Provider> fallback;
    std::chrono::milliseconds primaryTimeout { 0 }; // 0: not recorded (the attempt never started)
    std::chrono::milliseconds fallbackTimeout { 0 };
    std::chrono::milliseconds budget { 0 };
    bool captions = false; // a captions attempt was made
    // Whether each provider's answers came as a stream, where a 2xx answer says so (records from
    // 2026-12 on): the replay asks the same way (its settings' stream per provider).
    std::map<Provider, bool> streamed;

    // From the events of one generation (HistoryReader::events); nothing without its generation_started.
    static std::optional<RecordedPolicy> fromEvents(const QList<QJsonObject> &events);
    // Without events: the row's policy and providers; a timeout from an attempt our deadline ended
    // (its duration), else none. *rebuilt is set: the replay says its policy is approximate.
    static std::optional<RecordedPolicy> fromRow(const GenerationRow &row, const QList<RecordedAttempt> &attempts, bool *rebuilt);
    // The settings file that runs this policy again (docs/configuration.md), with the providers `table`
    // adds: the settings file's (Settings::providerTable), or one engine's (an attached console's:
    // EngineConnection::providers()).
    QJsonObject settingsJson(const ProviderTable &table) const;
};

// docs/contract.md §14: a simulator scenario (docs/simulator.md) in which every provider behaves, for
// each attempt of the recorded generation, as that attempt saw it: the same status and error shape for
// its kind, after the same time; a hang where our deadline ended it. No story, user or provider text is
// in it (the simulator writes its own storyboard). What the records cannot say is named per attempt
// in `approximations`, never dropped silently.
struct ReplayScenario
{
    QJsonObject scenario; // the scenario file's JSON
    QStringList approximations; // "attempt 2 (qwen fallback NETWORK): …"
    QList<qsizetype> approximate; // the attempts (indices) those name: their durations are not judged
    int attempts = 0; // attempts that reached a provider and are played back

    static ReplayScenario from(const QString &generationId, const QList<RecordedAttempt> &attempts);
    // The scenario document for GET /v1/history/{id}/scenario and --scenario-out.
    QJsonObject toJson() const;
};

} // namespace bullpen
