// SPDX-License-Identifier: MIT
#pragma once
// What `bullpen-cli soak`'s two drivers share: the options both take, the stories and users they send,
// and the report. The embedded run is soaklocal.cpp, the run against engines soakremote.cpp; the
// command line that fills SoakOptions stays in app/cli/soakcommand.cpp.

#include "engine/stagepolicy.h"
#include "ops/soakledger.h"
#include "remote/engineendpoint.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <QTextStream>

#include <chrono>
#include <set>

namespace bullpen::ops {

// What both drivers take (from the command line).
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

// Where the embedded run keeps its records: none (`--no-store`), or a folder (`--data-dir`, else a new
// one under the temp dir), and whether each durable final state is printed ("committed <id>").
struct LocalStore
{
    bool keep = true;
    QString dir; // empty: a new folder under the temp dir
    bool progress = false;
};

// The embedded engine: one simulator and engine per scenario, side by side, and the store checked file by
// file. The exit code of `bullpen-cli soak` (0 pass, 1 an invariant failed, 2 could not start).
int runLocal(const SoakOptions &o, const LocalStore &where);
// `soak --engine URL[,URL…]`: the load test of running bullpen-engines (soakremote.cpp).
int runRemote(const QList<EngineEndpoint> &endpoints, const SoakOptions &o, std::chrono::milliseconds lease);

} // namespace bullpen::ops
