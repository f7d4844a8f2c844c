// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QStringList>

#include <vector>

namespace bullpen {

// Histogram cells summed from aggregate rows and edge rows (HistoryQueries::latencyHistogram and
// fallbackWaitHistogram): added in any order, one cell may come several times (once per instance, and
// from the rows at the edges), and out once each, in key order. A sorted vector of small keys: a map
// keyed by tuples (and provider names) spent more time than SQLite's read at a million attempts.
class DurationCellSums
{
public:
    void add(qint64 bucket, bool success, int bin, qint64 n);
    QList<DurationCell> cells(qint64 fromMs, qint64 bucketMs);

private:
    struct Cell
    {
        quint64 key; // bucket, success, bin
        qint64 n;
    };
    std::vector<Cell> m_cells;
};

class FallbackWaitCellSums
{
public:
    void add(qint64 bucket, const QString &primary, const QString &fallback, int bin, qint64 n);
    // Ordered by bucket, then the providers' names, then bin.
    QList<FallbackWaitCell> cells(qint64 fromMs, qint64 bucketMs);

private:
    int intern(const QString &name);
    struct Cell
    {
        qint64 bucket;
        int primary; // index into m_names
        int fallback;
        int bin;
        qint64 n;
    };
    QStringList m_names;
    std::vector<Cell> m_cells;
};

} // namespace bullpen
