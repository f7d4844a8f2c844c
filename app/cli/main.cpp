// SPDX-License-Identifier: MIT
// bullpen-cli: the headless front end (SPEC 10). Same engine, JSON output.
#include "clihelp.h"
#include "comparecommand.h"
#include "generatecommand.h"
#include "runtime/enginesetup.h"
#include "runtime/logsink.h"
#include "soakcommand.h"
#include "storecommands.h"

#include <QGuiApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    // Headless: the simulator draws comics (QPainter text needs a QGuiApplication), never windows.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    bullpen::raiseOpenFileLimit(); // soak builds its engines without EngineSetup
    QCoreApplication::setApplicationName(QStringLiteral("bullpen"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QStringList args = QCoreApplication::arguments();
    // --log-format and --log-level go with any command (docs/contract.md, "Logs"): taken out here.
    {
        QString format = QStringLiteral("text"), level = QStringLiteral("info");
        for (qsizetype i = 1; i < args.size();) {
            const QString a = args.at(i);
            QString *into = a.startsWith(u"--log-format") ? &format : a.startsWith(u"--log-level") ? &level : nullptr;
            if (!into) {
                ++i;
                continue;
            }
            if (const qsizetype eq = a.indexOf(QLatin1Char('=')); eq > 0) {
                *into = a.mid(eq + 1);
                args.removeAt(i);
            } else {
                *into = args.value(i + 1);
                args.remove(i, std::min<qsizetype>(2, args.size() - i));
            }
        }
        QString why;
        const auto f = bullpen::logging::parseFormat(format, &why);
        const auto l = bullpen::logging::parseLevel(level, &why);
        if (!f || !l) {
            QTextStream(stderr) << "bullpen-cli: " << why << "\n";
            return 2;
        }
        if (*f == bullpen::logging::Format::Json || *l != QtInfoMsg)
            bullpen::logging::install({*f, *l, QStringLiteral("bullpen-cli"), QString()});
    }
    const QString command = args.size() > 1 ? args.at(1) : QString();
    using Command = int (*)(const QStringList &);
    const std::pair<const char *, Command> commands[] = {
        {"generate", bullpen::cli::runGenerate},
        {"compare", bullpen::cli::runCompare},
        {"history", bullpen::cli::runHistory},
        {"export", bullpen::cli::runExport},
        {"purge", bullpen::cli::runPurge},
        {"soak", bullpen::cli::runSoak},
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
        return 2; // a command is required
    }
    QTextStream(stderr) << "bullpen-cli: unknown command \"" << command << "\"\n\n" << bullpen::cli::toolUsage();
    return 2;
}
