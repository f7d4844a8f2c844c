// SPDX-License-Identifier: MIT
#pragma once

#include "historyreader.h"

#include <QIODevice>
#include <QJsonObject>

#include <atomic>
#include <functional>

namespace bullpen {

// Writes the generations a filter selects as JSON Lines or CSV, page by page (never the whole history in
// memory). `bullpen-cli export` and the console's failures view share it.
class HistoryExport final
{
public:
    enum class Format { JsonLines, Csv };
    enum class Ids {
        MaskedOnly, // as on screen: `gen_7f3a…c91e` and the user's display mask (the console's export)
        WithFull, // also the full generation id (the CLI's export, for joining with attempts and events)
    };
    struct Outcome
    {
        qint64 rows = 0;
        bool cancelled = false;
        QString error; // empty on success
    };

    static QJsonObject rowJson(const GenerationRow &row, Ids ids);
    static QString csvField(const QJsonValue &value);

    // Calls `progress(rowsSoFar)` after each page; stops early (cancelled) when `cancel` becomes true.
    static Outcome write(HistoryReader &history, HistoryFilter filter, Format format, Ids ids, QIODevice &out,
                         const std::function<void(qint64)> &progress = {}, const std::atomic_bool *cancel = nullptr);
};

} // namespace bullpen
