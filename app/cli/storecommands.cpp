// SPDX-License-Identifier: MIT
#include "storecommands.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settings.h"
#include "contract/displaymask.h"
#include "contract/providerregistry.h"
#include "history/historyexport.h"
#include "remote/remotehistory.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "store/retention.h"
#include "store/store.h"
#include "storeargs.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTextStream>
#include <QThread>
#include <QTimeZone>

#include <cmath>

namespace bullpen::cli {

namespace {

QJsonObject rowJson(const GenerationRow &r)
{
    return HistoryExport::rowJson(r, HistoryExport::Ids::WithFull);
}

QString csvField(const QJsonValue &v)
{
    return HistoryExport::csvField(v);
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
    const QString tableName = parser.value(table);
    const QString fmt = parser.value(format);
    if ((tableName != u"generations" && tableName != u"attempts" && tableName != u"events") || (fmt != u"jsonl" && fmt != u"csv")) {
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

    // Rows as JSON objects, in pages (never the whole table in memory).
    QStringList header;
    qint64 count = 0;
    auto emitRow = [&](const QJsonObject &o) {
        if (fmt == u"jsonl") {
            out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        } else {
            if (header.isEmpty()) {
                header = o.keys();
                out << header.join(QLatin1Char(',')) << "\n";
            }
            QStringList fields;
            for (const QString &k : std::as_const(header))
                fields << csvField(o.value(k));
            out << fields.join(QLatin1Char(',')) << "\n";
        }
        ++count;
    };
    constexpr int kPage = 1000;
    for (;;) {
        const QList<GenerationRow> rows = store->generations(filter, kPage, &error);
        for (const GenerationRow &r : rows) {
            if (tableName == u"generations") {
                emitRow(rowJson(r));
            } else if (tableName == u"attempts") {
                const QList<QJsonObject> attempts = store->attempts(r.id, &error);
                for (QJsonObject a : attempts) {
                    // One time format in every table: ISO 8601 UTC with milliseconds (as created_at, wall_time).
                    if (const QJsonValue at = a.take(QStringLiteral("at_ms")); at.isDouble())
                        a.insert(QStringLiteral("at"), QDateTime::fromMSecsSinceEpoch(at.toInteger(), Qt::UTC).toString(Qt::ISODateWithMs));
                    emitRow(a);
                }
            } else {
                const QList<QJsonObject> events = store->events(r.id, &error);
                for (const QJsonObject &e : events)
                    emitRow(e);
            }
        }
        if (rows.size() < kPage)
            break;
        filter.beforeMs = rows.constLast().createdAtMs;
        filter.beforeId = rows.constLast().id;
    }
    out.flush();
    if (!error.isEmpty()) {
        err << "bullpen-cli export: " << error << "\n";
        return 1;
    }
    err << "bullpen-cli export: " << count << " " << tableName << " row(s)\n";
    return file.error() == QFileDevice::NoError ? 0 : 1;
}

namespace {

// The retention a purge applies: the configured one, or the flags'. Nothing, with the refusal printed,
// when a flag is wrong or retention is off with no --older-than.
std::optional<RetentionPolicy> purgePolicy(const QCommandLineParser &parser, const QCommandLineOption &olderThan,
                                           const QCommandLineOption &aggregatesOlderThan, const QProcessEnvironment &environment,
                                           QTextStream &err)
{
    const SettingsLoad load = SettingsLoader::load(EngineSetup::defaultSettingsFile(), EngineSetup::defaultKeyFile(), environment, false);
    RetentionPolicy policy = load.settings.retention;
    const bool configured = !parser.isSet(olderThan);
    for (const auto &[option, into] :
         { std::pair { &olderThan, &policy.generations }, std::pair { &aggregatesOlderThan, &policy.aggregates } }) {
        if (!parser.isSet(*option))
            continue;
        QString why;
        bool off = false;
        *into = parseRetention(parser.value(*option), &off, &why);
        if (!*into && !off) {
            err << "bullpen-cli purge: --" << option->names().constFirst() << ": " << why << "\n";
            return std::nullopt;
        }
    }
    // The dashboards read whole hours from the aggregates: never drop them before the rows they count.
    if (policy.aggregates && policy.generations && *policy.aggregates < *policy.generations)
        policy.aggregates = policy.generations;
    if (policy.aggregates && !policy.generations)
        policy.aggregates.reset();
    if (policy.isOff()) {
        err << "bullpen-cli purge: retention is off" << (configured ? " (BULLPEN_RETENTION=off)" : "")
            << ", nothing to remove; give --older-than PERIOD\n";
        return std::nullopt;
    }
    return policy;
}

// Removes what the retention no longer keeps, step by step, pausing between steps. 0, 1 (a step
// failed: *error) or 3 (another engine is purging).
int purgeSteps(Purger &purger, QString *error)
{
    for (;;) {
        switch (purger.step(error)) {
        case Purger::Step::More:
            QThread::msleep(static_cast<unsigned long>(purger.pause().count()));
            break;
        case Purger::Step::Done:
            return 0;
        case Purger::Step::Busy:
            return 3;
        case Purger::Step::Failed:
            return 1;
        }
    }
}

// --vacuum: SQLite VACUUM (to incremental vacuum) and a checkpoint, or PostgreSQL VACUUM ANALYZE.
bool vacuumStore(QSqlDatabase &db, bool postgres, QString *error)
{
    QSqlQuery q(db);
    const QStringList statements = postgres ? QStringList { QStringLiteral("VACUUM ANALYZE") }
                                            : QStringList { QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL"), QStringLiteral("VACUUM"),
                                                            QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)") };
    for (const QString &sql : statements) {
        if (!q.exec(sql)) {
            *error = q.lastError().text();
            return false;
        }
        while (q.next()) { }
    }
    return true;
}

// What purge prints: the store, the cut-offs, what was (or would be) removed, and how long it took.
QJsonObject purgeReport(const StoreLocation &location, bool dryRun, const RetentionPolicy &policy, const Purger &purger,
                        const PurgeCounts &counts, qint64 elapsedMs)
{
    const auto cutoff = [](qint64 ms) {
        return ms ? QJsonValue(QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODate)) : QJsonValue();
    };
    return QJsonObject { { QStringLiteral("store"), location.display() },
                         { QStringLiteral("dry_run"), dryRun },
                         { QStringLiteral("retention"), formatRetention(policy.generations) },
                         { QStringLiteral("aggregate_retention"), formatRetention(policy.aggregates) },
                         { QStringLiteral("generations_before"), cutoff(purger.generationCutoffMs()) },
                         { QStringLiteral("aggregates_before"), cutoff(purger.aggregateCutoffMs()) },
                         { dryRun ? QStringLiteral("would_remove") : QStringLiteral("removed"),
                           QJsonObject { { QStringLiteral("generations"), counts.generations },
                                         { QStringLiteral("attempts"), counts.attempts },
                                         { QStringLiteral("events"), counts.events },
                                         { QStringLiteral("comparisons"), counts.comparisons },
                                         { QStringLiteral("images"), counts.images },
                                         { QStringLiteral("image_files"), counts.imageFiles },
                                         { QStringLiteral("aggregate_rows"), counts.aggregateRows },
                                         { QStringLiteral("audit_rows"), counts.auditRows } } },
                         { QStringLiteral("steps"), purger.steps() },
                         { QStringLiteral("longest_step_ms"), std::round(purger.longestStepMs() * 100) / 100 },
                         { QStringLiteral("seconds"), std::round(double(elapsedMs) / 10) / 100 } };
}

} // namespace

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
    const std::optional<RetentionPolicy> purging = purgePolicy(parser, olderThan, aggregatesOlderThan, environment, err);
    if (!purging)
        return kExitUsage;
    const RetentionPolicy &policy = *purging;

