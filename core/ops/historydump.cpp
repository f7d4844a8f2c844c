// SPDX-License-Identifier: MIT
#include "ops/historydump.h"

#include "history/historyexport.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

namespace bullpen::ops {

std::optional<HistoryDump::Table> HistoryDump::tableFrom(const QString &name)
{
    for (const auto &[text, table] : { std::pair { u"generations", Table::Generations }, std::pair { u"attempts", Table::Attempts },
                                       std::pair { u"events", Table::Events } }) {
        if (name == text)
            return table;
    }
    return std::nullopt;
}

std::optional<HistoryDump::Format> HistoryDump::formatFrom(const QString &name)
{
    if (name == u"jsonl")
        return Format::JsonLines;
    if (name == u"csv")
        return Format::Csv;
    return std::nullopt;
}

HistoryDump::Outcome HistoryDump::write(HistoryReader &history, HistoryFilter filter, QTextStream &out) const
{
    Outcome outcome;
    QStringList header; // CSV: the first row's keys, once
    auto emitRow = [&](const QJsonObject &o) {
        if (m_format == Format::JsonLines) {
            out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        } else {
            if (header.isEmpty()) {
                header = o.keys();
                out << header.join(QLatin1Char(',')) << "\n";
            }
            QStringList fields;
            for (const QString &k : std::as_const(header))
                fields << HistoryExport::csvField(o.value(k));
            out << fields.join(QLatin1Char(',')) << "\n";
        }
        ++outcome.rows;
    };
    for (;;) {
        const QList<GenerationRow> rows = history.generations(filter, m_pageSize, &outcome.error);
        for (const GenerationRow &r : rows) {
            if (m_table == Table::Generations) {
                emitRow(HistoryExport::rowJson(r, HistoryExport::Ids::WithFull));
            } else if (m_table == Table::Attempts) {
                const QList<QJsonObject> attempts = history.attempts(r.id, &outcome.error);
                for (QJsonObject a : attempts) {
                    // One time format in every table: ISO 8601 UTC with milliseconds (as created_at, wall_time).
                    if (const QJsonValue at = a.take(QStringLiteral("at_ms")); at.isDouble())
                        a.insert(QStringLiteral("at"), QDateTime::fromMSecsSinceEpoch(at.toInteger(), Qt::UTC).toString(Qt::ISODateWithMs));
                    emitRow(a);
                }
            } else {
                const QList<QJsonObject> events = history.events(r.id, &outcome.error);
                for (const QJsonObject &e : events)
                    emitRow(e);
            }
        }
        if (rows.size() < m_pageSize)
            break;
        filter.beforeMs = rows.constLast().createdAtMs;
        filter.beforeId = rows.constLast().id;
    }
    out.flush();
    return outcome;
}

} // namespace bullpen::ops
