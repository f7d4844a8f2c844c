// SPDX-License-Identifier: MIT
#pragma once

#include "history/historyreader.h"

#include <QString>

#include <optional>

class QTextStream;

namespace bullpen::ops {

// `bullpen-cli export`: every row of one table that a filter selects, from a store or a running
// engine's history (any HistoryReader), as JSON Lines or CSV, read in pages (never the whole table in
// memory). Users appear only as masks; raw ids are never stored.
class HistoryDump final
{
public:
    enum class Table { Generations, Attempts, Events };
    enum class Format { JsonLines, Csv };

    // "generations", "attempts", "events"; "jsonl", "csv". Nothing for anything else.
    static std::optional<Table> tableFrom(const QString &name);
    static std::optional<Format> formatFrom(const QString &name);

    static constexpr int kPage = 1000;

    struct Outcome
    {
        qint64 rows = 0;
        QString error; // a read failed part-way (the rows before it are written)
    };

    HistoryDump(Table table, Format format, int pageSize = kPage)
        : m_table(table)
        , m_format(format)
        , m_pageSize(pageSize)
    {
    }

    // Writes the rows `filter` selects, newest first, to `out`.
    Outcome write(HistoryReader &history, HistoryFilter filter, QTextStream &out) const;

private:
    Table m_table;
    Format m_format;
    int m_pageSize;
};

} // namespace bullpen::ops
