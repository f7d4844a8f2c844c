// SPDX-License-Identifier: MIT
#pragma once

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

} // namespace bullpen::cli
