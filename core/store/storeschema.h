// SPDX-License-Identifier: MIT
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace bullpen {

// The store's schema and its migrations. SQL kept to what SQLite and PostgreSQL (Qt's QSQLITE and
// QPSQL drivers) both accept: plain types, INSERT and UPDATE, upserts (ON CONFLICT … DO UPDATE: SQLite 3.24+, PostgreSQL
// 9.5+), no JSON functions (docs/contract.md §12).
class StoreSchema final
{
public:
    static constexpr int kCurrentVersion = 19;

    // Brings the database to kCurrentVersion inside one transaction per step. Refuses a database from a
    // newer Bullpen, and one that is not a Bullpen store, saying what to do in *error.
    static bool migrate(QSqlDatabase &db, QString *error);
    // The refusals of migrate() alone, changing nothing: run before anything writes to the file.
    static bool check(QSqlDatabase &db, QString *error);
    static int version(QSqlDatabase &db, QString *error);
};

} // namespace bullpen
