// SPDX-License-Identifier: MIT
#include "soakcommand.h"

#include "clihelp.h"
#include "config/exitcode.h"
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "ops/soakrun.h"
#include "runtime/logsink.h"
#include "sim/scenario.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace bullpen::cli {

int runSoak(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run N generations against the built-in simulator with a mix of scenarios and check "
                       "the invariants of docs/contract.md §11; with --engine, the load test of a running bullpen-engine."));
    parser.addHelpOption();
    const QCommandLineOption count(QStringLiteral("count"), QStringLiteral("Generations (default 200)."), QStringLiteral("n"),
                                   QStringLiteral("200"));
    const QCommandLineOption mix(QStringLiteral("scenario-mix"), QStringLiteral("Comma-separated scenarios, or all (default)."),
                                 QStringLiteral("names"), QStringLiteral("all"));
    const QCommandLineOption concurrency(QStringLiteral("concurrency"), QStringLiteral("Generations in flight (default 16)."),
                                         QStringLiteral("k"), QStringLiteral("16"));
    const QCommandLineOption primary(QStringLiteral("primary"), QStringLiteral("Primary provider."), QStringLiteral("provider"),
                                     QStringLiteral("gemini"));
    const QCommandLineOption fallback(QStringLiteral("fallback"), QStringLiteral("Fallback provider."), QStringLiteral("provider"),
                                      QStringLiteral("qwen"));
    const QCommandLineOption primaryTimeout(QStringLiteral("primary-timeout"),
                                            QStringLiteral("Default 2s (hanging scenarios wait this long)."), QStringLiteral("duration"),
                                            QStringLiteral("2s"));
    const QCommandLineOption fallbackTimeout(QStringLiteral("fallback-timeout"), QStringLiteral("Default 2s."), QStringLiteral("duration"),
                                             QStringLiteral("2s"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"), QStringLiteral("Store folder (default: a new folder under the temp dir)."),
                                     QStringLiteral("path"));
    const QCommandLineOption noStore(QStringLiteral("no-store"), QStringLiteral("Record nothing."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the summary as JSON."));
    const QCommandLineOption progress(
        QStringLiteral("progress"),
        QStringLiteral("Print \"committed <generation id>\" as each final state becomes durable in the store."));
    const RemoteFlag remote;
    const QCommandLineOption advisory(
        QStringLiteral("advisory"),
        QStringLiteral("Comma-separated invariant numbers to report without judging (e.g. 2,5 for a debug build "
                       "on a busy machine); the others decide the exit code."),
        QStringLiteral("numbers"));
    const QCommandLineOption lease(
        QStringLiteral("lease"),
        QStringLiteral("With --engine: the engines' lease (bullpen-engine --lease, default 15s); a lost engine's "
                       "generations must be final within two of them."),
        QStringLiteral("duration"), QStringLiteral("15s"));
    parser.addOptions({ count, mix, concurrency, primary, fallback, primaryTimeout, fallbackTimeout, dataDir, noStore, json, progress,
                        remote.engine, lease, advisory });
    if (!parser.parse(arguments)) {
        err << "bullpen-cli soak: " << parser.errorText() << "\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(
            parser, QStringLiteral("soak"),
            { { 0, QStringLiteral("every invariant passed") },
              { 1, QStringLiteral("an invariant failed (each FAIL line says which and an example)") },
              { 2, QStringLiteral("usage refused, or the engine given by --engine could not be used") },
              { 130, QStringLiteral("a second SIGINT/SIGTERM (the first cancels what is in flight, then reports as above)") } });
        return 0;
    }

    ops::SoakOptions o;
    o.total = parser.value(count).toInt();
    o.inFlight = parser.value(concurrency).toInt();
    o.json = parser.isSet(json);
    const auto primaryProvider = providerFromId(parser.value(primary));
    const auto fallbackProvider = providerFromId(parser.value(fallback));
    QString why;
    const auto pTimeout = parseDuration(parser.value(primaryTimeout), &why);
    const auto fTimeout = parseDuration(parser.value(fallbackTimeout), &why);
    o.scenariosGiven = parser.isSet(mix) && parser.value(mix) != u"all";
    o.scenarios = parser.value(mix) == u"all" ? Scenario::builtInNames() : parser.value(mix).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &name : o.scenarios)
        name = name.trimmed();
    if (o.total < 1 || o.inFlight < 1 || !primaryProvider || !fallbackProvider || *primaryProvider == *fallbackProvider || !pTimeout
        || !fTimeout || o.scenarios.isEmpty()) {
        err << "bullpen-cli soak: --count and --concurrency take whole numbers >= 1; --primary and --fallback two different providers; "
               "timeouts a duration like 2s"
            << (why.isEmpty() ? QString() : QStringLiteral(" (") + why + QLatin1Char(')')) << "\n";
        return kExitUsage;
    }
    for (const QString &n : parser.value(advisory).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int number = n.trimmed().toInt(&ok);
        if (!ok || number < 1 || number > 12) {
            err << "bullpen-cli soak: --advisory takes invariant numbers 1-12, like 2,5\n";
            return kExitUsage;
        }
        o.advisory.insert(number);
    }
    o.policy = StagePolicy::relief(*primaryProvider, *fallbackProvider);
    o.policy.primaryTimeout = *pTimeout;
    o.policy.fallbackTimeout = *fTimeout;

    if (!remote.isSet(parser))
        return ops::runLocal(o, { !parser.isSet(noStore), parser.value(dataDir), parser.isSet(progress) });
    for (const QCommandLineOption *local : { &dataDir, &noStore, &progress }) {
        if (parser.isSet(*local)) {
            err << "bullpen-cli soak: --" << local->names().first()
                << " is for the embedded engine; with --engine the engine's own store is used and read back\n";
            return kExitUsage;
        }
    }
    if (o.scenariosGiven) {
        for (const QString &name : std::as_const(o.scenarios)) {
            if (!Scenario::builtInNames().contains(name)) {
                err << "bullpen-cli soak: \"" << name << "\" is not a built-in scenario (an engine runs only those; bullpen-sim --list)\n";
                return kExitUsage;
            }
        }
    }
    const auto leaseValue = parseDuration(parser.value(lease), &why);
    if (!leaseValue || leaseValue->count() < 1) {
        err << "bullpen-cli soak: --lease takes a duration like 2s\n";
        return kExitUsage;
    }
    QList<EngineEndpoint> endpoints;
    if (!remote.endpoints(parser, &endpoints, &why)) {
        err << "bullpen-cli soak: " << why << "\n";
        return kExitUsage;
    }
    return ops::runRemote(endpoints, o, *leaseValue);
}

} // namespace bullpen::cli
