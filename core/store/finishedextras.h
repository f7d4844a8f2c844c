// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

namespace bullpen {

// What a whole generation adds to its stage result when it is stored.
struct FinishedExtras
{
    QString cacheKey; // identical request + user-visible settings (docs/contract.md §6)
    bool degraded = false; // a default caption was substituted: never served from cache
    bool fromCache = false;
    QString imagePath; // content-addressed under the data directory
    QString nextStep; // docs/contract.md §7 message
    QJsonObject resultJson; // the whole generation's result; empty: the stage result's
};

} // namespace bullpen
