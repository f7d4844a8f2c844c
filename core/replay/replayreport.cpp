// SPDX-License-Identifier: MIT
#include "replayreport.h"

#include "history/historyexport.h"
#include "pipeline/generationresult.h"
#include "store/privatefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace bullpen::ReplayReport {

namespace {

// A settings file holds no key (it is refused), but a base URL may carry user:password@.
QJsonObject withoutUserInfo(QJsonObject settings)
{
    QJsonArray providers = settings.value(QLatin1StringView("providers")).toArray();
    for (qsizetype i = 0; i < providers.size(); ++i) {
        QJsonObject p = providers.at(i).toObject();
        if (const QString base = p.value(QLatin1StringView("base_url")).toString(); !base.isEmpty()) {
            QUrl url(base);
            url.setUserInfo(QString());
            p.insert(QStringLiteral("base_url"), url.toString());
        }
        providers.replace(i, p);
    }
    if (!providers.isEmpty())
        settings.insert(QStringLiteral("providers"), providers);
    return settings;
}

} // namespace

QJsonObject build(const Parts &parts)
{
    QJsonObject result = parts.replayed.toJson();
    result.remove(QStringLiteral("image_path")); // a path on this machine; the image is named by its digest
    return QJsonObject {
        { QStringLiteral("report"), QStringLiteral("bullpen replay") },
        { QStringLiteral("version"), kVersion },
        { QStringLiteral("generation_id"), parts.source.row.id },
        { QStringLiteral("replay_id"), parts.replayId.isEmpty() ? QJsonValue() : QJsonValue(parts.replayId) },
        { QStringLiteral("as_recorded"), parts.asRecorded },
        { QStringLiteral("verdict"), parts.verdict.toJson() },
        { QStringLiteral("settings"), withoutUserInfo(parts.settings) },
        { QStringLiteral("scenario"), parts.scenario.toJson() },
        { QStringLiteral("recorded"),
          QJsonObject { { QStringLiteral("generation"), HistoryExport::rowJson(parts.source.row, HistoryExport::Ids::WithFull) },
                        { QStringLiteral("run"), parts.source.run().toJson() } } },
        { QStringLiteral("replayed"),
          QJsonObject { { QStringLiteral("run"), replayedRun(parts.replayed).toJson() }, { QStringLiteral("result"), result } } },
    };
}

bool write(const QString &path, const QJsonObject &report, QString *error)
{
    return PrivateFiles::replace(path, QJsonDocument(report).toJson(QJsonDocument::Indented), error);
}

} // namespace bullpen::ReplayReport
