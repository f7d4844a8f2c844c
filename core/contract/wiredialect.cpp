// SPDX-License-Identifier: MIT
#include "wiredialect.h"

#include <QList>
#include <QReadWriteLock>

namespace bullpen {

namespace {

struct Row
{
    QString id;
    QByteArray authHeader;
};

// The built-in rows in WireDialect's order, then the dialects registered beside them.
struct Table
{
    QReadWriteLock lock;
    QList<Row> rows { { QStringLiteral("gemini"), "x-goog-api-key" },
                      { QStringLiteral("openai"), "Authorization" },
                      { QStringLiteral("dashscope"), "Authorization" },
                      { QStringLiteral("anthropic"), "x-api-key" } };
};

Table &table()
{
    static Table t;
    return t;
}

Row row(WireDialect dialect)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    return dialect.index() < t.rows.size() ? t.rows.at(dialect.index()) : t.rows.first();
}

} // namespace

QByteArray WireDialect::defaultAuthHeader() const
{
    return row(*this).authHeader;
}

std::optional<WireDialect> WireDialect::fromId(QStringView id)
{
    Table &t = table();
    const QReadLocker lock(&t.lock);
    for (qsizetype i = 0; i < t.rows.size(); ++i) {
        if (id.compare(t.rows.at(i).id, Qt::CaseInsensitive) == 0)
            return WireDialect(static_cast<int>(i));
    }
    return std::nullopt;
}

WireDialect WireDialect::declare(const QString &id, const QByteArray &defaultAuthHeader)
{
    if (const std::optional<WireDialect> known = fromId(id))
        return *known;
    Table &t = table();
    const QWriteLocker lock(&t.lock);
    t.rows.append(Row { id.toLower(), defaultAuthHeader });
    return WireDialect(static_cast<int>(t.rows.size() - 1));
}

QString toId(WireDialect dialect)
{
    return row(dialect).id;
}

} // namespace bullpen
