// SPDX-License-Identifier: MIT
// bullpen-cli: the headless front end (docs/contract.md §10). Same engine, JSON output.
#include "auditcommand.h"
#include "clihelp.h"
#include "comparecommand.h"
#include "config/eventloops.h"
#include "config/exitcode.h"
#include "config/qtnoise.h"
#include "costcommands.h"
#include "generatecommand.h"
#include "providercommand.h"
#include "replaycommand.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "soakcommand.h"
#include "storecommands.h"

#include <QGuiApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    bullpen::chooseEventLoops(bullpen::GlibLoops::None); // before Qt makes any event loop (config/eventloops.h)
    bullpen::muteQtNoise(); // Qt lines that say nothing to act on, or too much (config/qtnoise.h)
    // Headless: the simulator draws comics (QPainter text needs a QGuiApplication), never windows.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // --log-format and --log-level go with any command (docs/contract.md 12.4): read before Qt starts,
    // so that its own warnings are log lines too, and taken out of the arguments the commands see.
    QStringList logArgs;
    for (int i = 0; i < argc; ++i)
        logArgs << QString::fromLocal8Bit(argv[i]);
    {
        bullpen::logging::Options log { bullpen::logging::Format::Text, QtInfoMsg, QStringLiteral("bullpen-cli"), QString() };
        QString why;
        if (!bullpen::logging::takeArguments(&logArgs, &log, &why)) {
            QTextStream(stderr) << "bullpen-cli: " << why << "\n";
            return bullpen::kExitUsage;
        }
        if (log.format == bullpen::logging::Format::Json || log.level != QtInfoMsg)
            bullpen::logging::install(log);
    }
    QGuiApplication app(argc, argv);
    bullpen::raiseOpenFileLimit(); // soak builds its engines without EngineSetup
    QCoreApplication::setApplicationName(QStringLiteral("bullpen"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BULLPEN_VERSION));

    QStringList args = logArgs; // without the log options
    const QString command = args.size() > 1 ? args.at(1) : QString();
    using Command = int (*)(const QStringList &);
    const std::pair<const char *, Command> commands[] = {
        { "generate", bullpen::cli::runGenerate }, { "compare", bullpen::cli::runCompare }, { "history", bullpen::cli::runHistory },
        { "export", bullpen::cli::runExport },     { "purge", bullpen::cli::runPurge },     { "provider", bullpen::cli::runProvider },
        { "soak", bullpen::cli::runSoak },         { "replay", bullpen::cli::runReplay },   { "spend", bullpen::cli::runSpend },
        { "tune", bullpen::cli::runTune },         { "audit", bullpen::cli::runAudit },
    };
    for (const auto &[name, run] : commands) {
        if (command == QLatin1StringView(name)) {
            args.removeAt(1);
            return run(args);
        }
    }
    if (command == u"--help" || command == u"-h" || command == u"help") {
        QTextStream(stdout) << bullpen::cli::toolUsage();
        return 0;
    }
    if (command == u"--version") {
        QTextStream(stdout) << "bullpen-cli " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    if (command.isEmpty()) {
        QTextStream(stdout) << bullpen::cli::toolUsage();
        return bullpen::kExitUsage; // a command is required
    }
    QTextStream(stderr) << "bullpen-cli: unknown command \"" << command << "\"\n\n" << bullpen::cli::toolUsage();
    return bullpen::kExitUsage;
}
