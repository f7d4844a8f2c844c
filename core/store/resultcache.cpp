// SPDX-License-Identifier: MIT
#include "resultcache.h"

#include "storedatabase.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace bullpen {

ResultCache::ResultCache(StoreDatabase &db)
    : m_db(db)
{
}

std::optional<QJsonObject> ResultCache::lookup(const QString &cacheKey, qint64 sinceMs, QString *error)
{
    QSqlQuery q;
    if (!m_db.read(q,
                   QStringLiteral("SELECT result_json FROM generations WHERE cache_key = ? AND created_at_ms >= ? AND state = 'succeeded' "
                                  "AND degraded = 0 AND from_cache = 0 ORDER BY created_at_ms DESC LIMIT 1"),
                   { cacheKey, sinceMs }, error)
        || !q.next())
        return std::nullopt;
    return QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
}

} // namespace bullpen
