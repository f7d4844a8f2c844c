// SPDX-License-Identifier: MIT
#pragma once

#include "engine/breakerboard.h"
#include "storechannel.h"
#include "storelocation.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace bullpen {

// Drains kept in the store (docs/contract.md §13): bullpen-engine writes an operator's drain here and
// every engine sharing the store reads the table back every second (BreakerBoard::replaceDrains), so a
// drain made through one engine is obeyed by all within two seconds and outlives a restart. One
// connection of its own, on the calling thread.
class DrainRecords final
{
public:
    // The store must exist and be migrated (StoreDatabase::open).
    static std::unique_ptr<DrainRecords> open(const StoreLocation &location, QString *error);
    ~DrainRecords();
    DrainRecords(const DrainRecords &) = delete;
    DrainRecords &operator=(const DrainRecords &) = delete;

    // Replaces the drain of the same provider, role and stage.
    bool save(const Drain &drain, const QString &instance, QString *error);
    // Removes the drains of `provider` that `scope` matches; how many, or -1 on failure.
    int remove(Provider provider, const DrainScope &scope, QString *error);
    // The drains in force at `now` (expired ones are deleted on the way); nothing with *error set on failure.
    std::vector<Drain> load(const QDateTime &now, QString *error);
    // PostgreSQL: `changed` runs (on this thread, from its event loop) as soon as any engine on the store
    // saves or removes a drain (LISTEN/NOTIFY on kChannel). False on SQLite, or when the server refused:
    // then only the caller's periodic load() sees other engines' drains. A call that fails makes the
    // connection again, with this subscription, for the next one.
    bool listen(std::function<void()> changed);
    static constexpr const char *kChannel = "bullpen_drains";

private:
    DrainRecords(StoreLocation location, QString connectionName);
    bool write(const Drain &drain, const QString &instance, QString *error);
    std::optional<int> erase(Provider provider, const DrainScope &scope, QString *error);
    std::optional<std::vector<Drain>> read(const QDateTime &now, QString *error);
    StoreChannel m_channel; // its connection, NOTIFY, LISTEN and renewal
};

} // namespace bullpen
