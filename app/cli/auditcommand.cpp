// SPDX-License-Identifier: MIT
#include "auditcommand.h"

#include "api/auditjson.h"
#include "clihelp.h"
#include "config/exitcode.h"
#include "enginecall.h"
#include "failure/secretscrubber.h"
#include "runtime/logsink.h"
#include "store/store.h"
#include "wire/apiroutes.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace bullpen::cli {

namespace {

constexpr int kDefaultLimit = 200; // as GET /v1/audit
constexpr int kMaxLimit = 1000;

// The store's audit, read here: the same rows and filter as the engine's answer.
std::optional<QJsonObject> readStore(const QString &dir, int limit, const QString &action, QString *error)
{
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const std::optional<StoreLocation> location = StoreLocation::resolve(dir, environment, error);
    if (!location)
        return std::nullopt;
    if (!location->isPostgres() && !QFileInfo::exists(location->sqlitePath())) {
        *error = QStringLiteral("no store at %1 (%2 does not exist); give the data folder the engine runs with (--data-dir), or "
                                "--engine URL to ask a running engine")
                     .arg(dir, location->sqlitePath());
        return std::nullopt;
    }
    const std::unique_ptr<ApiTokens> tokens = ApiTokens::open(*location, error);
    if (!tokens)
        return std::nullopt;
    QString why;
    const QList<AuditEntry> rows = tokens->auditLog(limit, &why);
    if (!why.isEmpty()) {
        *error = QStringLiteral("the audit could not be read: %1").arg(why);
        return std::nullopt;
    }
    return AuditJson::entries(rows, action);
}

void printEntries(QTextStream &out, const QJsonArray &entries)
{
    // What an engine or a store holds, on a terminal: control characters (escape sequences, line
    // breaks) become spaces, as in `provider list`.
    const auto cell = [](const QJsonObject &e, const char *field) {
        return SecretScrubber::printable(e.value(QLatin1StringView(field)).toString());
    };
    for (const QJsonValue &v : entries) {
        const QJsonObject e = v.toObject();
        const QDateTime at = QDateTime::fromString(e.value(QLatin1StringView("at")).toString(), Qt::ISODateWithMs);
        const QString instance = cell(e, "instance");
        out << QStringLiteral("%1  %2  %3  %4%5\n")
                   .arg(at.isValid() ? at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-"),
                        cell(e, "token").leftJustified(12), cell(e, "action").leftJustified(16), cell(e, "target"),
                        instance.isEmpty() ? QString() : QStringLiteral("  [%1]").arg(instance));
    }
    if (entries.isEmpty())
        out << "no audit entries\n";
}

} // namespace

int runAudit(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The audit trail, newest first: who started, cancelled, drained, restored, reset, silenced, and what the "
                       "engine did by itself (breaker transitions, drains that ended)."));
    parser.addHelpOption();
    const QCommandLineOption action(QStringLiteral("action"), QStringLiteral("Only this action, e.g. drain, restore, reset, silence."),
                                    QStringLiteral("action"));
    const QCommandLineOption limit(QStringLiteral("limit"),
                                   QStringLiteral("Read the newest N rows (1–1000, default 200); --action filters them."),
                                   QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print {\"entries\": [...]} as GET /v1/audit answers."));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("The store to read (default: BULLPEN_DATA_DIR or the user's data folder)."),
                                     QStringLiteral("path"));
    const RemoteFlag remote;
    parser.addOptions({ action, limit, json, dataDir, remote.engine });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli audit: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("audit"),
                           { { kExitOk, QStringLiteral("printed") },
                             { kExitUsage, QStringLiteral("usage refused, or refused by the engine (a bad token, a bad --limit)") },
                             { kExitUnreachable, QStringLiteral("the engine or the store could not be reached or read") } });
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "bullpen-cli audit: takes no arguments; filter with --action A\n";
        return kExitUsage;
    }
    int rows = kDefaultLimit;
    if (parser.isSet(limit)) {
        bool ok = false;
        rows = parser.value(limit).toInt(&ok);
        if (!ok || rows < 1 || rows > kMaxLimit) {
            err << "bullpen-cli audit: --limit: a whole number from 1 to " << kMaxLimit << ", e.g. --limit 50\n";
            return kExitUsage;
        }
    }
    if (remote.isSet(parser) && parser.isSet(dataDir)) {
        err << "bullpen-cli audit: --engine or --data-dir, not both\n";
        return kExitUsage;
    }
    const QString only = parser.value(action).trimmed();
    QJsonObject answer;
    if (remote.isSet(parser)) {
        EngineEndpoint endpoint;
        QString error;
        if (!remote.endpoint(parser, &endpoint, &error)) {
            err << "bullpen-cli audit: " << error << "\n";
            return kExitUsage;
        }
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("limit"), QString::number(rows));
        if (!only.isEmpty())
            query.addQueryItem(QStringLiteral("action"), only);
        const EngineAnswer a = callEngine(endpoint, ApiRoutes::path(ApiRoute::Audit), query, nullptr);
        if (!a.error.isEmpty()) {
            err << "bullpen-cli audit: " << endpoint.display() << ": " << SecretScrubber::printable(a.error) << "\n";
            return a.status >= 400 && a.status < 500 ? kExitUsage : kExitUnreachable;
        }
        answer = QJsonDocument::fromJson(a.body).object();
    } else {
        const QString dir =
            parser.isSet(dataDir) ? parser.value(dataDir) : EngineSetup::defaultDataDir(QProcessEnvironment::systemEnvironment());
        QString error;
        const std::optional<QJsonObject> read = readStore(dir, rows, only, &error);
        if (!read) {
            err << "bullpen-cli audit: " << SecretScrubber::printable(error) << "\n";
            return kExitUnreachable;
        }
        answer = *read;
    }
    if (parser.isSet(json))
        out << QJsonDocument(answer).toJson(QJsonDocument::Indented);
    else
        printEntries(out, answer.value(QLatin1StringView("entries")).toArray());
    return kExitOk;
}

} // namespace bullpen::cli
