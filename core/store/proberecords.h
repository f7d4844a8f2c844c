// SPDX-License-Identifier: MIT
#pragma once

#include "storelocation.h"

#include <QSet>
#include <QString>

#include <memory>
#include <optional>

namespace bullpen {

// What the prober (docs/contract.md §13) asks the store: which provider, role and stage had traffic
// lately, from any engine sharing the store; and, on PostgreSQL, whether this engine is the one that
// probes (a session advisory lock, held for as long as its connection lives: when its engine stops or
// dies, the next engine to ask takes it). One connection of its own, on the calling thread.
class ProbeRecords final
{
public:
    // The store must exist and be migrated (StoreDatabase::open).
    static std::unique_ptr<ProbeRecords> open(const StoreLocation &location, QString *error);
    ~ProbeRecords();
    ProbeRecords(const ProbeRecords &) = delete;
    ProbeRecords &operator=(const ProbeRecords &) = delete;

    // True when this engine probes: always on SQLite (one machine writes it); on PostgreSQL while it
    // holds the lock. A lost connection is opened again and the lock asked for anew.
    bool lead(QString *error);
    // "provider/role/stage" of every attempt (users' or probes') from `sinceMs` to `untilMs`; nothing
    // on failure. Bounded above too: after the wall clock steps back, the rows written before the step
    // lie in the future and are not recent traffic (they would silence the prober until the clock
    // caught up with them).
    std::optional<QSet<QString>> recentTraffic(qint64 sinceMs, qint64 untilMs, QString *error);

    static constexpr qint64 kLockKey = 0x42756c6c70656e01; // "Bullpen" and 1: the probers' lock

private:
    ProbeRecords(StoreLocation location, QString connectionName);
    bool reconnect(QString *error);
    StoreLocation m_location;
    QString m_connection;
    bool m_leading = false;
};

} // namespace bullpen
