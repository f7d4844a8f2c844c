// SPDX-License-Identifier: MIT
#include "soakcommand.h"

#include "clihelp.h"
#include "soakledger.h"
#include "remote/remoteengine.h"
#include "remote/remotehistory.h"

#include "interrupts.h"
#include "store/owner.h"

#include "config/settings.h"
#include "engine/stageservice.h"
#include "runtime/enginestack.h"
#include "runtime/enginesetup.h"
#include "sim/providersimulator.h"
#include "sim/simulatorthread.h"
#include "runtime/localengine.h"
#include "store/masking.h"
#include "store/store.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <map>
#include <set>

namespace bullpen::cli {

using namespace std::chrono;

namespace {

const QStringList kStories = {
    QStringLiteral("Mina walks to school. A cat follows her. \"You forgot your keys,\" says the cat. They walk home together."),
    QStringLiteral("하루는 아침마다 같은 길로 학교에 간다. 오늘은 고양이 한 마리가 따라온다. \"열쇠를 잊었어,\" 고양이가 말한다. 하루와 고양이는 함께 집으로 돌아간다."),
    QStringLiteral("Jun bakes bread at midnight. The oven sings. \"Too much yeast!\" shouts Jun. By morning the loaf fills the kitchen."),
    QStringLiteral("비가 오는 날, 서윤은 우산을 잃어버린다. 낯선 할머니가 우산을 건넨다. \"내일 돌려주렴,\" 할머니가 웃는다. 다음 날 가게는 사라지고 없다."),
    QStringLiteral("A robot learns to whistle. Birds gather on the roof. \"Again,\" chirps the smallest bird. The robot whistles until dawn."),
};

struct Lane
{
    QString scenario;
    std::unique_ptr<SimulatorThread> simThread; // the provider's side, off the engine's loop
    ProviderSimulator *sim = nullptr;
    Settings settings;
    PipelineOptions options;
    std::unique_ptr<LocalEngine> engine; // after the simulator: destroyed first
};

// What both drivers take from the command line.
struct SoakOptions
{
    int total = 0;
    int inFlight = 0;
    StagePolicy policy;
    QStringList scenarios; // "all" expanded
    bool scenariosGiven = false;
    bool json = false;
};

QString rawUserFor(const QString &generationId) { return QStringLiteral("soak-user-%1@example.com").arg(qHash(generationId) % 50); }

void report(QTextStream &out, const SoakLedger &ledger, const QJsonObject &summary, bool json, const QString &recordsLine)
{
    if (json) {
        out << QJsonDocument(summary).toJson(QJsonDocument::Indented);
    } else {
        ledger.print(out, summary);
        if (!recordsLine.isEmpty())
            out << recordsLine << "\n";
    }
    out.flush();
}

// The embedded engine: one simulator and engine per scenario, side by side, and the store checked file by file.
int runLocal(const QCommandLineParser &parser, const SoakOptions &o, const QCommandLineOption &dataDir, const QCommandLineOption &noStore,
             const QCommandLineOption &progress)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString why;
    const Provider primaryProvider = o.policy.primary;
    const Provider reliefProvider = *o.policy.fallback;

    // --- one simulator, client and service per scenario, so scenarios can run side by side
    std::vector<Lane> lanes;
    for (const QString &name : o.scenarios) {
        const auto scenario = Scenario::load(name.trimmed(), &why);
        if (!scenario) {
            err << "bullpen-cli soak: " << why << "\n";
            return 2;
        }
        Lane lane;
        lane.scenario = scenario->name;
        lane.simThread = std::make_unique<SimulatorThread>();
        lane.sim = &lane.simThread->simulator();
        if (!lane.simThread->start(0, &why)) {
            err << "bullpen-cli soak: " << why << "\n";
            return 2;
        }
        lane.sim->setScenario(*scenario);
        lane.sim->setRoles(primaryProvider, reliefProvider);
        Settings settings = Settings::defaults();
        for (auto &entry : settings.providers) {
            entry.second.baseUrl = lane.sim->baseUrl(entry.first);
            entry.second.apiKey = QStringLiteral("soak-secret-key-") + toId(entry.first);
        }
        settings.storyboard.primary = primaryProvider;
        settings.storyboard.fallback = reliefProvider;
        settings.pipeline.imageTimeout = o.policy.primaryTimeout; // hanging image scenarios wait this long, not 90 s
        lane.settings = settings;
        lane.options = EngineStack::optionsFor(settings);
        lane.options.storyboard = o.policy;
        lane.options.providerOrigin = QStringLiteral("soak|") + scenario->name;
        lanes.push_back(std::move(lane));
    }

