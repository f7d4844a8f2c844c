// SPDX-License-Identifier: MIT
#pragma once

#include "storelocation.h"

#include <QSqlDatabase>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace bullpen {

// Copies a SQLite store's write-ahead log back into the database file on a thread of its own, so that
// no writer's commit pays for it (docs/store.md, "Retention"). SQLite's automatic checkpoint runs inside
// the commit that finds the WAL at 1,000 pages or more: after a purge step that commit is often another
// writer's, which then waits for the purge's pages to be copied (tens of ms, once over 100 ms here).
// takeOver() turns that off on a writer's connection and wakes this thread at the same threshold
// instead. Its checkpoints are PASSIVE: they never take the write lock, so writers go on meanwhile.
// PostgreSQL has no such thing; takeOver() then does nothing.
class WalCheckpointer final
{
public:
    static constexpr int kWakeFrames = 1000; // SQLite's own default threshold (wal_autocheckpoint)

    explicit WalCheckpointer(StoreLocation location);
    ~WalCheckpointer(); // stops and joins the thread
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    // Hands `db`'s checkpoints to this thread. `db` must be closed before this object goes. False,
    // with `db` unchanged (SQLite still checkpoints in its commits), when Bullpen was built without
    // SQLite's headers or `db` is not a SQLite connection.
    bool takeOver(const QSqlDatabase &db);
    void wake();
    int checkpoints() const; // completed so far, for tests and benches

private:
    void run();

    StoreLocation m_location;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_wanted = false;
    bool m_stop = false;
    std::optional<bool> m_connected; // set once the thread has tried its connection
    int m_checkpoints = 0;
    std::thread m_thread;
};

} // namespace bullpen
