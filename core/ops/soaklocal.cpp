// SPDX-License-Identifier: MIT
#include "config/exitcode.h"
#include "config/settings.h"
#include "contract/providerregistry.h"
#include "engine/stageservice.h"
#include "ops/interrupts.h"
#include "ops/soakledger.h"
#include "ops/soakrun.h"
#include "remote/remoteengine.h"
#include "remote/remotehistory.h"
#include "runtime/enginesetup.h"
#include "runtime/enginestack.h"
#include "runtime/enginethreads.h"
#include "runtime/localengine.h"
#include "runtime/logsink.h"
#include "sim/providersimulator.h"
#include "sim/simulatorthread.h"
#include "store/masking.h"
#include "store/owner.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <map>
#include <set>

namespace bullpen::ops {

using namespace std::chrono;

namespace {

struct Lane
{
    QString scenario;
    std::unique_ptr<SimulatorThread> simThread; // the provider's side, off the engine's loop
    ProviderSimulator *sim = nullptr;
    Settings settings;
    PipelineOptions options;
    std::unique_ptr<LocalEngine> engine; // after the simulator: destroyed first
};

// One simulator, client and service per scenario, so scenarios can run side by side. False (said on
// stderr) when a scenario cannot be loaded or its simulator cannot start.
bool openLanes(const SoakOptions &o, std::vector<Lane> &lanes, QTextStream &err)
{
    QString why;
    const Provider primaryProvider = o.policy.primary;
    const Provider fallbackProvider = *o.policy.fallback;
    for (const QString &name : o.scenarios) {
        const auto scenario = Scenario::load(name.trimmed(), &why);
        if (!scenario) {
            err << "bullpen-cli soak: " << why << "\n";
            return false;
        }
        Lane lane;
        lane.scenario = scenario->name;
        lane.simThread = std::make_unique<SimulatorThread>();
        lane.sim = &lane.simThread->simulator();
        if (!lane.simThread->start(0, &why)) {
            err << "bullpen-cli soak: " << why << "\n";
            return false;
        }
        lane.sim->setScenario(*scenario);
        lane.sim->setRoles(primaryProvider, fallbackProvider);
        Settings settings = Settings::defaults();
        for (auto &entry : settings.providers) {
            entry.second.baseUrl = lane.sim->baseUrl(entry.first);
            entry.second.apiKey = QStringLiteral("soak-secret-key-") + toId(entry.first);
        }
        settings.storyboard.primary = primaryProvider;
        settings.storyboard.fallback = fallbackProvider;
        settings.pipeline.imageTimeout = o.policy.primaryTimeout; // hanging image scenarios wait this long, not 90 s
        lane.settings = settings;
        lane.options = EngineStack::optionsFor(settings);
        lane.options.storyboard = o.policy;
        lane.options.providerOrigin = QStringLiteral("soak|") + scenario->name;
        lanes.push_back(std::move(lane));
    }

    return true;
}

// 6, 7, 9, 10 on the store this run wrote: its rows, attempts and events, no raw user id or key in the
// database files, nothing left running. The summary and the report's line.
std::pair<QJsonObject, QString> judgeStore(Store &store, SoakLedger &ledger, int started)
{
    const Store::Stats st = store.stats();
    // Only this run's generations: a reused data folder holds earlier runs too.
    const QString mine = QStringLiteral("owner = '%1'").arg(QString(Owner::thisProcess()).replace(QLatin1Char('\''), QStringLiteral("''")));
    const QString myIds = QStringLiteral("generation_id IN (SELECT id FROM generations WHERE %1)").arg(mine);
    const qint64 rows = store.scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE ") + mine);
    const qint64 running = store.scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running' AND ") + mine);
    const qint64 attemptRows = store.scalar(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE ") + myIds);
    const qint64 startedEvents =
        store.scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE type LIKE '%_attempt_started' AND ") + myIds);
    const qint64 attemptsTotal = ledger.attemptsTotal();
    if (rows != started || running != 0 || st.finalStateConflicts != 0 || st.failed != 0)
        ledger.violate(6,
                       QStringLiteral("store: %1 generations, %2 not final, %3 second final states, %4 failed writes")
                           .arg(rows)
                           .arg(running)
                           .arg(st.finalStateConflicts)
                           .arg(st.failed));
    if (attemptRows != attemptsTotal || startedEvents != attemptsTotal)
        ledger.violate(7,
                       QStringLiteral("store: %1 attempt rows, %2 started events, %3 attempts")
                           .arg(attemptRows)
                           .arg(startedEvents)
                           .arg(attemptsTotal));
    // 9: grep the database files for every raw user id and every key used.
    QByteArray bytes;
    for (const QString &suffix : { QString(), QStringLiteral("-wal") }) {
        QFile f(store.databasePath() + suffix);
        if (f.open(QIODevice::ReadOnly))
            bytes += f.readAll();
    }
    for (const QString &user : ledger.rawUserIds()) {
        if (bytes.contains(user.toUtf8()))
            ledger.violate(9, QStringLiteral("raw user id found in the store"));
    }
    if (bytes.contains("soak-secret-key-"))
        ledger.violate(9, QStringLiteral("an API key found in the store"));
    // 10: whatever an earlier, killed run left running was finished when this run opened the store,
    // and nothing of anyone's is left running with its process gone.
    if (const int orphans = store.orphanedRunning(); orphans != 0)
        ledger.violate(10, QStringLiteral("%1 generation(s) still running with their process gone").arg(orphans));
    const QJsonObject storeSummary { { QStringLiteral("path"), store.databasePath() },
                                     { QStringLiteral("generations"), rows },
                                     { QStringLiteral("attempts"), attemptRows },
                                     { QStringLiteral("records_written"), static_cast<double>(st.written) },
                                     { QStringLiteral("records_failed"), static_cast<double>(st.failed) },
                                     { QStringLiteral("integrity"), store.integrityCheck() } };
    const QString storeLine = QStringLiteral("store: %1 — %2 generations, %3 attempts, integrity %4")
                                  .arg(store.databasePath())
                                  .arg(rows)
                                  .arg(attemptRows)
                                  .arg(storeSummary.value(QLatin1StringView("integrity")).toString());
    return { storeSummary, storeLine };
}

} // namespace

// The embedded engine: one simulator and engine per scenario, side by side, and the store checked file by file.
int runLocal(const SoakOptions &o, const LocalStore &where)
{
    QTextStream out(stdout);
    QTextStream err(logging::stderrDevice());
    QString why;
    std::vector<Lane> lanes;
    if (!openLanes(o, lanes, err))
        return kExitUsage;

    std::unique_ptr<Store> store;
    std::optional<Masking> masking;
    QString storeDir;
    if (where.keep) {
        storeDir = !where.dir.isEmpty() ? where.dir
                                        : QDir::temp().filePath(QStringLiteral("bullpen-soak-%1").arg(QDateTime::currentMSecsSinceEpoch()));
        store = Store::open(storeDir, &why);
        if (store)
            masking = Masking::loadOrCreate(QDir(storeDir).filePath(QStringLiteral("masking.key")), &why);
        if (!store || !masking) {
            err << "bullpen-cli soak: " << why << "\n";
            return kExitUsage;
        }
    }

    // The engine as the console and the service run it: on engine threads (BULLPEN_ENGINE_THREADS, else
    // the cores), each generation on one of them. Every scenario's engine runs on the same threads, as
    // one engine would run all of them: a thread's deadlines are aborted before any other work on it.
    // With threads of their own, the lanes' 40-odd engine threads were woken together by deadlines
    // due at the same moment and waited for a core behind each other's work (docs/contract.md §11, 2).
    const auto engineThreads =
        std::make_shared<EngineThreads>(LocalEngine::threadsFromEnvironment(QProcessEnvironment::systemEnvironment()));
    for (Lane &lane : lanes) {
        if (store)
            lane.options.imageDir = QDir(storeDir).filePath(QStringLiteral("images"));
        lane.engine = std::make_unique<LocalEngine>(lane.settings, lane.options, store.get(), masking ? &*masking : nullptr, engineThreads);
    }
    if (store && where.progress) {
        QObject::connect(store.get(), &Store::finalStatesCommitted, store.get(), [&out](const QStringList &ids) {
            for (const QString &id : ids)
                out << "committed " << id << "\n";
            out.flush();
        });
    }

    SoakLedger ledger(o.policy.effectiveBudget());
    ledger.setAdvisory(o.advisory);
    int started = 0;
    int done = 0;
    QElapsedTimer wall;
    wall.start();

    std::function<void()> startNext;
    std::map<QString, LocalEngine *> inFlightIds;
    bool interrupted = false;
    for (Lane &lane : lanes) {
        LocalEngine *engine = lane.engine.get();
        const QString scenarioName = lane.scenario;
        QObject::connect(engine, &EngineClient::eventRecorded, engine, [&](const Event &e) { ledger.event(e); });
        QObject::connect(engine, &EngineClient::finished, engine, [&, scenarioName](const GenerationResult &g) {
            ledger.finished(g, scenarioName, rawUserFor(g.generationId));
            inFlightIds.erase(g.generationId);
            ++done;
            if (!interrupted && started < o.total)
                startNext();
            else if (done == started)
                QCoreApplication::quit();
        });
    }
    startNext = [&] {
        const int i = started++;
        Lane &lane = lanes[static_cast<std::size_t>(i) % lanes.size()];
        GenerationRequest request;
        request.story = soakStories().at(i % soakStories().size());
        request.generationId = StageService::newGenerationId();
        request.userId = rawUserFor(request.generationId);
        request.fresh = true; // every run does the work; the cache is tested elsewhere
        inFlightIds[request.generationId] = lane.engine.get();
        lane.engine->start(request);
    };
    // SIGINT/SIGTERM: start nothing more, cancel what is in flight, then report as usual.
    Interrupts interrupts([&] {
        err << "bullpen-cli soak: interrupted; cancelling " << inFlightIds.size() << " in flight (a second signal exits at once)\n";
        err.flush();
        interrupted = true;
        const auto pending = inFlightIds;
        for (const auto &[id, engine] : pending)
            engine->cancel(id);
    });
    err << "bullpen-cli soak: " << o.total << " generations, " << lanes.size() << " scenario(s), concurrency " << o.inFlight
        << (store ? QStringLiteral(", store ") + store->databasePath() : QString()) << "\n";
    err.flush();
    for (int k = 0; k < std::min(o.inFlight, o.total); ++k)
        startNext();
    QCoreApplication::exec();
    const double seconds = static_cast<double>(wall.elapsed()) / 1000.0;

    // --- after the run
    std::map<Provider, int> requestsPer;
    for (const Lane &lane : lanes) {
        for (Provider p : lane.settings.providerTable.all())
            requestsPer[p] += lane.sim->counters(p).requests;
    }
    ledger.compareRequests(requestsPer);
    ledger.checkDeadlineOverruns();

    QJsonObject storeSummary;
    QString storeLine;
    if (store) {
        store->flush(minutes(2));
        QCoreApplication::sendPostedEvents(); // the last batch's "committed" lines (queued from the writer)
        std::tie(storeSummary, storeLine) = judgeStore(*store, ledger, started);
    }
    report(out, ledger, ledger.summary(o.total, seconds, store ? QStringLiteral("store") : QString(), storeSummary), o.json, storeLine);
    const bool pass = ledger.allPass();
    lanes.clear(); // the pipelines hold the store: they go first
    return pass ? 0 : 1;
}

} // namespace bullpen::ops