    std::unique_ptr<Store> store;
    std::optional<Masking> masking;
    QString storeDir;
    if (!parser.isSet(noStore)) {
        storeDir = parser.isSet(dataDir) ? parser.value(dataDir)
                                         : QDir::temp().filePath(QStringLiteral("bullpen-soak-%1").arg(QDateTime::currentMSecsSinceEpoch()));
        store = Store::open(storeDir, &why);
        if (store)
            masking = Masking::loadOrCreate(QDir(storeDir).filePath(QStringLiteral("masking.key")), &why);
        if (!store || !masking) {
            err << "bullpen-cli soak: " << why << "\n";
            return 2;
        }
    }

    // The engine as the console and the service run it: on engine threads (BULLPEN_ENGINE_THREADS, else
    // the cores), each generation on one of them.
    const int engineThreads = LocalEngine::threadsFromEnvironment(QProcessEnvironment::systemEnvironment());
    for (Lane &lane : lanes) {
        if (store)
            lane.options.imageDir = QDir(storeDir).filePath(QStringLiteral("images"));
        lane.engine = std::make_unique<LocalEngine>(lane.settings, lane.options, store.get(), masking ? &*masking : nullptr, engineThreads);
    }
    if (store && parser.isSet(progress)) {
        QObject::connect(store.get(), &Store::finalStatesCommitted, store.get(), [&out](const QStringList &ids) {
            for (const QString &id : ids)
                out << "committed " << id << "\n";
            out.flush();
        });
    }

    SoakLedger ledger(o.policy.effectiveBudget());
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
        request.story = kStories.at(i % kStories.size());
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
        for (Provider p : {Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic})
            requestsPer[p] += lane.sim->counters(p).requests;
    }
    ledger.compareRequests(requestsPer);
    ledger.checkDeadlineOverruns();