    QString error;
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
    const auto fileBytes = [&] {
        qint64 n = 0;
        for (const char *suffix : { "", "-wal" })
            n += QFileInfo(location->sqlitePath() + QLatin1StringView(suffix)).size();
        return n;
    };
    const qint64 bytesBefore = location->isPostgres() ? -1 : fileBytes();
    const QString name = QStringLiteral("bullpen-purge");
    int code = 0;
    QJsonObject report;
    {
        QSqlDatabase db = location->connect(name, StoreLocation::Access::ReadWrite, &error);
        if (!error.isEmpty()) {
            err << "bullpen-cli purge: " << error << "\n";
            return kExitUsage;
        }
        const QString imagesDir =
            location->isPostgres() && !parser.isSet(dataDir) ? QString() : QDir(dir).filePath(QStringLiteral("images"));
        Purger purger(db, policy, QDateTime::currentMSecsSinceEpoch(), imagesDir);
        QElapsedTimer timer;
        timer.start();
        PurgeCounts counts;
        if (parser.isSet(dryRun)) {
            if (!purger.countOnly(&counts, &error))
                code = 1;
        } else {
            code = purgeSteps(purger, &error);
            counts = purger.counts();
            if (code == 0 && parser.isSet(vacuum) && !vacuumStore(db, location->isPostgres(), &error))
                code = 1;
        }
        report = purgeReport(*location, parser.isSet(dryRun), policy, purger, counts, timer.elapsed());
    }
    StoreLocation::disconnect(name);
    if (bytesBefore >= 0) {
        report.insert(QStringLiteral("file_bytes_before"), bytesBefore);
        report.insert(QStringLiteral("file_bytes_after"), fileBytes());
    }
    out << QJsonDocument(report).toJson(QJsonDocument::Indented);
    out.flush();
    if (code == 1)
        err << "bullpen-cli purge: " << error << "; what was removed stays removed: run it again\n";
    else if (code == 3)
        err << "bullpen-cli purge: another engine is purging this store now; try again when it is done\n";
    return code;
}

} // namespace bullpen::cli
