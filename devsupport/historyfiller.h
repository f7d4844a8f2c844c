// SPDX-License-Identifier: MIT
#pragma once

#include "store/storelocation.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace bullpen {

class Store;

// Synthetic history for benchmarks and the screenshot tour: generations and their attempts spread over
// a time range, written straight into a store in one transaction. Seeded, so two fills with the
// same options are identical. Shaped like real traffic: a gemini primary failing ~35 % of the time
// (overload, rate limits, 60 s timeouts, invalid or truncated output, now and then auth or refusal),
// qwen as the fallback for the kinds that fall back, and an image attempt for every generation that got a storyboard.
// Events are written only when asked for (the detail pane rebuilds the timeline from the attempts).
struct HistoryFillOptions
{
    qint64 attempts = 1'000'000;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    quint32 seed = 42;
    QStringList instances; // engine instances the generations are spread over, round robin; empty: unnamed
    int eventsPerGeneration = 0; // events rows for each generation (bodies like the engine's, ~200 bytes); 0: none
    bool aggregates = true; // rebuild the hourly aggregates from every row afterwards
};

struct HistoryFillResult
{
    qint64 generations = 0;
    qint64 attempts = 0;
    QString error; // empty on success
    // SQLite: every page of the fill is in the database file, none left in the WAL (a reader or the
    // store's own checkpoint can keep the fill's checkpoint from finishing). PostgreSQL: true.
    bool checkpointed = false;
    qint64 elapsedMs = 0; // the fill alone: rows, aggregates and checkpoint (a monotonic clock)
};

class HistoryFiller final
{
public:
    // `location` must be a migrated store (open it with Store::open first; for a long fill, filledStore below).
    static HistoryFillResult fill(const StoreLocation &location, const HistoryFillOptions &options);
    // The store at `location` filled, then opened (Store::open) for the caller's reads. The fill is one transaction: on SQLite it
    // holds the write lock for its whole length, tens of seconds at a million attempts, and a store left
    // open meanwhile could not renew its leases for that long and would say so ("the store's leases
    // could not be kept: database is locked") with nothing running. So the store that makes the schema
    // is closed before the fill and the one returned is opened after it (on PostgreSQL, where the fill
    // blocks no writer, the same order does no harm). Null with *error set (a failed fill: also filled->error).
    static std::unique_ptr<Store> filledStore(const StoreLocation &location, const HistoryFillOptions &options, HistoryFillResult *filled,
                                              QString *error);
};

} // namespace bullpen
