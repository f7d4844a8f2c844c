// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace bullpen {

class StoreDatabase;

// docs/contract.md §6: identical requests within the window are served from the store. The key is the pipeline's
// (story plus the request's own settings, GenerationPipeline::settingsDigest).
class ResultCache final
{
public:
    explicit ResultCache(StoreDatabase &db);
    // The stored result of a succeeded, non-degraded, non-cached generation with this key, created at or
    // after sinceMs; nothing if there is none.
    std::optional<QJsonObject> lookup(const QString &cacheKey, qint64 sinceMs, QString *error = nullptr);

private:
    StoreDatabase &m_db;
};

} // namespace bullpen
