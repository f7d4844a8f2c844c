// SPDX-License-Identifier: MIT
// bullpen-cli: the headless front end (SPEC 10). Same engine, JSON output.
#include "generatecommand.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bullpen"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QStringList args = QCoreApplication::arguments();
    const QString command = args.size() > 1 ? args.at(1) : QString();
    if (command == u"generate") {
        args.removeAt(1);
        return bullpen::cli::runGenerate(args);
    }
    QTextStream err(stderr);
    err << "usage: bullpen-cli generate --story TEXT [--scenario NAME] [--json] …  (bullpen-cli generate --help)\n"
           "The simulator alone: bullpen-sim --scenario NAME (bullpen-sim --list shows the scenarios).\n";
    return command.isEmpty() || command == u"--help" || command == u"-h" ? 0 : 2;
}
