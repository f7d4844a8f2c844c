// SPDX-License-Identifier: MIT
#pragma once

#include "engine/alertboard.h"
#include "storechannel.h"
#include "storelocation.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace bullpen {

// Alert silences kept in the store (docs/api.md, "Alerts"): an operator's silence made through any
// engine is written here, and every engine sharing the store reads the ones still open back when it
// evaluates its alerts (EngineSetup::syncSilences), so that all of them, and the consoles attached to
// them, show the same silences, and a restarted engine keeps them. A row stays once it is over: who
// ended it early and when (`ended_by`, `ended_at_ms`), or neither when it ran out on its own. One
// connection of its own, on the calling thread.
class SilenceRecords final
{
public:
    // The store must exist and be migrated (StoreDatabase::open).
    static std::unique_ptr<SilenceRecords> open(const StoreLocation &location, QString *error);
    ~SilenceRecords();
    SilenceRecords(const SilenceRecords &) = delete;
    SilenceRecords &operator=(const SilenceRecords &) = delete;

    // Each call that fails says why in *error and renews the connection for the next one.
    // Writes `silence` (its id new); a silence of the same rule still open is ended by it (its setter
    // and its start are the ending's who and when).
    bool save(const Silence &silence, const QString &instance, QString *error);
    // Ends the open silence `id` early, by `by` at `at`. True when this call ended it; false when it was
    // already over (then *error stays empty) or on failure (with *error).
    bool end(const QString &id, const QString &by, const QDateTime &at, QString *error);
    // Marks the open silence `id` as run out (no one ended it). False only on failure.
    bool expire(const QString &id, QString *error);
    // The silences still open, oldest first. Their `ends` is not set: only the wall-clock `since` and
    // `until` are stored, and each engine judges the end on its own steady clock (AlertBoard::adoptSilences).
    // Nothing, with *error set, on failure.
    std::vector<Silence> load(QString *error);
    // PostgreSQL: `changed` runs (on this thread, from its event loop) as soon as any engine on the store
    // saves or ends a silence (LISTEN/NOTIFY on kChannel). False on SQLite, or when the server refused:
    // then the engines read the table when they evaluate (every few seconds) and when asked.
    bool listen(std::function<void()> changed);
    static constexpr const char *kChannel = "bullpen_silences";

private:
    SilenceRecords(StoreLocation location, QString connectionName);
    // Closes the open silence `id`: ended early by `by` at `at`, or run out (both nothing). Rows changed
    // (0: it was not open), nothing with *error on failure.
    std::optional<int> close(const QString &id, const std::optional<QString> &by, const std::optional<QDateTime> &at, QString *error);
    StoreChannel m_channel; // its connection, NOTIFY, LISTEN and renewal
};

} // namespace bullpen
