// SPDX-License-Identifier: MIT
#pragma once

#include "store/storelocation.h"

#include <QString>

namespace bullpen::test {

// The store backend a test suite runs against. `BULLPEN_TEST_STORE=postgres` (ctest's `*_postgres`
// entries, label `postgres`) runs it on PostgreSQL: a throwaway cluster in a temporary folder, started
// once per test process (initdb + pg_ctl, as the `postgres` user when the tests run as root, since both
// refuse root), listening on a unix socket only, stopped and removed when the process ends (and by a
// watchdog if the process is killed). Every fresh() store is then a new database in that cluster.
// `BULLPEN_TEST_DATABASE_URL=postgresql://…/postgres` uses a running server instead (databases are
// created in it and dropped at the end).
// For initTestCase: skips the suite with the reason when its PostgreSQL run cannot start here, or
// fails it where PostgreSQL is required (CI).
#define BULLPEN_REQUIRE_TEST_STORE()                                                                                                       \
    do {                                                                                                                                   \
        QString why_;                                                                                                                      \
        if (!bullpen::test::TestStore::ready(&why_)) {                                                                                     \
            if (bullpen::test::TestStore::required())                                                                                      \
                QFAIL(qPrintable(why_));                                                                                                   \
            QSKIP(qPrintable(why_));                                                                                                       \
        }                                                                                                                                  \
    } while (false)

class TestStore final
{
public:
    static bool postgres();
    // Ready to hand out stores; false with the reason when PostgreSQL was asked for and cannot run
    // here (no server binaries, no `postgres` user). Call it from initTestCase: QSKIP with the reason
    // unless `BULLPEN_TEST_REQUIRE_POSTGRES=1` (CI), then QFAIL.
    static bool ready(QString *why);
    static bool required();
    // A new, empty store: the SQLite file in `dataDir`, or a new database (its data folder `dataDir`).
    static StoreLocation fresh(const QString &dataDir);
    // The store of data folder `dataDir`: fresh() the first time, the same one after (an engine that
    // is restarted on its folder finds its store again).
    static StoreLocation of(const QString &dataDir);
    // "sqlite" or "postgres", for messages.
    static QString backendName();

    // PostgreSQL outages, for the tests of what the store does through them (the throwaway cluster
    // only; false with the reason otherwise). Stopping is "fast": every connection is closed.
    static bool stopServer(QString *why);
    static bool startServer(QString *why);
    // Ends every other connection to `location`'s database (pg_terminate_backend): how a network cut
    // looks to the client while the server stays up. Returns how many were ended, -1 on failure.
    static int dropConnections(const StoreLocation &location, QString *why);
};

} // namespace bullpen::test
