// SPDX-License-Identifier: MIT
#include "clihelp.h"

#include "runtime/logsink.h"

#include <QFile>
#include <QTextStream>

namespace bullpen::cli {

QString commandHelp(const QCommandLineParser &parser, const QString &command, const ExitCodes &exitCodes)
{
    QString text = parser.helpText();
    const qsizetype firstLineEnd = text.indexOf(QLatin1Char('\n'));
    const QString firstLine = text.left(firstLineEnd);
    // Qt writes "Usage: <argv[0]> [options] <positional…>": keep what follows the program name.
    const qsizetype optionsAt = firstLine.indexOf(QStringLiteral(" [options]"));
    const QString rest = optionsAt >= 0 ? firstLine.mid(optionsAt) : QStringLiteral(" [options]");
    text = QStringLiteral("Usage: bullpen-cli ") + command + rest + text.mid(firstLineEnd);
    if (!exitCodes.isEmpty()) {
        text += QStringLiteral("\nExit codes:\n");
        for (const auto &[code, meaning] : exitCodes)
            text += QStringLiteral("  %1  %2\n").arg(code).arg(meaning);
    }
    return text;
}

QString toolUsage()
{
    return QStringLiteral("Usage: bullpen-cli COMMAND [options]   (bullpen-cli COMMAND --help for each command's options and exit codes)\n"
                          "\n"
                          "Commands:\n"
                          "  generate   run one generation (storyboard, captions, image) and print its result\n"
                          "  compare    run one story on two providers side by side, no fallback, and print both and their differences\n"
                          "  history    list generations from the store, newest first, with filters\n"
                          "  export     write the store's generations, attempts or events as JSON lines or CSV\n"
                          "  purge      remove what the retention no longer keeps (or --older-than), beside running engines\n"
                          "  provider   list the providers an engine or the settings know; drain or restore one in an engine\n"
                          "  audit      the audit trail: who drained, restored, reset, silenced, started; --action, --limit\n"
                          "  soak       run many generations against the built-in simulator and check the engine's invariants\n"
                          "  replay     play a stored generation again on the simulator: both timelines and a verdict\n"
                          "  spend      what attempts cost by provider, stage and role, and what fallbacks added\n"
                          "  tune       replay the recorded timings under candidate timeouts: latency, success, fallback rate, cost\n"
                          "\n"
                          "With no provider key configured, every command runs on the built-in simulator.\n"
                          "The simulator alone: bullpen-sim --scenario NAME (bullpen-sim --list shows the scenarios).\n");
}

bool readStory(const QCommandLineParser &parser, const QCommandLineOption &story, const QCommandLineOption &storyFile,
               const QString &command, QString *text)
{
    constexpr qsizetype kMaxStoryBytes = 32 * 1024;
    QTextStream err(logging::stderrDevice());
    *text = parser.value(story);
    if (parser.isSet(storyFile)) {
        QFile f(parser.value(storyFile));
        if (!f.open(QIODevice::ReadOnly)) {
            err << "bullpen-cli " << command << ": --story-file " << f.fileName() << ": " << f.errorString() << "\n";
            return false;
        }
        const QByteArray bytes = f.read(kMaxStoryBytes + 1); // capped: /dev/zero or a FIFO never ends
        if (bytes.size() > kMaxStoryBytes) {
            err << "bullpen-cli " << command << ": --story-file " << f.fileName() << " holds more than " << kMaxStoryBytes / 1024
                << " KiB; a story may be at most 32 KiB: shorten it\n";
            return false;
        }
        *text = QString::fromUtf8(bytes);
    }
    if (text->toUtf8().size() > kMaxStoryBytes) {
        err << "bullpen-cli " << command << ": the story is " << text->toUtf8().size()
            << " bytes; a story may be at most 32 KiB: shorten it\n";
        return false;
    }
    if (text->trimmed().isEmpty()) {
        err << "bullpen-cli " << command << ": give the story with --story TEXT or --story-file PATH\n";
        return false;
    }
    return true;
}

bool EngineFlags::start(const QCommandLineParser &parser, const Overrides &overrides, EngineSetup &setup) const
{
    SetupOptions options;
    for (const auto &[option, variable] : overrides) {
        if (parser.isSet(*option)) {
            options.environment.insert(QLatin1StringView(variable), parser.value(*option));
            options.environment.insert(QStringLiteral("BULLPEN_FLAG_") + QLatin1StringView(variable),
                                       QStringLiteral("--") + option->names().constFirst());
        }
    }
    options.settingsFile = parser.value(settings);
    options.keyFile = parser.value(keyFile);
    options.forceSimulator = parser.isSet(simulator);
    options.scenario = parser.value(scenario);
    options.dataDir = parser.value(dataDir);
    options.useStore = !parser.isSet(noStore);
    options.namedFilesMustExist = true;
    if (setup.init(options))
        return true;
    QTextStream err(logging::stderrDevice());
    for (const ConfigError &e : setup.errors())
        err << "bullpen-cli: refused: " << e.toString() << "\n";
    return false;
}

void announce(const EngineSetup &setup)
{
    QTextStream err(logging::stderrDevice());
    err << "bullpen-cli: " << setup.describe() << "\n";
    for (const QString &w : setup.warnings())
        err << "bullpen-cli: warning: " << w << "\n";
    err.flush();
}

bool RemoteFlag::endpoint(const QCommandLineParser &parser, EngineEndpoint *into, QString *error) const
{
    into->routes = EngineSetup::proxyRoutes(QProcessEnvironment::systemEnvironment(), error);
    if (!into->routes)
        return false;
    if (!EngineEndpoint::parseUrl(parser.value(engine), &into->base, error)) {
        *error = QStringLiteral("--engine: ") + *error;
        return false;
    }
    if (!into->trustFromEnvironment(error))
        return false;
    into->token = qgetenv("BULLPEN_ENGINE_TOKEN").trimmed();
    if (into->token.isEmpty()) {
        *error = QStringLiteral("--engine needs the engine's API token in BULLPEN_ENGINE_TOKEN "
                                "(its operator makes one with `bullpen-engine token add NAME --role viewer|operator`)");
        return false;
    }
    return true;
}

bool RemoteFlag::endpoints(const QCommandLineParser &parser, QList<EngineEndpoint> *into, QString *error) const
{
    const std::shared_ptr<const ProxyRoutes> routes = EngineSetup::proxyRoutes(QProcessEnvironment::systemEnvironment(), error);
    if (!routes)
        return false;
    for (const QString &value : parser.values(engine)) {
        for (const QString &url : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            EngineEndpoint e;
            e.routes = routes;
            if (!EngineEndpoint::parseUrl(url.trimmed(), &e.base, error)) {
                *error = QStringLiteral("--engine %1: %2").arg(url.trimmed(), *error);
                return false;
            }
            if (!e.trustFromEnvironment(error))
                return false;
            e.token = qgetenv("BULLPEN_ENGINE_TOKEN").trimmed();
            if (e.token.isEmpty()) {
                *error = QStringLiteral("--engine needs the engines' API token in BULLPEN_ENGINE_TOKEN "
                                        "(their operator makes one with `bullpen-engine token add NAME --role viewer|operator`)");
                return false;
            }
            into->append(e);
        }
    }
    if (into->isEmpty())
        *error = QStringLiteral("--engine names no URL");
    return !into->isEmpty();
}

} // namespace bullpen::cli
