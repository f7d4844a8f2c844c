// SPDX-License-Identifier: MIT
#include "soakcommand.h"

#include "clihelp.h"

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

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size()))) - (p > 0 ? 1 : 0));
    return v[i];
}

double toMs(microseconds us) { return static_cast<double>(us.count()) / 1000.0; }

struct Lane
{
    QString scenario;
    std::unique_ptr<SimulatorThread> simThread; // the provider's side, off the engine's loop
    ProviderSimulator *sim = nullptr;
    Settings settings;
    PipelineOptions options;
    std::unique_ptr<LocalEngine> engine; // after the simulator: destroyed first
};

struct Check
{
    int number;
    QString text;
    qint64 violations = 0;
    QString worst;
};

} // namespace

int runSoak(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run N generations against the built-in simulator with a mix of scenarios and check "
                                                    "SPEC 11's invariants."));
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
    parser.addOptions({count, mix, concurrency, primary, fallback, primaryTimeout, fallbackTimeout, dataDir, noStore, json, progress});
    if (!parser.parse(arguments)) {
        err << "bullpen-cli soak: " << parser.errorText() << "\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << commandHelp(parser, QStringLiteral("soak"),
                           {{0, QStringLiteral("every invariant passed")},
                            {1, QStringLiteral("an invariant failed (each FAIL line says which and an example)")},
                            {2, QStringLiteral("usage refused")},
                            {130, QStringLiteral("a second SIGINT/SIGTERM (the first cancels what is in flight, then reports as above)")}});
        return 0;
    }

    // --- options
    const int total = parser.value(count).toInt();
    const int inFlight = parser.value(concurrency).toInt();
    const auto primaryProvider = providerFromId(parser.value(primary));
    const auto reliefProvider = providerFromId(parser.value(fallback));
    QString why;
    const auto pTimeout = parseDuration(parser.value(primaryTimeout), &why);
    const auto fTimeout = parseDuration(parser.value(fallbackTimeout), &why);
    QStringList scenarios = parser.value(mix) == u"all" ? Scenario::builtInNames() : parser.value(mix).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (total < 1 || inFlight < 1 || !primaryProvider || !reliefProvider || *primaryProvider == *reliefProvider || !pTimeout || !fTimeout
        || scenarios.isEmpty()) {
        err << "bullpen-cli soak: --count and --concurrency take whole numbers >= 1; --primary and --fallback two different providers; "
               "timeouts a duration like 2s"
            << (why.isEmpty() ? QString() : QStringLiteral(" (") + why + QLatin1Char(')')) << "\n";
        return 2;
    }
    StagePolicy policy = StagePolicy::relief(*primaryProvider, *reliefProvider);
    policy.primaryTimeout = *pTimeout;
    policy.fallbackTimeout = *fTimeout;
    const milliseconds budget = policy.effectiveBudget();

    // --- one simulator, client and service per scenario, so scenarios can run side by side
    std::vector<Lane> lanes;
    for (const QString &name : std::as_const(scenarios)) {
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
        lane.sim->setRoles(*primaryProvider, *reliefProvider);
        Settings settings = Settings::defaults();
        for (auto &entry : settings.providers) {
            entry.second.baseUrl = lane.sim->baseUrl(entry.first);
            entry.second.apiKey = QStringLiteral("soak-secret-key-") + toId(entry.first);
        }
        settings.storyboard.primary = *primaryProvider;
        settings.storyboard.fallback = *reliefProvider;
        settings.pipeline.imageTimeout = *pTimeout; // hanging image scenarios wait this long, not 90 s
        lane.settings = settings;
        lane.options = EngineStack::optionsFor(settings);
        lane.options.storyboard = policy;
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

    // --- bookkeeping for the invariants
    std::map<QString, QList<Event>> eventsOf; // per generation, until it ends
    std::set<QString> finishedIds;
    std::set<QString> rawUserIds;
    qint64 duplicateFinals = 0;
    std::map<QString, std::map<QString, int>> outcomes; // scenario → state/kind → count
    std::map<std::pair<QString, QString>, std::vector<double>> latency; // (provider, role) → ms
    std::map<Provider, int> attemptsPer;
    std::vector<double> deadlineOverruns; // ms past the deadline, for attempts ended by it
    std::vector<double> budgetOverruns;
    Check checks[] = {
        {1, QStringLiteral("each provider receives at most one HTTP request per stage attempt"), 0, {}},
        {2, QStringLiteral("no attempt outlives its deadline by more than 5 ms (p99)"), 0, {}},
        {3, QStringLiteral("no result is accepted after its deadline"), 0, {}},
        {4, QStringLiteral("the fallback request is sent only after the primary's cancel handlers have run"), 0, {}},
        {5, QStringLiteral("the stage never exceeds its total budget by more than 5 ms"), 0, {}},
        {6, QStringLiteral("every generation reaches exactly one final state, written once"), 0, {}},
        {7, QStringLiteral("every started attempt has exactly one *_attempt_completed record"), 0, {}},
        {8, QStringLiteral("storyboard_fallback_triggered exists if and only if a fallback attempt ran"), 0, {}},
        {9, QStringLiteral("no raw user id or API key appears in the store, logs or exports"), 0, {}},
        {10, QStringLiteral("no generation stays running once its engine is gone (ABANDONED at the next open, written once)"), 0, {}},
        {12, QStringLiteral("every attempt whose budget started reached its provider (counted by the simulator)"), 0, {}},
    };
    auto violate = [&](int n, const QString &what) {
        Check &c = *std::find_if(std::begin(checks), std::end(checks), [n](const Check &k) { return k.number == n; });
        if (c.violations++ == 0)
            c.worst = what;
    };
    int fallbacks = 0;
    int unsentAttempts = 0;
    QString unsentExample;
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
        QObject::connect(engine, &EngineClient::eventRecorded, engine, [&](const Event &e) { eventsOf[e.generationId] << e; });
        QObject::connect(engine, &EngineClient::finished, engine, [&, scenarioName](const GenerationResult &g) {
            const StageResult &r = g.storyboard;
            if (!finishedIds.insert(g.generationId).second) {
                ++duplicateFinals;
                violate(6, g.generationId + QStringLiteral(" finished twice"));
            }
            const QList<Event> events = eventsOf[g.generationId];
            eventsOf.erase(g.generationId);
            outcomes[scenarioName][toId(g.state) + (g.failure ? QLatin1Char('/') + toId(g.failedStage) + QLatin1Char('/') + enumName(g.failure->kind)
                                                               : (g.degraded ? QStringLiteral("/degraded") : QString()))]++;
            if (r.fallback.applied)
                ++fallbacks;
            const QList<AttemptRecord> attempts = g.attempts();

            // 6: exactly one generation_finished event
            const auto typeCount = [&](auto match) { return std::count_if(events.cbegin(), events.cend(), match); };
            const auto isType = [](const QString &type) { return [type](const Event &e) { return e.type() == type; }; };
            const auto finishedEvents = typeCount(isType(QStringLiteral("generation_finished")));
            if (finishedEvents != 1)
                violate(6, g.generationId + QStringLiteral(": generation_finished events: %1").arg(finishedEvents));
            // 7: every started attempt of every stage has exactly one completion
            const auto startedCount = typeCount([](const Event &e) { return std::holds_alternative<AttemptStarted>(e.body); });
            const auto completedCount = typeCount([](const Event &e) { return std::holds_alternative<AttemptCompleted>(e.body); });
            if (startedCount != completedCount || attempts.size() != completedCount)
                violate(7, g.generationId + QStringLiteral(": attempts started %1, completed %2, recorded %3").arg(startedCount).arg(completedCount).arg(attempts.size()));
            // 8: fallback_triggered iff a fallback attempt ran
            const bool fallbackRan = std::any_of(attempts.cbegin(), attempts.cend(), [](const AttemptRecord &a) { return a.role == Role::Fallback; });
            if ((typeCount(isType(QStringLiteral("storyboard_fallback_triggered"))) == 1) != fallbackRan)
                violate(8, g.generationId);
            // 5: the storyboard stage's budget
            const double over = toMs(r.elapsed) - static_cast<double>(budget.count());
            budgetOverruns.push_back(std::max(0.0, over));
            if (over > 5.0)
                violate(5, QStringLiteral("%1: %2 ms over").arg(g.generationId).arg(over, 0, 'f', 2));
            for (const AttemptRecord &a : attempts) {
                latency[{toId(a.stage) + QLatin1Char('/') + toId(a.provider), toId(a.role)}].push_back(toMs(a.duration));
                ++attemptsPer[a.provider];
                if (a.requestsSent > 1)
                    violate(1, QStringLiteral("%1: %2 sent %3 requests").arg(g.generationId, toId(a.provider)).arg(a.requestsSent));
                if (a.requestsSent == 0) { // failed before its request left: never the provider's failure (SPEC 4.5)
                    ++unsentAttempts;
                    violate(12, QStringLiteral("%1: %2 %3 attempt never left Bullpen (%4)")
                                    .arg(g.generationId, toId(a.stage), toId(a.provider), a.failure ? a.failure->detail : QString()));
                    if (unsentExample.isEmpty())
                        unsentExample = QStringLiteral("%1 %2: %3").arg(toId(a.stage), toId(a.provider), a.failure ? a.failure->detail : QString());
                }
                const double past = toMs(a.startedAt + a.duration - a.deadline);
                if (a.abortedBy == AbortReason::Deadline)
                    deadlineOverruns.push_back(std::max(0.0, past));
                if (a.success && past >= 0)
                    violate(3, QStringLiteral("%1: %2 accepted %3 ms after its deadline").arg(g.generationId, toId(a.provider)).arg(past));
            }
            for (const AttemptRecord &a : r.attempts) {
                if (a.role != Role::Fallback)
                    continue;
                const AttemptRecord &p = r.attempts.first();
                const bool handlersFirst = !p.cancelledAt || *p.cancelledAt <= a.startedAt;
                // and by the event log: the primary's completion precedes the fallback's start
                qint64 primaryDone = -1, fallbackStart = -1;
                for (const Event &e : events) {
                    if (const auto *c = std::get_if<AttemptCompleted>(&e.body); c && c->stage == Stage::Storyboard && c->role == Role::Primary)
                        primaryDone = static_cast<qint64>(e.sequence);
                    if (const auto *s = std::get_if<AttemptStarted>(&e.body); s && s->stage == Stage::Storyboard && s->role == Role::Fallback)
                        fallbackStart = static_cast<qint64>(e.sequence);
                }
                if (!handlersFirst || primaryDone < 0 || fallbackStart < primaryDone)
                    violate(4, g.generationId);
            }
            rawUserIds.insert(QStringLiteral("soak-user-%1@example.com").arg(qHash(g.generationId) % 50));
            inFlightIds.erase(g.generationId);
            ++done;
            if (!interrupted && started < total)
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
        request.userId = QStringLiteral("soak-user-%1@example.com").arg(qHash(request.generationId) % 50);
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
    err << "bullpen-cli soak: " << total << " generations, " << lanes.size() << " scenario(s), concurrency " << inFlight
        << (store ? QStringLiteral(", store ") + store->databasePath() : QString()) << "\n";
    err.flush();
    for (int k = 0; k < std::min(inFlight, total); ++k)
        startNext();
    QCoreApplication::exec();
    const double seconds = static_cast<double>(wall.elapsed()) / 1000.0;

    // --- after the run
    std::map<Provider, int> requestsPer;
    for (const Lane &lane : lanes) {
        for (Provider p : {Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic})
            requestsPer[p] += lane.sim->counters(p).requests;
    }
    for (Provider p : {Provider::Gemini, Provider::Qwen, Provider::OpenAI, Provider::Anthropic}) {
        if (requestsPer[p] > attemptsPer[p])
            violate(1, QStringLiteral("%1: simulator saw %2 requests for %3 attempts").arg(toId(p)).arg(requestsPer[p]).arg(attemptsPer[p]));
        if (requestsPer[p] < attemptsPer[p])
            violate(12, QStringLiteral("%1: simulator saw %2 requests for %3 attempts").arg(toId(p)).arg(requestsPer[p]).arg(attemptsPer[p]));
    }
    const double p99Overrun = percentile(deadlineOverruns, 99);
    if (p99Overrun > 5.0)
        violate(2, QStringLiteral("p99 %1 ms past the deadline").arg(p99Overrun, 0, 'f', 2));

    QJsonObject storeSummary;
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
        qint64 attemptsTotal = 0;
        for (const auto &entry : attemptsPer)
            attemptsTotal += entry.second;
        if (rows != started || running != 0 || st.finalStateConflicts != 0 || st.failed != 0)
            violate(6, QStringLiteral("store: %1 generations, %2 not final, %3 second final states, %4 failed writes")
                           .arg(rows)
                           .arg(running)
                           .arg(st.finalStateConflicts)
                           .arg(st.failed));
        if (attemptRows != attemptsTotal || startedEvents != attemptsTotal)
            violate(7, QStringLiteral("store: %1 attempt rows, %2 started events, %3 attempts").arg(attemptRows).arg(startedEvents).arg(attemptsTotal));
        // 9: grep the database files for every raw user id and every key used.
        QByteArray bytes;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
            QFile f(store->databasePath() + suffix);
            if (f.open(QIODevice::ReadOnly))
                bytes += f.readAll();
        }
        for (const QString &user : rawUserIds) {
            if (bytes.contains(user.toUtf8()))
                violate(9, QStringLiteral("raw user id found in the store"));
        }
        if (bytes.contains("soak-secret-key-"))
            violate(9, QStringLiteral("an API key found in the store"));
        // 10: whatever an earlier, killed run left running was finished when this run opened the store,
        // and nothing of anyone's is left running with its process gone.
        if (const int orphans = store->orphanedRunning(); orphans != 0)
            violate(10, QStringLiteral("%1 generation(s) still running with their process gone").arg(orphans));
        storeSummary = QJsonObject{{QStringLiteral("path"), store->databasePath()},
                                   {QStringLiteral("generations"), rows},
                                   {QStringLiteral("attempts"), attemptRows},
                                   {QStringLiteral("records_written"), static_cast<double>(st.written)},
                                   {QStringLiteral("records_failed"), static_cast<double>(st.failed)},
                                   {QStringLiteral("integrity"), store->integrityCheck()}};
    }

    // --- summary
    QJsonObject summary;
    summary.insert(QStringLiteral("generations"), total);
    summary.insert(QStringLiteral("seconds"), seconds);
    summary.insert(QStringLiteral("throughput_per_s"), total / seconds);
    summary.insert(QStringLiteral("fallback_rate"), static_cast<double>(fallbacks) / total);
    QJsonObject lat;
    for (const auto &[key, values] : latency)
        lat.insert(key.first + QLatin1Char('/') + key.second,
                   QJsonObject{{QStringLiteral("n"), static_cast<int>(values.size())},
                               {QStringLiteral("p50_ms"), percentile(values, 50)},
                               {QStringLiteral("p90_ms"), percentile(values, 90)},
                               {QStringLiteral("p99_ms"), percentile(values, 99)}});
    summary.insert(QStringLiteral("latency"), lat);
    summary.insert(QStringLiteral("deadline_overrun_p99_ms"), p99Overrun);
    summary.insert(QStringLiteral("attempts_without_request"), unsentAttempts);
    summary.insert(QStringLiteral("deadline_overrun_max_ms"), deadlineOverruns.empty() ? 0.0 : *std::max_element(deadlineOverruns.begin(), deadlineOverruns.end()));
    summary.insert(QStringLiteral("budget_overrun_max_ms"), budgetOverruns.empty() ? 0.0 : *std::max_element(budgetOverruns.begin(), budgetOverruns.end()));
    QJsonObject perScenario;
    for (const auto &[name, counts] : outcomes) {
        QJsonObject o;
        for (const auto &[k, n] : counts)
            o.insert(k, n);
        perScenario.insert(name, o);
    }
    summary.insert(QStringLiteral("outcomes"), perScenario);
    if (store)
        summary.insert(QStringLiteral("store"), storeSummary);
    QJsonArray invariantArray;
    bool allPass = true;
    for (const Check &c : checks) {
        allPass = allPass && c.violations == 0;
        invariantArray.append(QJsonObject{{QStringLiteral("number"), c.number},
                                          {QStringLiteral("pass"), c.violations == 0},
                                          {QStringLiteral("text"), c.text},
                                          {QStringLiteral("violations"), static_cast<double>(c.violations)},
                                          {QStringLiteral("example"), c.worst}});
    }
    summary.insert(QStringLiteral("invariants"), invariantArray);

    if (parser.isSet(json)) {
        out << QJsonDocument(summary).toJson(QJsonDocument::Indented);
    } else {
        out << QStringLiteral("%1 generations in %2 s: %3 per second; fallback rate %4 %\n")
                   .arg(total)
                   .arg(seconds, 0, 'f', 1)
                   .arg(total / seconds, 0, 'f', 1)
                   .arg(100.0 * fallbacks / total, 0, 'f', 1);
        out << "latency (ms)          n      p50      p90      p99\n";
        for (const auto &[key, values] : latency)
            out << QStringLiteral("  %1 %2 %3 %4 %5\n")
                       .arg(key.first + QLatin1Char('/') + key.second, -17)
                       .arg(values.size(), 6)
                       .arg(percentile(values, 50), 8, 'f', 1)
                       .arg(percentile(values, 90), 8, 'f', 1)
                       .arg(percentile(values, 99), 8, 'f', 1);
        out << "outcomes by scenario:\n";
        for (const auto &[name, counts] : outcomes) {
            QStringList parts;
            for (const auto &[k, n] : counts)
                parts << QStringLiteral("%1 %2").arg(k).arg(n);
            out << "  " << qSetFieldWidth(28) << Qt::left << name << qSetFieldWidth(0) << parts.join(QStringLiteral(", ")) << "\n";
        }
        if (store)
            out << "store: " << storeSummary.value(QStringLiteral("path")).toString() << " — " << storeSummary.value(QStringLiteral("generations")).toInt()
                << " generations, " << storeSummary.value(QStringLiteral("attempts")).toInt() << " attempts, integrity "
                << storeSummary.value(QStringLiteral("integrity")).toString() << "\n";
        if (unsentAttempts)
            out << QStringLiteral("%1 attempt(s) failed before their request left (not resent, SPEC 4.4), e.g. %2\n").arg(unsentAttempts).arg(unsentExample);
        out << QStringLiteral("deadline overrun p99 %1 ms (max %2 ms); budget overrun max %3 ms\n")
                   .arg(p99Overrun, 0, 'f', 2)
                   .arg(summary.value(QStringLiteral("deadline_overrun_max_ms")).toDouble(), 0, 'f', 2)
                   .arg(summary.value(QStringLiteral("budget_overrun_max_ms")).toDouble(), 0, 'f', 2);
        for (const Check &c : checks)
            out << (c.violations == 0 ? "PASS" : "FAIL") << " invariant " << c.number << ": " << c.text
                << (c.violations ? QStringLiteral(" — %1 violation(s), e.g. %2").arg(c.violations).arg(c.worst) : QString()) << "\n";
    }
    out.flush();
    lanes.clear(); // the pipelines hold the store: they go first
    return allPass ? 0 : 1;
}

} // namespace bullpen::cli
