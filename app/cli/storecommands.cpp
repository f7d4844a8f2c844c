// SPDX-License-Identifier: MIT
#include "storecommands.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settings.h"
#include "contract/displaymask.h"
#include "contract/providerregistry.h"
#include "history/historyexport.h"
#include "ops/historydump.h"
#include "ops/storepurge.h"
#include "remote/remotehistory.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "store/retention.h"
#include "store/store.h"
#include "storeargs.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

namespace {

QJsonObject rowJson(const GenerationRow &r)
{
    return HistoryExport::rowJson(r, HistoryExport::Ids::WithFull);
}

} // namespace

int runHistory(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Generations in the store, newest first. User and generation ids are masked."));
    parser.addHelpOption();
    StoreArgs args;
    args.add(parser);
    const QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("How many (default 20)."), QStringLiteral("n"),
                                   QStringLiteral("20"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON array."));
    const RemoteFlag remote;
    parser.addOptions({ limit, json, remote.engine });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli history: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("history"),
                           { { 0, QStringLiteral("listed (an empty result says so on stderr)") },
                             { 2, QStringLiteral("usage refused: a filter value not in its list, or no store") } });
        return 0;
    }
    HistoryFilter filter;
    QString error;
    if (!args.filter(parser, &filter, &error, remote.isSet(parser))) {
        err << "bullpen-cli history: " << error << "\n";
        return kExitUsage;
    }
    std::unique_ptr<HistoryReader> store;
    if (remote.isSet(parser)) {
        EngineEndpoint endpoint;
        if (!remote.endpoint(parser, &endpoint, &error)) {
            err << "bullpen-cli history: " << error << "\n";
            return kExitUsage;
        }
        store = std::make_unique<RemoteHistory>(endpoint);
    } else {
        store = args.open(parser, &error);
    }
    if (!store) {
        err << "bullpen-cli history: " << error << "\n";
        return kExitUsage;
    }
    const QList<GenerationRow> rows = store->generations(filter, parser.value(limit).toInt(), &error);
    if (!error.isEmpty()) {
        err << "bullpen-cli history: " << error << "\n";
        return kExitUsage;
    }
    if (parser.isSet(json)) {
        QJsonArray a;
        for (const GenerationRow &r : rows)
            a.append(rowJson(r));
        out << QJsonDocument(a).toJson(QJsonDocument::Indented);
        return 0;
    }
    // Aligned columns under a header; ids shortened here only (--json and export carry them whole).
    const auto line = [&](const QString &when, const QString &gen, const QString &userMask, const QString &st, const QString &failure,
                          const QString &providers, const QString &elapsed) {
        out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7")
                   .arg(when, -19)
                   .arg(gen, -14)
                   .arg(userMask, -12)
                   .arg(st, -9)
                   .arg(failure, -44)
                   .arg(providers, -40)
                   .arg(elapsed, 9)
                   .trimmed()
            << "\n";
    };
    if (!rows.isEmpty())
        line(QStringLiteral("started (local)"), QStringLiteral("generation"), QStringLiteral("user"), QStringLiteral("state"),
             QStringLiteral("public code / kind"), QStringLiteral("providers"), QStringLiteral("elapsed"));
    for (const GenerationRow &r : rows) {
        // The provider chain as the console shows it: one name when no fallback provider answered.
        QString chain = r.providerChain();
        if (r.fallbackApplied)
            chain += QStringLiteral(" (%1)").arg(r.fallbackReason);
        line(QDateTime::fromMSecsSinceEpoch(r.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), DisplayMask::generationId(r.id),
             r.userMask.isEmpty() ? QStringLiteral("-") : r.userMask, r.state,
             r.publicCode.isEmpty() ? QStringLiteral("-") : r.publicCode + QLatin1Char('/') + r.kind, chain,
             QStringLiteral("%1 ms").arg(r.elapsedMs, 0, 'f', 0));
    }
    if (rows.isEmpty())
        err << "bullpen-cli history: no generations match in " << store->location() << "\n";
    return 0;
}

int runExport(const QStringList &arguments)
{
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Export generations, attempts or events as JSON Lines or CSV. Users appear only "
                                                    "as masks; raw ids are never stored."));
    parser.addHelpOption();
    StoreArgs args;
    args.add(parser);
    const QCommandLineOption table(QStringLiteral("table"), QStringLiteral("generations, attempts or events."), QStringLiteral("table"),
                                   QStringLiteral("generations"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("jsonl or csv."), QStringLiteral("format"),
                                    QStringLiteral("jsonl"));
    const QCommandLineOption outFile(QStringLiteral("out"), QStringLiteral("Write to a file instead of standard output."),
                                     QStringLiteral("path"));
    const RemoteFlag remote;
    parser.addOptions({ table, format, outFile, remote.engine });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli export: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << commandHelp(parser, QStringLiteral("export"),
                                           { { 0, QStringLiteral("written (the row count is printed on stderr)") },
                                             { 1, QStringLiteral("a read or write failed part-way") },
                                             { 2, QStringLiteral("usage refused, or no store") } });
        return 0;
    }
    const std::optional<ops::HistoryDump::Table> tableName = ops::HistoryDump::tableFrom(parser.value(table));
    const std::optional<ops::HistoryDump::Format> fmt = ops::HistoryDump::formatFrom(parser.value(format));
    if (!tableName || !fmt) {
        err << "bullpen-cli export: --table takes generations, attempts or events; --format takes jsonl or csv\n";
        return kExitUsage;
    }
    HistoryFilter filter;
    QString error;
    if (!args.filter(parser, &filter, &error, remote.isSet(parser))) {
        err << "bullpen-cli export: " << error << "\n";
        return kExitUsage;
    }
    std::unique_ptr<HistoryReader> store;
    if (remote.isSet(parser)) {
        EngineEndpoint endpoint;
        if (!remote.endpoint(parser, &endpoint, &error)) {
            err << "bullpen-cli export: " << error << "\n";
            return kExitUsage;
        }
        store = std::make_unique<RemoteHistory>(endpoint);
    } else {
        store = args.open(parser, &error);
    }
    if (!store) {
        err << "bullpen-cli export: " << error << "\n";
        return kExitUsage;
    }

    QFile file;
    if (parser.isSet(outFile)) {
        file.setFileName(parser.value(outFile));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            err << "bullpen-cli export: " << file.fileName() << ": " << file.errorString() << "\n";
            return kExitUsage;
        }
    } else {
        file.open(stdout, QIODevice::WriteOnly);
    }
    QTextStream out(&file);
    const ops::HistoryDump::Outcome written = ops::HistoryDump(*tableName, *fmt).write(*store, filter, out);
    const qint64 count = written.rows;
    error = written.error;
    if (!error.isEmpty()) {
        err << "bullpen-cli export: " << error << "\n";
        return 1;
    }
    err << "bullpen-cli export: " << count << " " << parser.value(table) << " row(s)\n";
    return file.error() == QFileDevice::NoError ? 0 : 1;
}

