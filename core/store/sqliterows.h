// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QSqlDatabase>
#include <QString>

struct sqlite3_stmt;

namespace bullpen {

// One statement read through SQLite's own API on a connection Qt opened, for the reads of a hundred
// thousand rows and more (the raw fallback waits): QtSql makes a QVariant of every column of every row,
// which there costs more than SQLite's scan. A column's text comes back as a QString shared with an
// earlier equal one this statement returned, so a column of a few distinct values (providers) makes no
// string per row. Unavailable on PostgreSQL, and in a build without SQLite's headers
// (BULLPEN_HAVE_SQLITE3): the caller then reads through QtSql.
class SqliteRows final
{
public:
    // Prepares `sql` on `db`'s own SQLite connection.
    SqliteRows(const QSqlDatabase &db, const char *sql);
    ~SqliteRows();
    SqliteRows(const SqliteRows &) = delete;
    SqliteRows &operator=(const SqliteRows &) = delete;

    bool available() const { return m_statement != nullptr; } // false: no such connection, or `sql` failed
    QString error() const { return m_error; }

    void bind(int index, qint64 value); // 1-based, as SQLite counts
    void bind(int index, const QByteArray &text);
    // The next row; false at the end or on an error (then error() says which).
    bool next();
    qint64 int64(int column) const;
    double real(int column) const;
    QString text(int column);

private:
    sqlite3_stmt *m_statement = nullptr;
    QString m_error;
    QList<std::pair<QByteArray, QString>> m_texts; // every distinct text seen, in any column
};

} // namespace bullpen