    QJsonObject storeSummary;
    QString storeLine;
    if (store) {
        store->flush(minutes(2));
        QCoreApplication::sendPostedEvents(); // the last batch's "committed" lines (queued from the writer)
        const Store::Stats st = store->stats();
        // Only this run's generations: a reused data folder holds earlier runs too.
        const QString mine = QStringLiteral("owner = '%1'").arg(QString(Owner::thisProcess()).replace(QLatin1Char('\''), QStringLiteral("''")));
        const QString myIds = QStringLiteral("generation_id IN (SELECT id FROM generations WHERE %1)").arg(mine);
        const qint64 rows = store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE ") + mine);
        const qint64 running = store->scalar(QStringLiteral("SELECT COUNT(*) FROM generations WHERE state = 'running' AND ") + mine);
        const qint64 attemptRows = store->scalar(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE ") + myIds);
        const qint64 startedEvents = store->scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE type LIKE '%_attempt_started' AND ") + myIds);
        const qint64 attemptsTotal = ledger.attemptsTotal();
        if (rows != started || running != 0 || st.finalStateConflicts != 0 || st.failed != 0)
            ledger.violate(6, QStringLiteral("store: %1 generations, %2 not final, %3 second final states, %4 failed writes")
                                  .arg(rows)
                                  .arg(running)
                                  .arg(st.finalStateConflicts)
                                  .arg(st.failed));
        if (attemptRows != attemptsTotal || startedEvents != attemptsTotal)
            ledger.violate(7, QStringLiteral("store: %1 attempt rows, %2 started events, %3 attempts").arg(attemptRows).arg(startedEvents).arg(attemptsTotal));
        // 9: grep the database files for every raw user id and every key used.
        QByteArray bytes;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
            QFile f(store->databasePath() + suffix);
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
        if (const int orphans = store->orphanedRunning(); orphans != 0)
            ledger.violate(10, QStringLiteral("%1 generation(s) still running with their process gone").arg(orphans));
        storeSummary = QJsonObject{{QStringLiteral("path"), store->databasePath()},
                                   {QStringLiteral("generations"), rows},
                                   {QStringLiteral("attempts"), attemptRows},
                                   {QStringLiteral("records_written"), static_cast<double>(st.written)},
                                   {QStringLiteral("records_failed"), static_cast<double>(st.failed)},
                                   {QStringLiteral("integrity"), store->integrityCheck()}};
        storeLine = QStringLiteral("store: %1 — %2 generations, %3 attempts, integrity %4")
                        .arg(store->databasePath())
                        .arg(rows)
                        .arg(attemptRows)
                        .arg(storeSummary.value(QLatin1StringView("integrity")).toString());
    }
    report(out, ledger, ledger.summary(o.total, seconds, store ? QStringLiteral("store") : QString(), storeSummary), o.json, storeLine);
    const bool pass = ledger.allPass();
    lanes.clear(); // the pipelines hold the store: they go first
    return pass ? 0 : 1;
}

// The counters `GET /metrics` gives a soak: what the engine's built-in simulator received per provider
// (present only when the engine runs on it), and how many generations the engine has started in all.
struct EngineCounters
{
    std::map<Provider, int> simulatorRequests;
    bool hasSimulator = false;
    qint64 started = -1;
};

// One GET of the read-back, patient with the engine's rate: a 429 (the same token has just sent a whole
// run) is asked again a second later, for up to a minute.
RemoteHistory::Answer readBack(RemoteHistory &engine, const QString &path)
{
    QElapsedTimer patience;
    patience.start();
    for (;;) {
        RemoteHistory::Answer a = engine.get(path);
        if ((a.status != 429 && a.status != 503) || patience.hasExpired(60'000))
            return a;
        QThread::sleep(1);
    }
}

std::optional<EngineCounters> readCounters(RemoteHistory &engine, QString *error)
{
    const RemoteHistory::Answer a = readBack(engine, QStringLiteral("/metrics"));
    if (!a.error.isEmpty()) {
        *error = a.error;
        return std::nullopt;
    }
    EngineCounters c;
    for (const QByteArray &line : a.body.split('\n')) {
        if (line.startsWith("bullpen_generations_started_total ")) {
            c.started = line.mid(line.indexOf(' ') + 1).toLongLong();
        } else if (line.startsWith("bullpen_simulator_requests_total{provider=\"")) {
            const qsizetype from = line.indexOf('"') + 1;
            const auto provider = providerFromId(QString::fromLatin1(line.mid(from, line.indexOf('"', from) - from)));
            if (provider) {
                c.simulatorRequests[*provider] = line.mid(line.lastIndexOf(' ') + 1).toInt();
                c.hasSimulator = true;
            }
        }
    }
    return c;
}

// `soak --engine URL`: the load test of a running bullpen-engine. The same requests, through its API;
// each generation judged from the events its stream carried and the result it answered, then read back
// from its history (the records the engine wrote), and its simulator's request counts from /metrics.
int runRemote(const RemoteFlag &remote, const QCommandLineParser &parser, const SoakOptions &o)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    EngineEndpoint endpoint;
    QString why;
    if (!remote.endpoint(parser, &endpoint, &why)) {
        err << "bullpen-cli soak: " << why << "\n";
        return 2;
    }
    RemoteHistory reader(endpoint);
    const auto config = reader.getObject(QStringLiteral("/v1/config"), {}, &why);
    if (!config) {
        err << "bullpen-cli soak: " << why << "\n";
        return 2;
    }
    const bool onSimulator = config->value(QLatin1StringView("simulator")).toBool();
    QStringList scenarios = o.scenarios;
    if (!onSimulator) {
        if (o.scenariosGiven) {
            err << "bullpen-cli soak: the engine at " << endpoint.display()
                << " talks to real providers; --scenario-mix applies only to an engine on its simulator (bullpen-engine --simulator)\n";
            return 2;
        }
        scenarios = {QString()}; // the engine's own providers, no scenario
    }
    const auto before = readCounters(reader, &why);
    if (!before) {
        err << "bullpen-cli soak: " << why << "\n";
        return 2;
    }

    RemoteEngine engine(endpoint);
    SoakLedger ledger(o.policy.effectiveBudget());
    ledger.setServiceChecked(true);
    std::map<QString, int> slotOf; // generation id → its slot (its story and scenario), while it runs
    std::vector<std::pair<QString, FinalState>> finished; // the generations that ran on the engine
    int started = 0; // slots handed out; a refused start keeps its slot and tries again
    int refused = 0;
    int waiting = 0; // refused slots waiting out their Retry-After
    bool interrupted = false;
    bool sending = false;
    QElapsedTimer wall;

    std::function<void(int)> send;
    send = [&](int slot) {
        const QString scenario = scenarios.at(slot % scenarios.size());
        QJsonObject timeouts{{QStringLiteral("primary_ms"), static_cast<double>(o.policy.primaryTimeout.count())},
                             {QStringLiteral("fallback_ms"), static_cast<double>(o.policy.fallbackTimeout.count())}};
        QJsonObject body{{QStringLiteral("story"), kStories.at(slot % kStories.size())},
                         {QStringLiteral("generation_id"), StageService::newGenerationId()},
                         {QStringLiteral("primary"), toId(o.policy.primary)},
                         {QStringLiteral("fallback"), toId(*o.policy.fallback)},
                         {QStringLiteral("timeouts"), timeouts},
                         {QStringLiteral("fresh"), true}};
        body.insert(QStringLiteral("user_id"), rawUserFor(body.value(QLatin1StringView("generation_id")).toString()));
        if (!scenario.isEmpty())
            body.insert(QStringLiteral("scenario"), scenario);
        slotOf[engine.startBody(body)] = slot;
    };
    const auto startNext = [&] { send(started++); };

    QObject::connect(&engine, &EngineClient::eventRecorded, &engine, [&](const Event &e) {
        if (slotOf.count(e.generationId))
            ledger.event(e);
    });
    QObject::connect(&engine, &EngineClient::finished, &engine, [&](const GenerationResult &g) {
        const auto it = slotOf.find(g.generationId);
        if (it == slotOf.end())
            return;
        const int slot = it->second;
        const QString scenario = scenarios.at(slot % scenarios.size());
        slotOf.erase(it);
        const bool ranNothing = g.attempts().isEmpty() && !ledger.hasEvents(g.generationId);
        if (ranNothing && g.failure && g.failure->kind == FailureKind::RATE_LIMITED && g.failure->retryAfter) {
            // 429 (or 503 while draining) with Retry-After: honoured, and the same slot tries again.
            ++refused;
            if (!interrupted) {
                ++waiting;
                QTimer::singleShot(*g.failure->retryAfter, &engine, [&, slot] {
                    --waiting;
                    if (!interrupted)
                        send(slot);
                    else if (slotOf.empty() && waiting == 0)
                        QCoreApplication::quit();
                });
            } else if (slotOf.empty() && waiting == 0) {
                QCoreApplication::quit();
            }
            return;
        }
        if (ranNothing && g.failure) {
            ledger.violate(0, g.generationId + QStringLiteral(": ") + g.failure->detail);
            ledger.forget(g.generationId);
        } else {
            ledger.finished(g, scenario.isEmpty() ? QStringLiteral("(the engine's providers)") : scenario, rawUserFor(g.generationId));
            finished.emplace_back(g.generationId, g.state);
        }
        if (!interrupted && started < o.total)
            startNext();
        else if (slotOf.empty() && waiting == 0)
            QCoreApplication::quit();
    });
    QObject::connect(&engine, &RemoteEngine::stateChanged, &engine, [&](RemoteEngine::State state) {
        if (state == RemoteEngine::State::Refused) {
            err << "bullpen-cli soak: " << engine.describeState() << "\n";
            QCoreApplication::exit(2);
            return;
        }
        if (state == RemoteEngine::State::Reconnecting)
            err << "bullpen-cli soak: " << engine.describeState() << "\n";
        if (state == RemoteEngine::State::Connected && !sending) { // the stream is open: every event will be seen
            sending = true;
            wall.start();
            for (int k = 0; k < std::min(o.inFlight, o.total); ++k)
                startNext();
        }
    });
    Interrupts interrupts([&] {
        err << "bullpen-cli soak: interrupted; cancelling " << slotOf.size() << " in flight on the engine (a second signal exits at once)\n";
        err.flush();
        interrupted = true;
        const auto pending = slotOf;
        for (const auto &[id, slot] : pending)
            engine.cancel(id);
    });
    err << "bullpen-cli soak: " << o.total << " generations on the engine at " << endpoint.display() << " ("
        << config->value(QLatin1StringView("instance")).toString() << "), " << scenarios.size() << " scenario(s), concurrency " << o.inFlight
        << "\n";
    err.flush();
    engine.connectToEngine();
    if (QCoreApplication::exec() == 2)
        return 2;
    const double seconds = static_cast<double>(wall.elapsed()) / 1000.0;
    const int admitted = static_cast<int>(finished.size());

    // --- after the run: the engine's own records
    const auto after = readCounters(reader, &why);
    if (!after) {
        ledger.violate(0, QStringLiteral("GET /metrics after the run: ") + why);
    } else if (onSimulator && after->hasSimulator) {
        std::map<Provider, int> requestsPer;
        for (const auto &[p, n] : after->simulatorRequests)
            requestsPer[p] = n - (before->simulatorRequests.count(p) ? before->simulatorRequests.at(p) : 0);
        // Only when the run had the engine to itself: another client's generations reach the same simulator.
        if (after->started - before->started == admitted)
            ledger.compareRequests(requestsPer);
        else
            err << "bullpen-cli soak: the engine started " << (after->started - before->started) << " generations during this run, " << admitted
                << " of them this run's: invariants 1 and 12 are judged by each attempt's own count only\n";
    }
    ledger.checkDeadlineOverruns();

    // 6, 7, 9, 10: each generation as the engine's history has it. Its writer commits in batches, so
    // a row may still say running for a moment after the result: it is asked again for up to 10 s.
    int checked = 0;
    qint64 historyAttempts = 0;
    for (const auto &[id, state] : finished) {
        QElapsedTimer patience;
        patience.start();
        RemoteHistory::Answer a;
        QJsonObject detail;
        for (;;) {
            a = readBack(reader, QStringLiteral("/v1/history/") + id);
            detail = QJsonDocument::fromJson(a.body).object();
            const QString rowState = detail.value(QLatin1StringView("generation")).toObject().value(QLatin1StringView("state")).toString();
            if ((a.status == 200 && rowState != u"running") || (a.status != 200 && a.status != 404) || patience.hasExpired(10'000))
                break;
            QThread::msleep(50);
        }
        if (a.status != 200) {
            ledger.violate(6, QStringLiteral("%1: not in the engine's history (%2)").arg(id, a.error));
            continue;
        }
        ++checked;
        const QJsonObject row = detail.value(QLatin1StringView("generation")).toObject();
        const QString rowState = row.value(QLatin1StringView("state")).toString();
        if (rowState == u"running")
            ledger.violate(10, QStringLiteral("%1: still running in the engine's history 10 s after its result").arg(id));
        else if (rowState != toId(state))
            ledger.violate(6, QStringLiteral("%1: the result says %2, the history %3").arg(id, toId(state), rowState));
        const QJsonArray attempts = detail.value(QLatin1StringView("attempts")).toArray();
        const QJsonArray events = detail.value(QLatin1StringView("events")).toArray();
        historyAttempts += attempts.size();
        qsizetype startedEvents = 0, finishedEvents = 0;
        for (const QJsonValue &e : events) {
            const QString type = e.toObject().value(QLatin1StringView("type")).toString();
            startedEvents += type.endsWith(u"_attempt_started") ? 1 : 0;
            finishedEvents += type == u"generation_finished" ? 1 : 0;
        }
        if (finishedEvents != 1)
            ledger.violate(6, QStringLiteral("%1: %2 generation_finished records in the engine's history").arg(id).arg(finishedEvents));
        if (startedEvents != attempts.size())
            ledger.violate(7, QStringLiteral("%1: %2 attempt rows, %3 started events in the engine's history").arg(id).arg(attempts.size()).arg(startedEvents));
        if (a.body.contains(rawUserFor(id).toUtf8()))
            ledger.violate(9, QStringLiteral("%1: the raw user id in the engine's history").arg(id));
    }
    if (historyAttempts != ledger.attemptsTotal())
        ledger.violate(7, QStringLiteral("the engine's history: %1 attempt rows for %2 attempts in the results").arg(historyAttempts).arg(ledger.attemptsTotal()));

    const QJsonObject engineSummary{{QStringLiteral("url"), endpoint.display()},
                                    {QStringLiteral("instance"), config->value(QLatin1StringView("instance"))},
                                    {QStringLiteral("version"), config->value(QLatin1StringView("version"))},
                                    {QStringLiteral("simulator"), onSimulator},
                                    {QStringLiteral("admitted"), admitted},
                                    {QStringLiteral("refused_429"), refused},
                                    {QStringLiteral("history_checked"), checked},
                                    {QStringLiteral("history_attempts"), static_cast<double>(historyAttempts)}};
    const QString engineLine = QStringLiteral("engine: %1 (%2) — %3 generations ran, %4 read back from its history (%5 attempts); %6 starts answered 429 "
                                              "and sent again after Retry-After")
                                   .arg(endpoint.display(), config->value(QLatin1StringView("instance")).toString())
                                   .arg(admitted)
                                   .arg(checked)
                                   .arg(historyAttempts)
                                   .arg(refused);
    report(out, ledger, ledger.summary(std::max(1, admitted), seconds, QStringLiteral("engine"), engineSummary), o.json, engineLine);
    return ledger.allPass() ? 0 : 1;
}

} // namespace

int runSoak(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run N generations against the built-in simulator with a mix of scenarios and check "
                                                    "SPEC 11's invariants; with --engine, the load test of a running bullpen-engine."));
    parser.addHelpOption();
    const QCommandLineOption count(QStringLiteral("count"), QStringLiteral("Generations (default 200)."), QStringLiteral("n"), QStringLiteral("200"));
    const QCommandLineOption mix(QStringLiteral("scenario-mix"), QStringLiteral("Comma-separated scenarios, or all (default)."),
                                 QStringLiteral("names"), QStringLiteral("all"));
    const QCommandLineOption concurrency(QStringLiteral("concurrency"), QStringLiteral("Generations in flight (default 16)."), QStringLiteral("k"),
                                         QStringLiteral("16"));
    const QCommandLineOption primary(QStringLiteral("primary"), QStringLiteral("Primary provider."), QStringLiteral("provider"), QStringLiteral("gemini"));
    const QCommandLineOption fallback(QStringLiteral("fallback"), QStringLiteral("Relief provider."), QStringLiteral("provider"), QStringLiteral("qwen"));
    const QCommandLineOption primaryTimeout(QStringLiteral("primary-timeout"), QStringLiteral("Default 2s (hanging scenarios wait this long)."),
                                           QStringLiteral("duration"), QStringLiteral("2s"));
    const QCommandLineOption fallbackTimeout(QStringLiteral("fallback-timeout"), QStringLiteral("Default 2s."), QStringLiteral("duration"),
                                             QStringLiteral("2s"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"), QStringLiteral("Store folder (default: a new folder under the temp dir)."),
                                     QStringLiteral("path"));
    const QCommandLineOption noStore(QStringLiteral("no-store"), QStringLiteral("Record nothing."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the summary as JSON."));
    const QCommandLineOption progress(QStringLiteral("progress"),
                                      QStringLiteral("Print \"committed <generation id>\" as each final state becomes durable in the store."));
    const RemoteFlag remote;
    parser.addOptions({count, mix, concurrency, primary, fallback, primaryTimeout, fallbackTimeout, dataDir, noStore, json, progress, remote.engine});
    if (!parser.parse(arguments)) {
        err << "bullpen-cli soak: " << parser.errorText() << "\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("soak"),
                           {{0, QStringLiteral("every invariant passed")},
                            {1, QStringLiteral("an invariant failed (each FAIL line says which and an example)")},
                            {2, QStringLiteral("usage refused, or the engine given by --engine could not be used")},
                            {130, QStringLiteral("a second SIGINT/SIGTERM (the first cancels what is in flight, then reports as above)")}});
        return 0;
    }

    SoakOptions o;
    o.total = parser.value(count).toInt();
    o.inFlight = parser.value(concurrency).toInt();
    o.json = parser.isSet(json);
    const auto primaryProvider = providerFromId(parser.value(primary));
    const auto reliefProvider = providerFromId(parser.value(fallback));
    QString why;
    const auto pTimeout = parseDuration(parser.value(primaryTimeout), &why);
    const auto fTimeout = parseDuration(parser.value(fallbackTimeout), &why);
    o.scenariosGiven = parser.isSet(mix) && parser.value(mix) != u"all";
    o.scenarios = parser.value(mix) == u"all" ? Scenario::builtInNames() : parser.value(mix).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &name : o.scenarios)
        name = name.trimmed();
    if (o.total < 1 || o.inFlight < 1 || !primaryProvider || !reliefProvider || *primaryProvider == *reliefProvider || !pTimeout || !fTimeout
        || o.scenarios.isEmpty()) {
        err << "bullpen-cli soak: --count and --concurrency take whole numbers >= 1; --primary and --fallback two different providers; "
               "timeouts a duration like 2s"
            << (why.isEmpty() ? QString() : QStringLiteral(" (") + why + QLatin1Char(')')) << "\n";
        return 2;
    }
    o.policy = StagePolicy::relief(*primaryProvider, *reliefProvider);
    o.policy.primaryTimeout = *pTimeout;
    o.policy.fallbackTimeout = *fTimeout;

    if (!remote.isSet(parser))
        return runLocal(parser, o, dataDir, noStore, progress);
    for (const QCommandLineOption *local : {&dataDir, &noStore, &progress}) {
        if (parser.isSet(*local)) {
            err << "bullpen-cli soak: --" << local->names().first()
                << " is for the embedded engine; with --engine the engine's own store is used and read back\n";
            return 2;
        }
    }
    if (o.scenariosGiven) {
        for (const QString &name : std::as_const(o.scenarios)) {
            if (!Scenario::builtInNames().contains(name)) {
                err << "bullpen-cli soak: \"" << name << "\" is not a built-in scenario (an engine runs only those; bullpen-sim --list)\n";
                return 2;
            }
        }
    }
    return runRemote(remote, parser, o);
}

} // namespace bullpen::cli
