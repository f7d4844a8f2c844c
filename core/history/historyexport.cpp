// SPDX-License-Identifier: MIT
#include "historyexport.h"

#include "contract/displaymask.h"
#include "contract/isotime.h"
#include "failure/secretscrubber.h"
#include "history/generationrowjson.h"

#include <QDateTime>
#include <QJsonDocument>

namespace bullpen {

namespace {

// Column order of both formats: stable, and the same as the failures table on screen. A row's own fields
// are written by its one codec (GenerationRowJson), so they carry the names the API gives them; the
// export adds the time as text, the generation's display id and the provider chain.
const char *const kColumns[] = { "created_at",
                                 "user",
                                 "generation",
                                 "generation_id",
                                 "state",
                                 "stage",
                                 "public_code",
                                 "kind",
                                 "provider_chain",
                                 "elapsed_ms",
                                 "policy",
                                 "provider_fallback_applied",
                                 "provider_fallback_reason",
                                 "primary_final_model_provider",
                                 "final_model_provider",
                                 "final_model_id",
                                 "detail",
                                 "decision",
                                 "next_step",
                                 "instance" };

} // namespace

QJsonObject HistoryExport::rowJson(const GenerationRow &r, Ids ids)
{
    QJsonObject row = GenerationRowJson::toJson(r);
    row.insert(QStringLiteral("created_at"), isoUtcWithMs(r.createdAtMs));
    row.insert(QStringLiteral("generation"), DisplayMask::generationId(r.id));
    row.insert(QStringLiteral("provider_chain"), r.providerChain());
    QJsonObject o;
    for (const char *column : kColumns) {
        if (ids == Ids::WithFull || qstrcmp(column, "generation_id") != 0)
            o.insert(QLatin1StringView(column), row.value(QLatin1StringView(column)));
    }
    return o;
}

QString HistoryExport::csvField(const QJsonValue &v)
{
    QString s = v.isString()            ? v.toString()
        : v.isNull() || v.isUndefined() ? QString()
        : v.isBool()                    ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                        : QString::number(v.toDouble(), 'g', 15);
    // Control characters (ESC/OSC sequences a provider put in its text) become spaces; a CSV is
    // often looked at with cat. Line breaks stay, quoted.
    s = SecretScrubber::printable(std::move(s), /*keepLineBreaks=*/true);
    // A leading = + - @ would be run as a formula by spreadsheets: quote it as text.
    if (!s.isEmpty() && QStringView(u"=+-@").contains(s.front()) && !v.isDouble())
        s.prepend(QLatin1Char('\''));
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r')))
        s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
}

HistoryExport::Outcome HistoryExport::write(HistoryReader &store, HistoryFilter filter, Format format, Ids ids, QIODevice &out,
                                            const std::function<void(qint64)> &progress, const std::atomic_bool *cancel)
{
    Outcome outcome;
    QStringList header;
    for (const char *c : kColumns) {
        if (ids == Ids::WithFull || qstrcmp(c, "generation_id") != 0)
            header << QLatin1StringView(c);
    }
    auto put = [&](const QByteArray &bytes) {
        if (out.write(bytes) != bytes.size() && outcome.error.isEmpty())
            outcome.error = out.errorString().isEmpty() ? QStringLiteral("the write was short (disk full?)") : out.errorString();
    };
    if (format == Format::Csv)
        put(header.join(QLatin1Char(',')).toUtf8() + '\n');
    constexpr int kPage = 1000;
    for (;;) {
        QString error;
        const QList<GenerationRow> rows = store.generations(filter, kPage, &error);
        if (!error.isEmpty()) {
            outcome.error = error;
            break;
        }
        QByteArray chunk;
        for (const GenerationRow &r : rows) {
            const QJsonObject o = rowJson(r, ids);
            if (format == Format::JsonLines) {
                chunk += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
            } else {
                QStringList fields;
                for (const QString &k : std::as_const(header))
                    fields << csvField(o.value(k));
                chunk += fields.join(QLatin1Char(',')).toUtf8() + '\n';
            }
        }
        put(chunk);
        outcome.rows += rows.size();
        if (progress)
            progress(outcome.rows);
        if (!outcome.error.isEmpty() || rows.size() < kPage)
            break;
        if (cancel && cancel->load()) {
            outcome.cancelled = true;
            break;
        }
        filter.beforeMs = rows.constLast().createdAtMs;
        filter.beforeId = rows.constLast().id;
    }
    return outcome;
}

} // namespace bullpen
