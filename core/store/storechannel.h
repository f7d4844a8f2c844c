// SPDX-License-Identifier: MIT
#pragma once

#include "storelocation.h"

#include <QString>

#include <functional>

namespace bullpen {

// One connection of a table's records (DrainRecords, SilenceRecords) and its PostgreSQL channel: NOTIFY
// after a change, LISTEN for the other engines' changes, and a connection made again after a failed
// statement (a restarted PostgreSQL, a network cut leave it dead for good), with its LISTEN. On the
// calling thread; on SQLite there is no channel and notify()/listen() do nothing.
class StoreChannel final
{
public:
    StoreChannel(StoreLocation location, QString connectionName, const char *channel, const char *what);
    ~StoreChannel();
    StoreChannel(const StoreChannel &) = delete;
    StoreChannel &operator=(const StoreChannel &) = delete;

    const QString &connection() const { return m_connection; }
    // PostgreSQL: tells every listening engine that `what` changed (a failure is logged: the others
    // then see it at their next periodic read).
    void notify();
    // PostgreSQL: `changed` runs (on this thread, from its event loop) when any engine notifies. False
    // on SQLite, or when the server refused.
    bool listen(std::function<void()> changed);
    // After a failed statement: the connection again, and the subscription with it.
    void renew();

private:
    bool subscribe();
    StoreLocation m_location;
    QString m_connection;
    const char *m_channel;
    const char *m_what;
    std::function<void()> m_changed; // listen()'s, kept for renew()
};

} // namespace bullpen
