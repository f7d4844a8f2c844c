// SPDX-License-Identifier: MIT
#pragma once
// What `bullpen-cli soak`'s two drivers share: the options both take, the stories and users they send,
// and the report. The embedded run is soaklocal.cpp, the run against engines soakremote.cpp.

#include "clihelp.h"
#include "engine/stagepolicy.h"
#include "soakledger.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

#include <chrono>
#include <set>

namespace bullpen::cli {

// What both drivers take from the command line.
struct SoakOptions
{
    int total = 0;
    int inFlight = 0;
    StagePolicy policy;
    QStringList scenarios; // "all" expanded
    bool scenariosGiven = false;
    bool json = false;
    std::set<int> advisory; // reported, not judged
};

// The stories a soak sends, in turn (English and Korean).
const QStringList &soakStories();
// A generation's raw user id: one of 50, so that users repeat (and their keyed hash is checked).
QString rawUserFor(const QString &generationId);
// The summary as JSON, or the ledger's lines and `recordsLine`.
void report(QTextStream &out, const SoakLedger &ledger, const QJsonObject &summary, bool json, const QString &recordsLine);

// The embedded engine: one simulator and engine per scenario, side by side, and the store checked file by file.
int runLocal(const QCommandLineParser &parser, const SoakOptions &o, const QCommandLineOption &dataDir, const QCommandLineOption &noStore,
             const QCommandLineOption &progress);
// `soak --engine URL[,URL…]`: the load test of running bullpen-engines (soakremote.cpp).
int runRemote(const RemoteFlag &remote, const QCommandLineParser &parser, const SoakOptions &o, std::chrono::milliseconds lease);

} // namespace bullpen::cli
