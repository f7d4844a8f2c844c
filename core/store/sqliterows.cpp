// SPDX-License-Identifier: MIT
#include "sqliterows.h"

#include "storelocation.h"

#ifdef BULLPEN_HAVE_SQLITE3
#include <sqlite3.h>
#endif

namespace bullpen {

#ifdef BULLPEN_HAVE_SQLITE3

SqliteRows::SqliteRows(const QSqlDatabase &db, const char *sql)
{
    sqlite3 *connection = StoreLocation::sqliteHandle(db);
    if (!connection)
        return;
    if (sqlite3_prepare_v2(connection, sql, -1, &m_statement, nullptr) != SQLITE_OK) {
        m_error = QString::fromUtf8(sqlite3_errmsg(connection));
        sqlite3_finalize(m_statement);
        m_statement = nullptr;
    }
}

SqliteRows::~SqliteRows()
{
    sqlite3_finalize(m_statement);
}

void SqliteRows::bind(int index, qint64 value)
{
    sqlite3_bind_int64(m_statement, index, value);
}

void SqliteRows::bind(int index, const QByteArray &text)
{
    sqlite3_bind_text(m_statement, index, text.constData(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

bool SqliteRows::next()
{
    const int step = sqlite3_step(m_statement);
    if (step == SQLITE_ROW)
        return true;
    if (step != SQLITE_DONE)
        m_error = QString::fromUtf8(sqlite3_errmsg(sqlite3_db_handle(m_statement)));
    return false;
}

qint64 SqliteRows::int64(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

double SqliteRows::real(int column) const
{
    return sqlite3_column_double(m_statement, column);
}

QString SqliteRows::text(int column)
{
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    const QByteArrayView value(bytes, sqlite3_column_bytes(m_statement, column));
    for (const auto &[known, shared] : std::as_const(m_texts)) {
        if (known == value)
            return shared;
    }
    m_texts.append({ value.toByteArray(), QString::fromUtf8(value) });
    return m_texts.constLast().second;
}

#else

SqliteRows::SqliteRows(const QSqlDatabase &, const char *) { }
SqliteRows::~SqliteRows() = default;
void SqliteRows::bind(int, qint64) { }
void SqliteRows::bind(int, const QByteArray &) { }
bool SqliteRows::next()
{
    return false;
}
qint64 SqliteRows::int64(int) const
{
    return 0;
}
double SqliteRows::real(int) const
{
    return 0;
}
QString SqliteRows::text(int)
{
    return {};
}

#endif

} // namespace bullpen
