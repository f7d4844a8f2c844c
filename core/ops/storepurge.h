// SPDX-License-Identifier: MIT
#pragma once

#include "store/retention.h"
#include "store/storelocation.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace bullpen::ops {

// `bullpen-cli purge`: what the engines' retention removes, removed (or counted) from a store in small
// transactions beside running engines, and the report of it.
class StorePurge final
{
public:
    // The retention a purge applies: `configured` with the flags' periods over it (`olderThan`,
    // `aggregatesOlderThan`: as given, e.g. "7d"; nothing when not given). Aggregates are never dropped
    // before the rows they count. Nothing, with *why naming the flag, when a period is refused or when
    // retention ends up off.
    static std::optional<RetentionPolicy> policy(RetentionPolicy configured, const std::optional<QString> &olderThan,
                                                 const std::optional<QString> &aggregatesOlderThan, QString *why);

    struct Request
    {
        RetentionPolicy policy;
        QString imagesDir; // the store's comics (empty: none to remove)
        bool dryRun = false; // count, remove nothing
        bool vacuum = false; // afterwards, compact the store
        qint64 nowMs = 0; // the cut-offs are before this
    };

    enum class Code { Done = 0, Failed = 1, NoStore = 2, Busy = 3 }; // bullpen-cli purge's exit codes

    struct Outcome
    {
        Code code = Code::Done;
        QString error; // Failed: what failed (what was removed stays removed); NoStore: why it cannot be opened
        QJsonObject report; // what was (or would be) removed, the cut-offs, the steps and the time (none for NoStore)
    };

    // `location` must hold a store whose schema is current (Store::open brings it up to date).
    static Outcome run(const StoreLocation &location, const Request &request);
};

} // namespace bullpen::ops
