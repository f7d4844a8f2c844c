// SPDX-License-Identifier: MIT
#pragma once

#include "remote/engineendpoint.h"
#include "runtime/enginesetup.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>

#include <utility>

namespace bullpen::cli {

using ExitCodes = QList<std::pair<int, QString>>;

// The command's --help: Qt's option list under "Usage: bullpen-cli COMMAND [options]" (not the path the
// binary was started by), then the command's exit codes.
QString commandHelp(const QCommandLineParser &parser, const QString &command, const ExitCodes &exitCodes);

// The whole tool's usage: its commands, one line each.
QString toolUsage();

// The story from --story TEXT or --story-file PATH (read capped at 32 KiB, the contract's limit).
// False, after saying why on stderr as "bullpen-cli COMMAND: …", when it is missing, unreadable or too long.
bool readStory(const QCommandLineParser &parser, const QCommandLineOption &story, const QCommandLineOption &storyFile,
               const QString &command, QString *text);

// The options every engine-running command shares (where the engine's settings, keys, store and
// simulator come from), and the engine built from them.
struct EngineFlags
{
    using Overrides = QList<std::pair<const QCommandLineOption *, const char *>>;

    QCommandLineOption scenario { QStringLiteral("scenario"),
                                  QStringLiteral("Simulator scenario: built-in name or JSON file (default: healthy; bullpen-sim --list)."),
                                  QStringLiteral("name|file") };
    QCommandLineOption simulator { QStringLiteral("simulator"),
                                   QStringLiteral("Use the built-in simulator even when keys are configured.") };
    QCommandLineOption settings { QStringLiteral("settings"), QStringLiteral("Settings file (JSON)."), QStringLiteral("path") };
    QCommandLineOption keyFile { QStringLiteral("key-file"), QStringLiteral("Key file (NAME=value lines, mode 0600)."),
                                 QStringLiteral("path") };
    QCommandLineOption dataDir { QStringLiteral("data-dir"),
                                 QStringLiteral("Where the store lives (default: BULLPEN_DATA_DIR or the user's data folder)."),
                                 QStringLiteral("path") };
    QCommandLineOption noStore { QStringLiteral("no-store"), QStringLiteral("Record nothing (and use no cache).") };

    void add(QCommandLineParser &parser) const { parser.addOptions({ scenario, simulator, settings, keyFile, dataDir, noStore }); }

    // Builds `setup` from the options; `overrides` are options that stand for settings variables (they win,
    // and a refusal names the flag). False after printing each refusal.
    bool start(const QCommandLineParser &parser, const Overrides &overrides, EngineSetup &setup) const;
};

// --engine URL: drive a running bullpen-engine instead of an embedded engine (docs/api.md). The token
// comes from BULLPEN_ENGINE_TOKEN only (never a flag: command lines are visible to other local users).
struct RemoteFlag
{
    QCommandLineOption engine { QStringLiteral("engine"),
                                QStringLiteral("A running bullpen-engine to use instead of an embedded engine, e.g. http://127.0.0.1:8700 "
                                               "(token from BULLPEN_ENGINE_TOKEN)."),
                                QStringLiteral("url") };

    bool isSet(const QCommandLineParser &parser) const { return parser.isSet(engine); }
    // False with the reason in *error: a URL that is not an engine's, or no token.
    bool endpoint(const QCommandLineParser &parser, EngineEndpoint *into, QString *error) const;
    // Several engines sharing one store: --engine URL,URL… (or --engine given more than once).
    bool endpoints(const QCommandLineParser &parser, QList<EngineEndpoint> *into, QString *error) const;
};

// "bullpen-cli: <what the engine runs on>" and each warning, on stderr.
void announce(const EngineSetup &setup);

} // namespace bullpen::cli