int runPurge(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Remove generations (with their attempts, events and comparisons), comics nothing refers to, and old hourly "
                       "aggregates, as the engines' retention does, in small transactions beside running engines. A running "
                       "generation is never removed. Prints what was removed (or, with --dry-run, what would be) as JSON."));
    parser.addHelpOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"), QStringLiteral("The store's folder."), QStringLiteral("path"));
    const QCommandLineOption olderThan(QStringLiteral("older-than"),
                                       QStringLiteral("Generations older than this (e.g. 7d, 12h, 2w); default: the configured retention "
                                                      "(BULLPEN_RETENTION, 30d)."),
                                       QStringLiteral("period"));
    const QCommandLineOption aggregatesOlderThan(
        QStringLiteral("aggregates-older-than"),
        QStringLiteral("Hourly aggregates and audit rows older than this; default: the configured "
                       "aggregate retention (BULLPEN_AGGREGATE_RETENTION, 400d), never shorter than "
                       "--older-than."),
        QStringLiteral("period"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("Count what would be removed; remove nothing."));
    const QCommandLineOption vacuum(
        QStringLiteral("vacuum"),
        QStringLiteral("Afterwards, compact the store (SQLite: VACUUM, converting an older store to incremental "
                       "vacuum; PostgreSQL: VACUUM ANALYZE). Holds the store while it runs: use it when no "
                       "engine is writing."));
    parser.addOptions({ dataDir, olderThan, aggregatesOlderThan, dryRun, vacuum });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli purge: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("purge"),
                           { { 0, QStringLiteral("purged (or counted, with --dry-run)") },
                             { 1, QStringLiteral("a step failed part-way: what was removed stays removed; run it again") },
                             { 2, QStringLiteral("usage refused, or no store") },
                             { 3, QStringLiteral("another engine is purging this store now; try again later") } });
        return 0;
    }
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString error;
    const SettingsLoad load = SettingsLoader::load(EngineSetup::defaultSettingsFile(), EngineSetup::defaultKeyFile(), environment, false);
    const auto given = [&parser](const QCommandLineOption &o) {
        return parser.isSet(o) ? std::optional(parser.value(o)) : std::nullopt;
    };
    const std::optional<RetentionPolicy> policy =
        ops::StorePurge::policy(load.settings.retention, given(olderThan), given(aggregatesOlderThan), &error);
    if (!policy) {
        err << "bullpen-cli purge: " << error << "\n";
        return kExitUsage;
    }

    const QString dir = parser.isSet(dataDir) ? parser.value(dataDir) : EngineSetup::defaultDataDir(environment);
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, environment, &error);
    if (!location || (!location->isPostgres() && !QFileInfo::exists(location->sqlitePath()))) {
        err << "bullpen-cli purge: " << (location ? QStringLiteral("no store at %1").arg(location->sqlitePath()) : error) << "\n";
        return kExitUsage;
    }
    // Opening it brings the schema up to date (the purge needs version 9's columns and indexes).
    std::unique_ptr<Store> store = Store::open(*location, &error);
    if (!store) {
        err << "bullpen-cli purge: " << error << "\n";
        return kExitUsage;
    }
    ops::StorePurge::Request request;
    request.policy = *policy;
    request.imagesDir = location->isPostgres() && !parser.isSet(dataDir) ? QString() : QDir(dir).filePath(QStringLiteral("images"));
    request.dryRun = parser.isSet(dryRun);
    request.vacuum = parser.isSet(vacuum);
    request.nowMs = QDateTime::currentMSecsSinceEpoch();
    const ops::StorePurge::Outcome purged = ops::StorePurge::run(*location, request);
    if (purged.code == ops::StorePurge::Code::NoStore) {
        err << "bullpen-cli purge: " << purged.error << "\n";
        return kExitUsage;
    }
    out << QJsonDocument(purged.report).toJson(QJsonDocument::Indented);
    out.flush();
    if (purged.code == ops::StorePurge::Code::Failed)
        err << "bullpen-cli purge: " << purged.error << "; what was removed stays removed: run it again\n";
    else if (purged.code == ops::StorePurge::Code::Busy)
        err << "bullpen-cli purge: another engine is purging this store now; try again when it is done\n";
    return int(purged.code);
}

} // namespace bullpen::cli
